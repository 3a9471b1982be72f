/// A file's tags, whichever format they came from (ID3v2, Vorbis comments in
/// FLAC and Ogg, MP4 atoms, a cue sheet's words, what libavformat found): the
/// one type every decoder reports and every reader (the library's scan, the
/// now-playing title, a book's chapters, ReplayGain, `info`) takes. Read once
/// per file, by the decoder that opens it or, where no decoder is wanted (the
/// folder browser's titles), by `AudioTags.read(path:)` with the same mapping.
///
/// Fields are nil (or empty) where the file has none or only an empty one.
/// Every number is range-checked where it is read: a value out of range is
/// dropped, never carried into arithmetic.
public struct AudioTags: Equatable, Sendable {
    public var title: String?
    /// In the file's order: several ARTIST comments, ID3v2.4's NUL-separated
    /// list, or one value.
    public var artists: [String] = []
    public var album: String?
    /// The album's artists where `artists` names a track's (or a narrator),
    /// in the file's order like `artists`.
    public var albumArtists: [String] = []
    public var track: Position?
    public var disc: Position?
    /// The date as stored ("1818", "2001-05-03", "2001-05-03T10:00").
    public var date: String?
    /// The year of `date` (or of ID3v2.3's TYER), 1-9999.
    public var year: Int?
    /// In the file's order, ID3's numbered genres ("(17)", "17") by name.
    public var genres: [String] = []
    public var comment: String?
    /// MusicBrainz's identifiers, where a tagger (Picard, beets) wrote them.
    public var musicBrainz = MusicBrainzIDs()
    /// In the stream's order, in milliseconds of the file's own time.
    public var chapters: [Chapter] = []
    public var replayGain = ReplayGainInfo()
    /// Embedded pictures, as references: where the bytes are, not the bytes.
    public var pictures: [EmbeddedPicture] = []
    /// The lyrics the tag carries (ID3 SYLT, else USLT; a Vorbis `LYRICS` or
    /// `UNSYNCEDLYRICS` comment; MP4's `©lyr`), bounded by `Lyrics`' limits.
    /// A `NAME.lrc` beside the file is not read here (`Lyrics.find`).
    public var lyrics: Lyrics?
    /// The first problem met in the tag, without the path ("damaged ID3v2
    /// tag: ..."); what was read before it is kept. nil for an intact tag.
    public var damage: String?

    public init(title: String? = nil, artists: [String] = [], album: String? = nil, albumArtist: String? = nil) {
        self.title = title
        self.artists = artists
        self.album = album
        self.albumArtist = albumArtist
    }

    /// The artists as one line, the way taggers join them.
    public var artist: String? { artists.isEmpty ? nil : artists.joined(separator: "; ") }
    public var genre: String? { genres.isEmpty ? nil : genres.joined(separator: "; ") }
    /// The album artists as one line; setting it sets one album artist (nil: none).
    public var albumArtist: String? {
        get { albumArtists.isEmpty ? nil : albumArtists.joined(separator: "; ") }
        set { albumArtists = newValue.map { [$0] } ?? [] }
    }

    /// Whether no descriptive field is set (chapters, gains and pictures aside).
    public var hasNoText: Bool {
        title == nil && artists.isEmpty && album == nil && albumArtists.isEmpty && track == nil && disc == nil
            && date == nil && year == nil && genres.isEmpty && comment == nil
    }

    /// The first front cover, else the first picture.
    public var cover: EmbeddedPicture? { pictures.first { $0.kind == .frontCover } ?? pictures.first }

    /// Each field this one lacks, taken from `other` (one source's tags win over another's).
    public func filling(from other: AudioTags) -> AudioTags {
        var tags = self
        tags.title = title ?? other.title
        if artists.isEmpty { tags.artists = other.artists }
        tags.album = album ?? other.album
        if albumArtists.isEmpty { tags.albumArtists = other.albumArtists }
        tags.track = track ?? other.track
        tags.disc = disc ?? other.disc
        tags.date = date ?? other.date
        tags.year = year ?? other.year
        if genres.isEmpty { tags.genres = other.genres }
        tags.comment = comment ?? other.comment
        tags.musicBrainz = musicBrainz.filling(from: other.musicBrainz)
        if chapters.isEmpty { tags.chapters = other.chapters }
        tags.replayGain = replayGain.filling(from: other.replayGain)
        if pictures.isEmpty { tags.pictures = other.pictures }
        tags.lyrics = lyrics ?? other.lyrics
        return tags
    }

    /// A track's or disc's place: "3", "3/12" (ID3, Vorbis comments as
    /// written), or MP4's two binary numbers.
    public struct Position: Equatable, Sendable, CustomStringConvertible {
        /// 1...99_999 (a box set of 400 discs and a 10,000-track audiobook fit).
        public static let range = 1...99_999
        public let number: Int?
        public let total: Int?

        /// nil when neither number is in range.
        public init?(number: Int?, total: Int?) {
            let number = number.flatMap { Self.range.contains($0) ? $0 : nil }
            let total = total.flatMap { Self.range.contains($0) ? $0 : nil }
            guard number != nil || total != nil else { return nil }
            self.number = number
            self.total = total
        }

        /// "3", "3/12", " 03 / 12 ", "/12"; a number with more than five digits
        /// (or none) is dropped, so no text reaches an overflow.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            self.init(number: parts.first.flatMap(Self.leadingNumber), total: parts.count > 1 ? Self.leadingNumber(parts[1]) : nil)
        }

        /// The digits after any spaces, up to the first other character.
        static func leadingNumber(_ text: Substring) -> Int? {
            let digits = text.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 5 else { return nil }
            return Int(digits)
        }

        /// As written: "3/12", "3", or "/12" for a total alone.
        public var description: String {
            let first = number.map(String.init) ?? ""
            return total.map { "\(first)/\($0)" } ?? first
        }

        /// This one's number with `other`'s total where this has none (Vorbis
        /// comments keep the total in a field of its own).
        func withTotal(_ total: Int?) -> Position? {
            Position(number: number, total: self.total ?? total)
        }
    }

    /// The year a date starts with: its first four digits, 1-9999 ("2001-05-03", "2001", "20010503").
    public static func year(of date: String) -> Int? {
        let digits = date.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, let year = Int(digits.prefix(4)), year >= 1 else { return nil }
        return year
    }

    /// Sets `date` and `year` from a stored date, if it has text and no date is set.
    public mutating func setDate(_ text: String?) {
        guard let text, !text.isEmpty, date == nil else { return }
        date = text
        year = year ?? Self.year(of: text)
    }
}
