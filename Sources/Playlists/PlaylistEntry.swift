/// One line of a playlist: an absolute path, with what `#EXTINF` said of it.
public struct PlaylistEntry: Equatable, Sendable {
    /// Absolute (a relative line is resolved against the playlist's folder on load).
    public var path: String
    /// Whole seconds; nil when unknown (`#EXTINF:-1,...` or no `#EXTINF`).
    public var seconds: Int?
    /// The display text after the comma, conventionally "Artist - Title".
    public var title: String?

    public init(path: String, seconds: Int? = nil, title: String? = nil) {
        self.path = path
        self.seconds = seconds
        self.title = title
    }
}
