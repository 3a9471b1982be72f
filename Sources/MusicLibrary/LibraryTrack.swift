/// One file of the music library as the index holds it: where it is, what
/// it was when read (size, modification time, so a rescan re-reads only what
/// changed), and its tags. Nil where the file has no such tag.
public struct LibraryTrack: Equatable, Hashable, Sendable {
    public var path: String
    /// The path below the library folder it was found in: what search
    /// matches `path:` and free words against (the folder's own name would
    /// match every track; leaving its words out also halved a first scan's
    /// full-text work at 100,000 files).
    public var relativePath: String
    public var size: Int64
    /// Nanoseconds since the epoch: two writes within one second still differ.
    public var modifiedNanoseconds: Int64
    public var durationSeconds: Double?
    /// The codec's short name ("mp3", "flac", "aac"...).
    public var format: String?
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var trackNumber: Int?
    public var discNumber: Int?
    public var year: Int?
    public var genre: String?
    /// ReplayGain in dB and peaks as linear sample values (1.0 is full scale).
    public var trackGain: Double?
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(path: String, relativePath: String? = nil, size: Int64 = 0, modifiedNanoseconds: Int64 = 0, durationSeconds: Double? = nil,
                format: String? = nil, title: String? = nil, artist: String? = nil, album: String? = nil,
                albumArtist: String? = nil, trackNumber: Int? = nil, discNumber: Int? = nil, year: Int? = nil,
                genre: String? = nil, trackGain: Double? = nil, trackPeak: Double? = nil,
                albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.path = path
        self.relativePath = relativePath ?? path
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.durationSeconds = durationSeconds
        self.format = format
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.year = year
        self.genre = genre
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    /// The title, else the file name without its folder and extension.
    public var displayTitle: String {
        if let title, !title.isEmpty { return title }
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }

    /// Whom the album is filed under: its album artist, else the track's artist.
    public var filingArtist: String {
        if let albumArtist, !albumArtist.isEmpty { return albumArtist }
        if let artist, !artist.isEmpty { return artist }
        return LibraryTree.unknownArtist
    }
}

/// The numbers of tag text as listeners write them: "3", "3/12", "2004-05-01".
public enum TagNumbers {
    /// The leading number of "3/12" (3), nil when the text starts otherwise.
    public static func leadingNumber(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return Int(digits)
    }

    /// The year of "2004", "2004-05-01" or "2004/05": its first four digits.
    public static func year(_ text: String?) -> Int? {
        guard let text else { return nil }
        let digits = text.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4 else { return nil }
        return Int(digits.prefix(4))
    }
}
