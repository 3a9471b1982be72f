/// A chapter as a player uses it: a title and where it starts and ends in
/// the book's time.
public struct Chapter: Equatable, Hashable, Sendable {
    public let title: String
    public let startMilliseconds: Int
    /// As the tag gives it; a player clamps it to the file's duration.
    public let endMilliseconds: Int

    public init(title: String, startMilliseconds: Int, endMilliseconds: Int) {
        self.title = title
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
    }
}
