/// Sends a frame to the terminal: only the rows and columns that differ
/// from the frame sent before, and no refresh at all when nothing does.
///
/// A terminal that takes no output now (Ctrl-S stopped it, or its reader is
/// not reading) would block the write in `refresh`, and the main loop with
/// it: the frame is kept instead, and a later one replaces it (frames are
/// coalesced, never queued), to be sent once the terminal takes output again.
public final class ScreenPresenter {
    public let terminal: any Terminal
    private var last: Frame?
    /// The newest frame not sent because the terminal took no output.
    public private(set) var deferred: Frame?

    public init(terminal: any Terminal) { self.terminal = terminal }

    /// Forget what is on screen (after a resize, a theme change or a return
    /// from job control): the next `present` repaints everything.
    public func invalidate() {
        last = nil
    }

    /// Whether the next frame sent repaints the whole screen (after
    /// `invalidate`, or the first): what was drawn over the cells outside
    /// the frames (a graphics protocol's picture) is then gone.
    public var repaintsAll: Bool { last == nil }

    /// Returns whether anything was sent.
    @discardableResult
    public func present(_ frame: Frame) -> Bool {
        guard frame != last else {
            deferred = nil
            return false
        }
        guard terminal.acceptsOutput else {
            deferred = frame
            return false
        }
        deferred = nil
        let previous = last?.size == frame.size ? last : nil
        if previous == nil { terminal.clear() }
        for row in 0..<frame.size.rows {
            let cells = frame.cells[row]
            var first = 0
            var end = cells.count
            if let previous {
                let old = previous.cells[row]
                guard let firstChange = cells.indices.first(where: { cells[$0] != old[$0] }),
                      let lastChange = cells.indices.last(where: { cells[$0] != old[$0] }) else { continue }
                first = firstChange
                end = lastChange + 1
                // Never start or end in the middle of a wide character.
                while first > 0 && cells[first].width == 0 { first -= 1 }
                while end < cells.count && cells[end].width == 0 { end += 1 }
            }
            putRuns(cells, row: row, from: first, to: end)
        }
        terminal.refresh()
        last = frame
        return true
    }

    /// Sends the frame kept back while the terminal took no output, if it takes output now.
    @discardableResult
    public func presentDeferred() -> Bool {
        guard let deferred else { return false }
        return present(deferred)
    }

    /// One `put` per run of cells in the same element (a picture's cells: in the same colours).
    private func putRuns(_ cells: [Frame.Cell], row: Int, from start: Int, to end: Int) {
        var column = start
        while column < end {
            let element = cells[column].element, colors = cells[column].colors
            var text = ""
            let runStart = column
            while column < end && cells[column].element == element && cells[column].colors == colors {
                text += cells[column].text
                column += 1
            }
            if let colors {
                terminal.put(text, row: row, column: runStart, colors: colors)
            } else {
                terminal.put(text, row: row, column: runStart, element: element)
            }
        }
    }
}
