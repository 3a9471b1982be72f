/// A file's descriptive tags, whichever tag format they came from; nil where
/// the file has no such field or it is empty.
public struct Tags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var year: String?
    public var genre: String?
    public var comment: String?
    /// The album's artist where `artist` names a track's (or a narrator).
    public var albumArtist: String?
    /// As stored: "3" or "3/12".
    public var track: String?
    public var disc: String?
    /// `REPLAYGAIN_TRACK_GAIN` and the like as stored ("-6.20 dB", "0.98"), by upper-case name.
    public var replayGain: [String: String] = [:]
    public init() {}
}
