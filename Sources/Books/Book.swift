import BookFormat
/// A book laid out in book time: its files one after another, its chapters
/// tiling the whole, its title and author.
///
/// Lengths are the decoder's, supplied by the application (`duration` in
/// `init`): tags and folder listings cannot tell exact lengths, and this
/// module stays free of C. A file the decoder cannot open (no length) is
/// left out of the book and named in `skippedFiles`.
///
/// Chapters start where their `CHAP` frame says (offset by their file's
/// start) and end where the next one starts, so every instant of the book
/// belongs to exactly one chapter; the first chapter of a file is moved to
/// the file's start. A file without chapters is one chapter, titled by its
/// TIT2 frame or its file name.
public struct Book: Equatable, Sendable {
    public let id: BookID
    public let path: String
    public let kind: BookSource.Kind
    public let title: String
    public let author: String?
    public let files: [BookFile]
    public let chapters: [BookChapter]
    public let skippedFiles: [String]
    /// Problems with tags met while reading, one sentence each.
    public let tagProblems: [String]
    /// Files left out because they would end past `longestMilliseconds`, one sentence each.
    public let lengthProblems: [String]

    /// The longest book: a thousand hours, longer than any book made (the
    /// longest run to about 150 hours). Files that would end later are left
    /// out, so every place in a book fits its state file
    /// (`BookStateFormat.positionRange` is this range) and no sum of lengths
    /// can overflow.
    public static let longestMilliseconds = 3_600_000_000

    public var durationMilliseconds: Int { files.last?.endMilliseconds ?? 0 }

    /// `absolutePath` names the state file (see `BookID`) unless `id` is
    /// given (a podcast episode is known by its identity, whether it plays
    /// from its URL or its download); `duration` gives each file's exact
    /// length in milliseconds, nil when it cannot be decoded.
    public init(source: BookSource, absolutePath: String, id: BookID? = nil,
                duration: (BookSource.File) -> Int?) throws(BookLoadError) {
        var files: [BookFile] = []
        var chapters: [BookChapter] = []
        var skipped: [String] = []
        var tooLong: [String] = []
        var start = 0
        for file in source.files {
            guard let decoded = duration(file) else {
                skipped.append(file.path)
                continue
            }
            let length = max(0, decoded)
            // By subtraction: `start + length` of a damaged length could overflow.
            guard length <= Self.longestMilliseconds - start else {
                tooLong.append("\(file.path): would end past \(Self.longestMilliseconds / 3_600_000) h into the book; "
                               + "the book plays without it")
                continue
            }
            let fileIndex = files.count
            files.append(BookFile(path: file.path, startMilliseconds: start, durationMilliseconds: length))
            let titleOfWhole = source.kind == .file
                ? (file.tags.title ?? file.tags.album ?? source.baseName)
                : (file.tags.title ?? BookSource.withoutExtension(files[fileIndex].name))
            let titled: [(title: String, offset: Int)] = file.chapters.isEmpty
                ? [(titleOfWhole, 0)]
                : file.chapters.map { ($0.title, min(max(0, $0.startMilliseconds), length)) }
            // The first chapter opens the file; tags list chapters in playing
            // order, so a start before the previous one is damage and is moved up to it.
            var offsets = titled.map(\.offset)
            offsets[0] = 0
            for place in offsets.indices.dropFirst() { offsets[place] = max(offsets[place], offsets[place - 1]) }
            for (place, entry) in titled.enumerated() {
                let end = place + 1 < offsets.count ? offsets[place + 1] : length
                chapters.append(BookChapter(index: chapters.count, title: entry.title,
                                            startMilliseconds: start + offsets[place],
                                            endMilliseconds: start + end, fileIndex: fileIndex))
            }
            start += length
        }
        guard !files.isEmpty else { throw .nothingPlayable(path: source.path) }
        self.id = id ?? BookID(absolutePath: absolutePath)
        path = absolutePath
        kind = source.kind
        self.files = files
        self.chapters = chapters
        skippedFiles = skipped
        tagProblems = source.files.compactMap(\.tagProblem)
        lengthProblems = tooLong
        let first = source.files.first?.tags ?? AudioTags()
        switch source.kind {
        case .folder:
            title = source.files.lazy.compactMap(\.tags.album).first ?? source.baseName
        case .file:
            title = first.album ?? first.title ?? source.baseName
        }
        author = source.files.lazy.compactMap { $0.tags.artist ?? $0.tags.albumArtist }.first
    }

    // MARK: Positions

    /// `milliseconds` moved into the book: 0 ... duration.
    public func clamp(_ milliseconds: Int) -> Int {
        min(max(0, milliseconds), durationMilliseconds)
    }

    /// The file and offset of a book position. The end of the book is the end
    /// of its last file.
    public func location(at milliseconds: Int) -> BookLocation {
        let position = clamp(milliseconds)
        let index = files.lastIndex { $0.startMilliseconds <= position && $0.durationMilliseconds > 0 }
            ?? files.lastIndex { $0.startMilliseconds <= position } ?? 0
        return BookLocation(fileIndex: index, offsetMilliseconds: position - files[index].startMilliseconds)
    }

    /// The book position of a file and offset (the offset clamped to the file).
    public func position(of location: BookLocation) -> Int {
        guard files.indices.contains(location.fileIndex) else { return clamp(location.offsetMilliseconds) }
        let file = files[location.fileIndex]
        return file.startMilliseconds + min(max(0, location.offsetMilliseconds), file.durationMilliseconds)
    }

    /// Time left from a book position, in book time.
    public func timeLeft(from milliseconds: Int) -> Int {
        durationMilliseconds - clamp(milliseconds)
    }

    /// Time left in listening time at `speed` (2.0 plays an hour of book in half an hour).
    public func timeLeft(from milliseconds: Int, speed: Double) -> Int {
        Int((Double(timeLeft(from: milliseconds)) / max(speed, 0.01)).rounded())
    }

    // MARK: Chapters

    /// The chapter playing at a book position: the last one started by then
    /// (zero-length chapters are passed over by the next one at the same start).
    public func chapter(at milliseconds: Int) -> BookChapter {
        let position = clamp(milliseconds)
        if position >= durationMilliseconds, let last = chapters.last { return last }
        return chapters.last { $0.startMilliseconds <= position } ?? chapters[0]
    }

    /// Book time until the chapter playing at `milliseconds` ends.
    public func timeLeftInChapter(from milliseconds: Int) -> Int {
        max(0, chapter(at: milliseconds).endMilliseconds - clamp(milliseconds))
    }
}
