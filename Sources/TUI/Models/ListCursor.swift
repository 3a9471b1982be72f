/// Selection and scroll position of a list pane.
///
/// The selection stays within the list; the scroll offset keeps it on
/// screen for whatever height the pane has when it is drawn (the height is
/// not known here: panes change size with the terminal).
public struct ListCursor: Equatable, Sendable {
    public private(set) var selection = 0
    public private(set) var offset = 0

    public init() {}

    public mutating func move(by delta: Int, count: Int) {
        selection = count == 0 ? 0 : min(max(0, selection + delta), count - 1)
    }

    public mutating func select(_ index: Int, count: Int) {
        selection = count == 0 ? 0 : min(max(0, index), count - 1)
    }

    /// Clamps to a list that may have shrunk.
    public mutating func clamp(count: Int) { select(selection, count: count) }

    /// The first visible row for `height` rows, adjusted so the selection shows.
    public mutating func visibleRange(height: Int, count: Int) -> Range<Int> {
        clamp(count: count)
        guard height > 0 else { return 0..<0 }
        if selection < offset { offset = selection }
        if selection >= offset + height { offset = selection - height + 1 }
        offset = max(0, min(offset, max(0, count - height)))
        return offset..<min(count, offset + height)
    }
}
