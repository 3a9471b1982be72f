import BookFormat

/// The few ID3v2 text frames a book needs: its title, the file's own title
/// (a chapter name when the book is a folder), and who wrote or reads it.
public struct BookTags: Equatable, Sendable {
    /// TALB: the book's title in most audiobook rips.
    public var album: String?
    /// TIT2: the file's title.
    public var title: String?
    /// TPE1: the author (or narrator).
    public var artist: String?
    /// TPE2: the album artist, when TPE1 names the narrator.
    public var albumArtist: String?

    public init(album: String? = nil, title: String? = nil, artist: String? = nil, albumArtist: String? = nil) {
        self.album = album
        self.title = title
        self.artist = artist
        self.albumArtist = albumArtist
    }

    /// The frames of `tag`; a damaged frame just leaves its field empty.
    public init(tag: ID3v2Tag) {
        func text(_ id: String) -> String? {
            guard let frame = tag.frames(withID: id).first,
                  let value = try? ID3v2TextFrame(body: frame.body).text else { return nil }
            let trimmed = value.trimmingSpaces
            return trimmed.isEmpty ? nil : trimmed
        }
        self.init(album: text("TALB"), title: text("TIT2"), artist: text("TPE1"), albumArtist: text("TPE2"))
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
