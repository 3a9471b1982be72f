/// A file's descriptive tags, whichever tag format they came from; nil where
/// the file has no such field or it is empty.
public struct Tags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var year: String?
    public var genre: String?
    public var comment: String?
    public init() {}
}
