import Themes

/// One screen's worth of cells, built by the view and compared with the
/// previous frame so only what changed is sent to the terminal.
public struct Frame: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        /// One character, or "" for the column a wide character covers.
        public var text: String
        public var element: ThemeElement
        /// Columns the character takes (1 or 2; 0 for a covered column).
        public var width: Int
        /// A picture's cell (`PictureCells`): its own colours instead of the element's.
        public var colors: CellColors? = nil

        public static let blank = Cell(text: " ", element: .listRow, width: 1)
    }

    public let size: TerminalSize
    public private(set) var cells: [[Cell]]
    private let measure: @Sendable (Character) -> Int

    public init(size: TerminalSize, measure: @escaping @Sendable (Character) -> Int = TextWidth.columns(of:)) {
        self.size = size
        self.measure = measure
        cells = Array(repeating: Array(repeating: .blank, count: max(0, size.columns)), count: max(0, size.rows))
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool { lhs.size == rhs.size && lhs.cells == rhs.cells }

    /// Columns `text` takes with this frame's measure.
    public func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + max(1, measure($1)) }
    }

    /// Fills `count` cells of a row with spaces in `element`.
    public mutating func fill(row: Int, column: Int, count: Int, element: ThemeElement) {
        guard row >= 0, row < size.rows else { return }
        let start = max(0, column), end = min(size.columns, column + count)
        guard start < end else { return }
        for index in start..<end { cells[row][index] = Cell(text: " ", element: element, width: 1) }
        repairEdges(row: row, start: start, end: end)
    }

    /// Writes `text` from `column`, at most `limit` columns (default: to the
    /// right edge). A wide character that would straddle the limit is left
    /// out and its column padded, so the next column always lines up.
    /// Returns the columns written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, row: Int, column: Int, limit: Int? = nil,
                               element: ThemeElement) -> Int {
        guard row >= 0, row < size.rows, column < size.columns else { return 0 }
        let end = min(size.columns, limit.map { column + max(0, $0) } ?? size.columns)
        var position = column
        for character in text {
            let printable = Self.printable(character)
            let width = max(1, measure(printable))
            if position + width > end {
                break
            }
            if position >= 0 {
                cells[row][position] = Cell(text: String(printable), element: element, width: width)
                if width == 2 { cells[row][position + 1] = Cell(text: "", element: element, width: 0) }
            }
            position += width
        }
        repairEdges(row: row, start: max(0, column), end: position)
        return position - column
    }

    /// Writes `text` and pads with spaces to exactly `width` columns.
    public mutating func writePadded(_ text: some StringProtocol, row: Int, column: Int, width: Int,
                                     element: ThemeElement) {
        let written = write(text, row: row, column: column, limit: width, element: element)
        fill(row: row, column: column + written, count: width - written, element: element)
    }

    /// `text` cut to `width` columns with an ellipsis when it does not fit.
    public func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = max(1, measure(character))
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// One cell of a picture: a narrow symbol in its own colours.
    mutating func setPictureCell(row: Int, column: Int, symbol: Character, colors: CellColors) {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return }
        let printable = Self.printable(symbol)
        cells[row][column] = Cell(text: String(printable), element: .listRow, width: 1, colors: colors)
        repairEdges(row: row, start: column, end: column + 1)
    }

    /// The row's text with covered columns left out, as a terminal shows it.
    public func line(_ row: Int) -> String { cells[row].map(\.text).joined() }

    /// A wide character half overwritten leaves a stray half: blank it.
    private mutating func repairEdges(row: Int, start: Int, end: Int) {
        if start > 0, start < size.columns, cells[row][start].width != 0, cells[row][start - 1].width == 2 {
            cells[row][start - 1] = Cell(text: " ", element: cells[row][start - 1].element, width: 1)
        }
        if start < size.columns, cells[row][start].width == 0 {
            cells[row][start] = Cell(text: " ", element: cells[row][start].element, width: 1)
        }
        if end < size.columns, end > 0, cells[row][end].width == 0 {
            cells[row][end] = Cell(text: " ", element: cells[row][end].element, width: 1)
        }
    }

    /// Control characters (a tag may hold a tab or newline, or a terminal
    /// escape: ESC, BEL, C1's CSI) would move the cursor or be obeyed, since
    /// ncurses passes them through; they are shown as U+FFFD instead. Every
    /// scalar is looked at, not only the first: what a cell holds goes to
    /// ncurses as it is.
    private static func printable(_ character: Character) -> Character {
        guard !character.unicodeScalars.isEmpty else { return " " }
        if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) { return "\u{FFFD}" }
        return character
    }
}
