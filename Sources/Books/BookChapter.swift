/// A chapter of a book, in book time: from a `CHAP` frame (offset by the
/// start of its file), or a whole file when the file has no chapters.
public struct BookChapter: Equatable, Sendable {
    /// 0-based place in the book.
    public let index: Int
    public let title: String
    public let startMilliseconds: Int
    public let endMilliseconds: Int
    /// The file the chapter starts in.
    public let fileIndex: Int

    public init(index: Int, title: String, startMilliseconds: Int, endMilliseconds: Int, fileIndex: Int) {
        self.index = index
        self.title = title
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.fileIndex = fileIndex
    }

    public var durationMilliseconds: Int { endMilliseconds - startMilliseconds }

    public func contains(_ milliseconds: Int) -> Bool {
        (startMilliseconds..<endMilliseconds).contains(milliseconds)
    }
}
