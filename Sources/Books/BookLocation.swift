/// A place in a book as the decoder needs it: which file, and how far into it.
public struct BookLocation: Equatable, Sendable {
    public let fileIndex: Int
    public let offsetMilliseconds: Int

    public init(fileIndex: Int, offsetMilliseconds: Int) {
        self.fileIndex = fileIndex
        self.offsetMilliseconds = offsetMilliseconds
    }
}
