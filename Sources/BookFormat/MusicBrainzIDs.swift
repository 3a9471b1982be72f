/// MusicBrainz's identifiers as taggers store them: ID3's `UFID` owned by
/// "http://musicbrainz.org" (the recording) and `TXXX` frames named
/// "MusicBrainz Album Id" and the like, Vorbis comments `MUSICBRAINZ_ALBUMID`
/// and the like, MP4's freeform `----:com.apple.iTunes:MusicBrainz Album Id`.
/// Kept as written (a UUID in practice); a track of several artists has
/// several artist ids.
public struct MusicBrainzIDs: Equatable, Sendable {
    public var recordingID: String?
    /// The release's ("album" in the tag names).
    public var albumID: String?
    public var artistIDs: [String] = []
    public var albumArtistIDs: [String] = []
    public var releaseGroupID: String?

    public init() {}

    public var isEmpty: Bool {
        recordingID == nil && albumID == nil && artistIDs.isEmpty && albumArtistIDs.isEmpty && releaseGroupID == nil
    }

    /// Each id this one lacks, taken from `other`.
    public func filling(from other: MusicBrainzIDs) -> MusicBrainzIDs {
        var ids = self
        ids.recordingID = recordingID ?? other.recordingID
        ids.albumID = albumID ?? other.albumID
        if artistIDs.isEmpty { ids.artistIDs = other.artistIDs }
        if albumArtistIDs.isEmpty { ids.albumArtistIDs = other.albumArtistIDs }
        ids.releaseGroupID = releaseGroupID ?? other.releaseGroupID
        return ids
    }

    /// Sets the field a `NAME = VALUE` field names, by the names Picard
    /// writes: ID3 TXXX descriptions and MP4 freeform names ("MusicBrainz
    /// Album Id") or Vorbis comment names ("MUSICBRAINZ_ALBUMID"), in any
    /// case. False for another name. A first value is kept; artist ids
    /// collect.
    public mutating func set(name: String, values: [String]) -> Bool {
        let values = values.filter { !$0.isEmpty }
        switch name.uppercased() {
        case "MUSICBRAINZ ALBUM ID", "MUSICBRAINZ_ALBUMID": albumID = albumID ?? values.first
        case "MUSICBRAINZ ARTIST ID", "MUSICBRAINZ_ARTISTID": artistIDs += values
        case "MUSICBRAINZ ALBUM ARTIST ID", "MUSICBRAINZ_ALBUMARTISTID": albumArtistIDs += values
        case "MUSICBRAINZ RELEASE GROUP ID", "MUSICBRAINZ_RELEASEGROUPID": releaseGroupID = releaseGroupID ?? values.first
        // MP4's and Vorbis's name for the recording (ID3 keeps it in UFID).
        case "MUSICBRAINZ TRACK ID", "MUSICBRAINZ_TRACKID": recordingID = recordingID ?? values.first
        default: return false
        }
        return true
    }
}
