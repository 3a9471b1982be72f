/// One MP3 file of a book and where it sits in the book's time.
public struct BookFile: Equatable, Sendable {
    public let path: String
    /// The file name, without the folder: what a saved position names, so a
    /// position survives files being added to the folder.
    public let name: String
    public let startMilliseconds: Int
    public let durationMilliseconds: Int

    public init(path: String, startMilliseconds: Int, durationMilliseconds: Int) {
        self.path = path
        self.name = path.split(separator: "/").last.map(String.init) ?? path
        self.startMilliseconds = startMilliseconds
        self.durationMilliseconds = durationMilliseconds
    }

    public var endMilliseconds: Int { startMilliseconds + durationMilliseconds }
}
