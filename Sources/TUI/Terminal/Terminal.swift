import Themes

/// Columns and rows of a terminal.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }
}

/// What reading the keyboard produced.
public enum TerminalInput: Hashable, Sendable {
    case key(Key)
    /// ncurses noticed a size change (KEY_RESIZE).
    case resize
    /// A sequence the terminal sent (an answer to a query), from its ESC:
    /// no key (`TerminalReport`).
    case report([UInt8])
}

/// The few things the player asks of a terminal. `NcursesTerminal` is the
/// real one; `InMemoryTerminal` keeps a grid of cells for tests.
///
/// Text is put in runs of one element; the terminal turns the element into
/// colours and attributes through the theme set last (`setTheme`).
public protocol Terminal: AnyObject {
    var size: TerminalSize { get }
    /// Colours the terminal can show (monochrome for TERM=vt100).
    var colorDepth: ColorDepth { get }
    func setTheme(_ rendering: ThemeRendering)
    /// Writes `text` starting at a cell; the caller has measured it to fit.
    func put(_ text: String, row: Int, column: Int, element: ThemeElement)
    /// Writes a run of a picture's cells (narrow symbols) in their own colours.
    func put(_ text: String, row: Int, column: Int, colors: CellColors)
    /// Forgets what is on screen: the next refresh repaints everything.
    func clear()
    /// Makes what was put visible.
    func refresh()
    /// Whether a refresh now would be written without waiting: false while the
    /// terminal's output is stopped (Ctrl-S) or its buffer is full.
    var acceptsOutput: Bool { get }
    /// The next key or resize without waiting, or nil when none is ready.
    func readInput() -> TerminalInput?
    /// After `readInput` gave `.resize`: takes the size the terminal already
    /// adopted. (A SIGWINCH is the player's to act on; a resize ncurses found
    /// itself is done when it is reported, and doing it again would report it
    /// again.)
    func noteResize()
}

/// Where the screen is drawn and keys are read: the process's own
/// standard input and output, or a terminal a screen handed the service
/// (`ScreenAttachments`).
public struct TerminalDevice: Sendable {
    public var input: Int32
    public var output: Int32
    /// `TERM` of the terminal; nil: this process's.
    public var type: String?
    /// Whether the process's own terminal, whose modes a crash must put back.
    public var isStandard: Bool { input == 0 && output == 1 && type == nil }

    public init(input: Int32, output: Int32, type: String?) {
        self.input = input
        self.output = output
        self.type = type
    }

    public static let standard = TerminalDevice(input: 0, output: 1, type: nil)
}

/// What a screen of the full-screen player drives beyond `Terminal`: the
/// process's own terminal through ncurses, or one handed to the service.
public protocol ScreenTerminal: Terminal {
    var device: TerminalDevice { get }
    var pictureColors: PictureColorMode { get }
    /// While answers to a query are awaited: a report cut by a read's end is carried over.
    var expectsReports: Bool { get set }
    /// After SIGWINCH (or the client's word of it): the terminal's size read again.
    func resize()
    /// Around a job-control stop: the terminal given back, and taken again.
    func suspend()
    func resume()
    /// The terminal given back for good.
    func end()
    /// Bytes read before they were keys, to be read again.
    func giveBackInput(_ bytes: [UInt8])
    /// Bytes written as they are (a graphics protocol's picture); false when the terminal took them not.
    @discardableResult
    func writeRaw(_ bytes: [UInt8]) -> Bool
}
