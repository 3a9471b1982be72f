import InterludeCore

/// How many output frames each packet of a station decodes to, from the
/// demuxer's packet durations (in the stream's time base): the labels of the
/// time-shift buffer's chunks (`TimeShiftBuffer`), counted on the reader
/// thread without decoding. The remainder of each division is carried to
/// the next packet, so the labels add up to the exact conversion of the
/// whole stream's duration and never drift. A duration the demuxer does not
/// know (0), or one out of range, counts as `fallbackFrames` (the codec's
/// frame size, converted). Pure.
public struct PacketFrameCounter: Sendable, Equatable {
    /// A time base's numerator and denominator (FFmpeg's `AVRational`, positive).
    public static let timeBaseParts = CountRange(1...Int(Int32.max))
    /// At most 10 s of audio in one packet.
    public static let maximumPacketSeconds = 10

    public let numerator: Int
    public let denominator: Int
    public let outputRate: Int
    public let fallbackFrames: Int
    private var remainder = 0

    /// Nil when the time base or the rate is out of range.
    public init?(timeBaseNumerator: Int, timeBaseDenominator: Int, outputRate: Int, fallbackFrames: Int) {
        guard Self.timeBaseParts.range.contains(timeBaseNumerator), Self.timeBaseParts.range.contains(timeBaseDenominator),
              TimeShiftBuffer.sampleRates.contains(outputRate) else { return nil }
        numerator = timeBaseNumerator
        denominator = timeBaseDenominator
        self.outputRate = outputRate
        self.fallbackFrames = min(max(1, fallbackFrames), outputRate * Self.maximumPacketSeconds)
    }

    /// The output frames of the next packet, `duration` ticks of the time base long.
    public mutating func frames(forDuration duration: Int64) -> Int {
        // duration * numerator <= 10 s * denominator, checked before multiplying
        // (both parts below 2^31, so the products below stay far inside Int).
        guard duration > 0, duration <= Int64(Self.maximumPacketSeconds) * Int64(denominator) / Int64(numerator) else {
            return fallbackFrames
        }
        // At most 10 s * 384 kHz * denominator < 2^31 * 3.9e6: inside Int.
        let scaled = Int(duration) * numerator * outputRate + remainder
        remainder = scaled % denominator
        return max(1, scaled / denominator)
    }
}
