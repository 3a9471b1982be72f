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

    public func frames(forSeconds seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
    public func seconds(forFrames frames: Int) -> Double { Double(frames) / Double(rate) }

    public var description: String {
        "\(rate) Hz \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels") s16"
    }
}
