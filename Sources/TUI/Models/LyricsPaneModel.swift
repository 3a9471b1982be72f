import BookFormat

/// The lyrics pane's state: the lyrics of the file heard now (the host sets
/// them when that file changes) and, for untimed lyrics, how far they are
/// scrolled. Timed lyrics need no scroll state: the line heard now is kept
/// in view, so the window is a function of the heard position alone.
public struct LyricsPaneModel: Equatable, Sendable {
    /// The file the lyrics are of; nil before anything plays.
    public private(set) var path: String?
    public private(set) var lyrics: Lyrics?
    /// The untimed lyrics' scroll: the selection is the top row shown.
    public var cursor = ListCursor()

    public init() {}

    /// The lyrics of `path` (nil: it has none); the scroll goes back to the top for another file.
    public mutating func show(_ lyrics: Lyrics?, of path: String?) {
        if path != self.path { cursor = ListCursor() }
        self.path = path
        self.lyrics = lyrics
    }

    /// The rows shown in `height` rows at `milliseconds` heard: each line's
    /// text, and which of them is the line heard now. Timed lyrics keep that
    /// line a third of the way down (the lines to come matter more than those
    /// sung), and start at the top before the first line and near the end.
    public func window(height: Int, atMilliseconds milliseconds: Int) -> (lines: Range<Int>, current: Int?) {
        guard let lyrics, height > 0 else { return (0..<0, nil) }
        let count = lyrics.texts.count
        guard lyrics.isSynced else {
            let top = min(max(0, cursor.selection), max(0, count - height))
            return (top..<min(count, top + height), nil)
        }
        guard let current = lyrics.currentLine(atMilliseconds: milliseconds) else { return (0..<min(count, height), nil) }
        let top = min(max(0, current - height / 3), max(0, count - height))
        return (top..<min(count, top + height), current)
    }
}
