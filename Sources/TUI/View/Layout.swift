/// A rectangle of cells.
public struct Rect: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var width: Int
    public var height: Int

    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = width
        self.height = height
    }
}

/// Where everything goes for a terminal size.
///
/// - 80x24 and larger: every pane at once. Browser and queue side by side,
///   now playing across the middle, alarms and the event log at the bottom.
/// - From 40x12 up to that: one pane at a time under a row of tabs (1-5),
///   with a one-line now-playing summary.
/// - Below 40x12: a "terminal too small" message; playback goes on.
///
/// Always: the title bar on the first row, the banner under it while there
/// is one, the status line and the command line at the bottom.
public struct Layout: Equatable, Sendable {
    public enum Mode: Equatable, Sendable { case tooSmall, single, split }

    public static let minimum = TerminalSize(columns: 40, rows: 12)
    public static let splitMinimum = TerminalSize(columns: 80, rows: 24)

    public let size: TerminalSize
    public let mode: Mode
    public let titleRow: Int
    public let bannerRow: Int?
    /// The tab row of the one-pane layout.
    public let tabRow: Int?
    /// The one-line now-playing summary of the one-pane layout.
    public let summaryRow: Int?
    /// Each visible pane's area; its first row is the pane's title.
    public let panes: [Pane: Rect]
    /// Columns drawn as a vertical line between side-by-side panes.
    public let separators: [Rect]
    /// Rows between the top rows and the bottom two: where help is drawn.
    public let body: Rect
    public let statusRow: Int
    public let commandRow: Int

    /// `topLeft` and `topRight`: which of the panes sharing those places of
    /// the split layout show there (the focused pane always shows).
    public init(size: TerminalSize, banner: Bool, focus: Pane, topLeft: Pane = .browser, topRight: Pane = .queue) {
        self.size = size
        let columns = size.columns, rows = size.rows
        titleRow = 0
        statusRow = rows - 2
        commandRow = rows - 1
        guard columns >= Self.minimum.columns, rows >= Self.minimum.rows else {
            mode = .tooSmall
            bannerRow = nil
            tabRow = nil
            summaryRow = nil
            panes = [:]
            separators = []
            body = Rect(row: 0, column: 0, width: max(0, columns), height: max(0, rows))
            return
        }
        bannerRow = banner ? 1 : nil
        let top = banner ? 2 : 1
        let bodyHeight = statusRow - top
        body = Rect(row: top, column: 0, width: columns, height: bodyHeight)

        if columns >= Self.splitMinimum.columns && rows >= Self.splitMinimum.rows {
            mode = .split
            tabRow = nil
            summaryRow = nil
            let left = columns * 2 / 5
            let right = columns - left - 1
            let nowHeight = 5
            let bottomHeight = max(5, bodyHeight * 3 / 10)
            let topHeight = bodyHeight - nowHeight - bottomHeight
            let nowRow = top + topHeight
            let bottomRow = nowRow + nowHeight
            let leftPane = focus.slot == .topLeft ? focus : topLeft
            let rightPane = focus.slot == .topRight ? focus : topRight
            panes = [
                leftPane: Rect(row: top, column: 0, width: left, height: topHeight),
                rightPane: Rect(row: top, column: left + 1, width: right, height: topHeight),
                .nowPlaying: Rect(row: nowRow, column: 0, width: columns, height: nowHeight),
                .alarms: Rect(row: bottomRow, column: 0, width: left, height: bottomHeight),
                .eventLog: Rect(row: bottomRow, column: left + 1, width: right, height: bottomHeight),
            ]
            separators = [
                Rect(row: top, column: left, width: 1, height: topHeight),
                Rect(row: bottomRow, column: left, width: 1, height: bottomHeight),
            ]
        } else {
            mode = .single
            tabRow = top
            let showsSummary = focus != .nowPlaying
            summaryRow = showsSummary ? top + 1 : nil
            let paneTop = top + (showsSummary ? 2 : 1)
            panes = [focus: Rect(row: paneTop, column: 0, width: columns, height: statusRow - paneTop)]
            separators = []
        }
    }
}
