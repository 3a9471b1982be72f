/// How a stream is coded, as `info` reports it: plain values, so no caller
/// needs the decoding library's own structures.
public struct StreamInfo: Equatable, Sendable {
    public enum Codec: Equatable, Sendable {
        /// MPEG-1, -2 or -2.5 audio, layer 1 to 3 (an MP3 is layer 3).
        case mpegAudio(version: MPEGVersion, layer: Int)
        /// What FFmpeg's libraries decode: the container ("MP4", "FLAC",
        /// "Ogg", "WAV") and the codec ("AAC", "ALAC", "FLAC", "Vorbis", "Opus", ...).
        case other(container: String, codec: String)
    }

    /// The MPEG audio version, spelled as `info` prints it.
    public enum MPEGVersion: String, Sendable {
        case mpeg1 = "1"
        case mpeg2 = "2"
        case mpeg25 = "2.5"
    }

    /// Spelled as `info --json` prints it.
    public enum BitrateMode: String, Sendable {
        case constant = "cbr"
        case variable = "vbr"
        case average = "abr"
    }

    public let codec: Codec
    /// The nominal bitrate in kbit/s of the frame most recently decoded (for a
    /// constant bitrate, the stream's).
    public let bitrateKbps: Int
    public let bitrateMode: BitrateMode

    public init(codec: Codec, bitrateKbps: Int, bitrateMode: BitrateMode) {
        self.codec = codec
        self.bitrateKbps = bitrateKbps
        self.bitrateMode = bitrateMode
    }
}
