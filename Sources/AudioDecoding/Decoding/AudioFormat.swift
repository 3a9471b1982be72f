/// The one sample encoding of the whole pipeline: signed 16-bit native-endian
/// interleaved PCM, at `rate` frames per second with `channels` samples a frame.
///
/// 16-bit is what `mpg123 -w` writes, so the decoder's output can be compared
/// with the reference sample for sample, and what every ALSA device accepts.
public struct AudioFormat: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rate: Int
    public var channels: Int

    public init(rate: Int, channels: Int) {
        self.rate = rate
        self.channels = channels
    }

    public static let bytesPerSample = 2
    public var bytesPerFrame: Int { channels * Self.bytesPerSample }

    /// The most frames a position or a length is taken to be: 2^48 frames is
    /// 46 years at 192 kHz, far past any file, and times 16 bytes a frame
    /// still far from `Int.max`.
    public static let frameLimit = 1 << 48

    /// Total: a position from a state file or a client (`1e300`, NaN) is
    /// clamped to `frameLimit` either way (NaN is 0) instead of trapping in
    /// the conversion.
    public func frames(forSeconds seconds: Double) -> Int {
        let frames = seconds * Double(rate)
        guard !frames.isNaN else { return 0 }
        let limit = Double(Self.frameLimit)
        return Int(min(max(frames, -limit), limit).rounded())
    }
    public func seconds(forFrames frames: Int) -> Double { Double(frames) / Double(rate) }

    public var description: String {
        "\(rate) Hz \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels") s16"
    }
}
