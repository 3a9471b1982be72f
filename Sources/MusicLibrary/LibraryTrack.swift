/// One file of the music library as the index holds it: where it is, what
/// it was when read (size, modification time, so a rescan re-reads only what
/// changed), and its tags. Nil where the file has no such tag.
///
/// A value, stored in one shared box that is copied on the first change
/// (copy on write): the library pane copies each of up to 2,000 tracks into
/// the tree, its album and its rows on every key of the filter, and a copy of
/// the fields themselves retained and released each of up to eight strings
/// (a sixth of a typing profile at 100,000 tracks). A copy of the box is one.
public struct LibraryTrack: Equatable, Hashable, Sendable {
    private struct Fields: Hashable {
        var path: String
        var relativePath: String
        var size: Int64
        var modifiedNanoseconds: Int64
        var durationSeconds: Double?
        var format: String?
        var sampleRate: Int?
        var channels: Int?
        var title: String?
        var artists: [String]
        var album: String?
        var albumArtists: [String]
        var trackNumber: Int?
        var discNumber: Int?
        var year: Int?
        var genres: [String]
        var trackGain: Double?
        var trackPeak: Double?
        var albumGain: Double?
        var albumPeak: Double?
    }

    // Sendable because it is never changed while shared: every setter below
    // first makes the box its own (`fields`' `_modify`).
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    // Read through `box.fields.x` (one field), not this (a copy of all of them).
    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    public static func == (a: LibraryTrack, b: LibraryTrack) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    public var path: String { get { box.fields.path } set { fields.path = newValue } }
    /// The path below the library folder it was found in: what search
    /// matches `path:` and free words against (the folder's own name would
    /// match every track; leaving its words out also halved a first scan's
    /// full-text work at 100,000 files).
    public var relativePath: String { get { box.fields.relativePath } set { fields.relativePath = newValue } }
    public var size: Int64 { get { box.fields.size } set { fields.size = newValue } }
    /// Nanoseconds since the epoch: two writes within one second still differ.
    public var modifiedNanoseconds: Int64 { get { box.fields.modifiedNanoseconds } set { fields.modifiedNanoseconds = newValue } }
    public var durationSeconds: Double? { get { box.fields.durationSeconds } set { fields.durationSeconds = newValue } }
    /// The codec's short name ("mp3", "flac", "aac"...).
    public var format: String? { get { box.fields.format } set { fields.format = newValue } }
    /// The file's own sample rate and channels (what MPD's `Format` says), before the player converts it.
    public var sampleRate: Int? { get { box.fields.sampleRate } set { fields.sampleRate = newValue } }
    public var channels: Int? { get { box.fields.channels } set { fields.channels = newValue } }
    public var title: String? { get { box.fields.title } set { fields.title = newValue } }
    /// Each artist the tags name (several ARTIST comments, ID3v2.4's list),
    /// in their order: the tree files an album under each, search finds it by each.
    public var artists: [String] { get { box.fields.artists } set { fields.artists = newValue } }
    public var album: String? { get { box.fields.album } set { fields.album = newValue } }
    public var albumArtists: [String] { get { box.fields.albumArtists } set { fields.albumArtists = newValue } }
    public var trackNumber: Int? { get { box.fields.trackNumber } set { fields.trackNumber = newValue } }
    public var discNumber: Int? { get { box.fields.discNumber } set { fields.discNumber = newValue } }
    public var year: Int? { get { box.fields.year } set { fields.year = newValue } }
    public var genres: [String] { get { box.fields.genres } set { fields.genres = newValue } }

    /// The artists as one line ("A; B", as `AudioTags` joins them); setting
    /// it sets one artist (nil or empty: none).
    public var artist: String? { get { Self.joined(box.fields.artists) } set { fields.artists = Self.list(newValue) } }
    public var albumArtist: String? { get { Self.joined(box.fields.albumArtists) } set { fields.albumArtists = Self.list(newValue) } }
    public var genre: String? { get { Self.joined(box.fields.genres) } set { fields.genres = Self.list(newValue) } }

    /// One value as it is (no new string for the common case), several joined.
    static func joined(_ values: [String]) -> String? {
        values.count <= 1 ? values.first : values.joined(separator: "; ")
    }

    static func list(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        return [value]
    }
    /// ReplayGain in dB and peaks as linear sample values (1.0 is full scale).
    public var trackGain: Double? { get { box.fields.trackGain } set { fields.trackGain = newValue } }
    public var trackPeak: Double? { get { box.fields.trackPeak } set { fields.trackPeak = newValue } }
    public var albumGain: Double? { get { box.fields.albumGain } set { fields.albumGain = newValue } }
    public var albumPeak: Double? { get { box.fields.albumPeak } set { fields.albumPeak = newValue } }

    public init(path: String, relativePath: String? = nil, size: Int64 = 0, modifiedNanoseconds: Int64 = 0, durationSeconds: Double? = nil,
                format: String? = nil, title: String? = nil, artist: String? = nil, album: String? = nil,
                albumArtist: String? = nil, trackNumber: Int? = nil, discNumber: Int? = nil, year: Int? = nil,
                genre: String? = nil, trackGain: Double? = nil, trackPeak: Double? = nil,
                albumGain: Double? = nil, albumPeak: Double? = nil) {
        box = Box(Fields(path: path, relativePath: relativePath ?? path, size: size, modifiedNanoseconds: modifiedNanoseconds,
                         durationSeconds: durationSeconds, format: format, sampleRate: nil, channels: nil, title: title,
                         artists: Self.list(artist), album: album,
                         albumArtists: Self.list(albumArtist), trackNumber: trackNumber, discNumber: discNumber, year: year,
                         genres: Self.list(genre),
                         trackGain: trackGain, trackPeak: trackPeak, albumGain: albumGain, albumPeak: albumPeak))
    }

    /// The title, else the file name without its folder and extension.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }
}
