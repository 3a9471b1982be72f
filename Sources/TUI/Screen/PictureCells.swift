/// A colour of a picture's cell: 24-bit, or a number of the 256-colour palette.
public enum PictureColor: Hashable, Sendable {
    /// 0xRRGGBB.
    case rgb(UInt32)
    /// 16-255 of the xterm palette (the 6x6x6 cube and the greys).
    case palette(Int)
}

/// The two colours of a cell that is part of a picture drawn in symbols:
/// the symbol's (foreground) and the rest of the cell's (background).
public struct CellColors: Hashable, Sendable {
    public var foreground: PictureColor
    public var background: PictureColor

    public init(foreground: PictureColor, background: PictureColor) {
        self.foreground = foreground
        self.background = background
    }
}

/// A picture drawn in block symbols: cells that each hold one narrow
/// character and its two colours, row by row. Made off the main loop (the
/// cover art's thread) and placed into a frame like text.
public struct PictureCells: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        public var symbol: Character
        public var colors: CellColors

        public init(symbol: Character, colors: CellColors) {
            self.symbol = symbol
            self.colors = colors
        }
    }

    public let size: TerminalSize
    /// `size.rows` rows of `size.columns` cells.
    public let rows: [[Cell]]

    public init(size: TerminalSize, rows: [[Cell]]) {
        self.size = size
        self.rows = rows
    }
}

/// What a pane shows of a picture: the cells to place (symbols), or the
/// rectangle a terminal graphics protocol draws over after the refresh
/// (kept blank in the frame).
public enum PanePicture: Equatable, Sendable {
    case symbols(PictureCells)
    case graphics(size: TerminalSize)

    public var size: TerminalSize {
        switch self {
        case .symbols(let cells): cells.size
        case .graphics(let size): size
        }
    }
}

extension Frame {
    /// Places a picture's cells with their top-left corner at `row`, `column`;
    /// what falls outside the frame is left out.
    public mutating func place(_ picture: PictureCells, row: Int, column: Int) {
        for (offset, cells) in picture.rows.enumerated() {
            for (index, cell) in cells.enumerated() {
                setPictureCell(row: row + offset, column: column + index, symbol: cell.symbol, colors: cell.colors)
            }
        }
    }
}
