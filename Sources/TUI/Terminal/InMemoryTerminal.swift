import Themes

/// A terminal that is a grid of cells, for tests: what `put` wrote, how
/// often the screen was refreshed, and keys queued to be read.
public final class InMemoryTerminal: Terminal {
    public struct Cell: Equatable, Sendable {
        /// One character, or "" for the second column of a wide character.
        public var text: String
        public var element: ThemeElement
        /// A picture's cell's colours.
        public var colors: CellColors? = nil
    }

    public private(set) var size: TerminalSize
    public var colorDepth: ColorDepth
    public private(set) var theme: ThemeRendering?
    public private(set) var cells: [[Cell]]
    /// Counters for checking that nothing is drawn when nothing changed.
    public private(set) var refreshCount = 0
    public private(set) var putCount = 0
    public private(set) var clearCount = 0
    public var pendingInput: [TerminalInput] = []
    private let measure: (Character) -> Int

    public init(size: TerminalSize, colorDepth: ColorDepth = .colors256,
                measure: @escaping (Character) -> Int = TextWidth.columns(of:)) {
        self.size = size
        self.colorDepth = colorDepth
        self.measure = measure
        cells = Self.blank(size)
    }

    public func resize(to size: TerminalSize) {
        self.size = size
        cells = Self.blank(size)
        pendingInput.append(.resize)
    }

    /// The size is already the one `resize(to:)` set.
    public func noteResize() {}

    public func setTheme(_ rendering: ThemeRendering) { theme = rendering }

    public func put(_ text: String, row: Int, column: Int, element: ThemeElement) {
        putCount += 1
        guard row >= 0, row < size.rows else { return }
        var column = column
        for character in text {
            let width = max(1, measure(character))
            guard column + width <= size.columns, column >= 0 else { break }
            cells[row][column] = Cell(text: String(character), element: element)
            if width == 2 { cells[row][column + 1] = Cell(text: "", element: element) }
            column += width
        }
    }

    public func put(_ text: String, row: Int, column: Int, colors: CellColors) {
        putCount += 1
        guard row >= 0, row < size.rows else { return }
        for (offset, character) in text.enumerated() where column + offset >= 0 && column + offset < size.columns {
            cells[row][column + offset] = Cell(text: String(character), element: .listRow, colors: colors)
        }
    }

    public func clear() {
        clearCount += 1
        cells = Self.blank(size)
    }

    public func refresh() { refreshCount += 1 }
    /// Set false to stand for a terminal whose output is stopped.
    public var acceptsOutput = true

    public func readInput() -> TerminalInput? {
        pendingInput.isEmpty ? nil : pendingInput.removeFirst()
    }

    /// One row as text (wide characters once, as a terminal shows them).
    public func line(_ row: Int) -> String { cells[row].map(\.text).joined() }

    /// The whole screen, rows joined by newlines.
    public var screenText: String { (0..<size.rows).map(line).joined(separator: "\n") }

    private static func blank(_ size: TerminalSize) -> [[Cell]] {
        Array(repeating: Array(repeating: Cell(text: " ", element: .listRow), count: max(0, size.columns)),
              count: max(0, size.rows))
    }
}
