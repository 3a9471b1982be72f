import InterludeCore
import SpokenAudio

/// What is remembered about one book: where the listener was, at what
/// speed, their bookmarks, and when it last changed.
///
/// The position is kept twice: as book time, and as a file name plus the
/// offset into it. When the folder changes (a file added in front), the
/// file name still finds the place; book time is the fallback.
public struct BookState: Equatable, Sendable {
    public var positionMilliseconds: Int
    /// The file the position is in, by name (see `BookFile.name`), and the offset into it.
    public var fileName: String?
    public var fileOffsetMilliseconds: Int
    public var speed: Double
    public private(set) var bookmarks: [Bookmark]
    public private(set) var nextBookmarkID: Int
    public var updated: WallInstant
    /// The book's path when last played, for people reading the file.
    public var path: String?
    /// The book's length when a position was last set (exact: the player
    /// decodes files without a Xing/Info header to learn theirs), so a list
    /// of books can show progress without decoding every file again.
    public var durationMilliseconds: Int?
    /// Pauses shortened and voices levelled for this book (or a podcast's
    /// episodes); nil follows the config's default for its kind.
    public var trimSilence: TrimStrength?
    public var voiceBoost: VoiceBoost?
    /// Listening time the trimmer saved in this book, all runs together.
    public var timeSavedMilliseconds = 0

    public static let defaultSpeed = 1.0

    public init(positionMilliseconds: Int = 0, fileName: String? = nil, fileOffsetMilliseconds: Int = 0,
                speed: Double = defaultSpeed, bookmarks: [Bookmark] = [], nextBookmarkID: Int? = nil,
                updated: WallInstant = WallInstant(sinceEpoch: .zero), path: String? = nil,
                durationMilliseconds: Int? = nil) {
        self.positionMilliseconds = max(0, positionMilliseconds)
        self.fileName = fileName
        self.fileOffsetMilliseconds = max(0, fileOffsetMilliseconds)
        self.speed = speed
        self.bookmarks = bookmarks.sorted(by: Self.bookmarkOrder)
        self.nextBookmarkID = max(nextBookmarkID ?? 1, (bookmarks.map(\.id).max() ?? 0) + 1)
        self.updated = updated
        self.path = path
        self.durationMilliseconds = durationMilliseconds.map { max(0, $0) }
    }

    /// The start of a book nobody has played yet.
    public static let start = BookState()

    // MARK: Position

    /// Records a book position with its file and offset.
    public mutating func setPosition(_ milliseconds: Int, in book: Book, now: WallInstant) {
        let position = book.clamp(milliseconds)
        let location = book.location(at: position)
        positionMilliseconds = position
        fileName = book.files[location.fileIndex].name
        fileOffsetMilliseconds = location.offsetMilliseconds
        updated = now
        path = book.path
        durationMilliseconds = book.durationMilliseconds
    }

    /// Where to continue in `book`: the saved file and offset when that file
    /// is still in the book, else the saved book time, clamped to the book.
    public func resumePosition(in book: Book) -> Int {
        if let fileName, let index = book.files.firstIndex(where: { $0.name == fileName }) {
            return book.position(of: BookLocation(fileIndex: index, offsetMilliseconds: fileOffsetMilliseconds))
        }
        return book.clamp(positionMilliseconds)
    }

    // MARK: Bookmarks

    /// Adds a bookmark and returns it.
    @discardableResult
    public mutating func addBookmark(at milliseconds: Int, note: String?, now: WallInstant) -> Bookmark {
        let mark = Bookmark(id: nextBookmarkID, positionMilliseconds: max(0, milliseconds), note: note, created: now)
        nextBookmarkID += 1
        bookmarks.append(mark)
        bookmarks.sort(by: Self.bookmarkOrder)
        updated = now
        return mark
    }

    public func bookmark(id: Int) -> Bookmark? {
        bookmarks.first { $0.id == id }
    }

    /// Removes a bookmark; false when there is none with that number.
    @discardableResult
    public mutating func deleteBookmark(id: Int, now: WallInstant) -> Bool {
        guard let index = bookmarks.firstIndex(where: { $0.id == id }) else { return false }
        bookmarks.remove(at: index)
        updated = now
        return true
    }

    /// In book order; equal positions by number.
    private static func bookmarkOrder(_ a: Bookmark, _ b: Bookmark) -> Bool {
        (a.positionMilliseconds, a.id) < (b.positionMilliseconds, b.id)
    }
}
