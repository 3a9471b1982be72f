import CNcursesw
import Themes
#if canImport(Glibc)
import Glibc
#endif

/// Why the screen could not be taken over.
public enum TerminalError: Error, Sendable, CustomStringConvertible {
    case notATerminal
    case cannotInitialize(term: String)
    /// libncursesw could not be loaded; dlopen's own message.
    case cannotLoad(String)

    public var description: String {
        switch self {
        case .notATerminal: "the full-screen player needs a terminal on standard input and output (use 'interlude play' otherwise)"
        case .cannotInitialize(let term): "ncurses cannot drive this terminal (TERM=\(term)); set TERM, or use 'interlude play'"
        case .cannotLoad(let message): "cannot load ncursesw: \(message) (install libncursesw6, or use 'interlude play')"
        }
    }
}

/// The real terminal, through ncursesw's wide-character calls. ncursesw is
/// loaded at run time (CNcursesw's loader), so headless playback never maps it.
///
/// Input is read without blocking (`nodelay`): the player's loop polls fd 0
/// and calls `readInput()` until it returns nil, so the process sleeps in
/// `poll` rather than in `getch`. Signals are not left to ncurses: the
/// player takes them through a signalfd, and calls `resize()` on SIGWINCH,
/// `suspend()`/`resume()` around a job-control stop and `end()` on exit.
public final class NcursesTerminal: ScreenTerminal {
    private var screen: OpaquePointer?
    public private(set) var size: TerminalSize
    public let colorDepth: ColorDepth
    private var attributes: [ThemeElement: attr_t] = [:]
    private var pairs: [ThemeElement: Int16] = [:]
    private var ended = false

    public let device: TerminalDevice
    /// The stdio streams ncurses was given, over copies of the device's descriptors (closed at `end`).
    private var files: (output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>)?

    /// Takes over the terminal. Call `TextWidth.prepareLocale()` first.
    public init(device: TerminalDevice = .standard) throws(TerminalError) {
        self.device = device
        guard isatty(device.input) != 0, isatty(device.output) != 0 else { throw .notATerminal }
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_curses_load(&message, message.count) == 0 else {
            throw .cannotLoad(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let type = device.type ?? getenv("TERM").map { String(cString: $0) } ?? ""
        // Streams of their own over copies of the descriptors: `end` closes them, never the owner's.
        guard let output = fdopen(dup(device.output), "w"), let input = fdopen(dup(device.input), "r") else {
            throw .cannotInitialize(term: type)
        }
        // Before ncurses changes the modes of the process's own terminal: a crash puts these back.
        if device.isStandard { interlude_restore_terminal_on_fatal_signals() }
        // newterm rather than initscr: initscr exits the process on failure.
        guard let screen = interlude_newterm(type, output, input) else {
            fclose(output)
            fclose(input)
            throw .cannotInitialize(term: type)
        }
        files = (output, input)
        self.screen = screen
        interlude_set_term(screen)
        interlude_cbreak()
        interlude_noecho()
        interlude_nonl()
        interlude_keypad(true)
        interlude_nodelay(true)
        // An Escape alone is taken as Escape after 25 ms, not ncurses' default second.
        interlude_set_escdelay(25)
        interlude_curs_set(0)
        var colors = 0
        if interlude_has_colors() {
            interlude_start_color()
            interlude_use_default_colors()
            colors = Int(interlude_colors())
        }
        colorDepth = ColorDepth(colorCount: colors)
        size = TerminalSize(columns: Int(interlude_cols()), rows: Int(interlude_lines()))
        // A handed terminal's size is its own (ncurses may have taken the service's LINES and COLUMNS).
        if !device.isStandard { resize() }
    }

    /// The process has one ncurses screen (attached screens are `AnsiTerminal`s); selected before each call all the same.
    private func select() {
        if let screen { interlude_set_term(screen) }
    }

    deinit { end() }

    public func setTheme(_ rendering: ThemeRendering) {
        select()
        attributes = [:]
        pairs = [:]
        if colorDepth != .monochrome {
            let available = Int(interlude_color_pairs())
            for (offset, pair) in rendering.colorPairs.enumerated() where offset + 1 < available {
                interlude_init_pair(Int16(offset + 1), Int16(pair.foreground.terminalNumber), Int16(pair.background.terminalNumber))
            }
        }
        for element in ThemeElement.allCases {
            let style = rendering[element]
            attributes[element] = Self.curses(style.attributes)
            let number = rendering.pairNumber(for: element)
            pairs[element] = colorDepth == .monochrome || number >= Int(interlude_color_pairs()) ? 0 : Int16(number)
        }
    }

    public func put(_ text: String, row: Int, column: Int, element: ThemeElement) {
        select()
        interlude_attr_set(attributes[element] ?? 0, pairs[element] ?? 0)
        var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        // The last cell of the screen: ncurses scrolls after writing it unless
        // told not to; `scrollok` is off by default, and mvaddnwstr then fails
        // harmlessly on the cursor move, having drawn the text.
        interlude_mvaddnwstr(Int32(row), Int32(column), wide, Int32(wide.count - 1))
    }

    /// What colours a picture's cells can have here: 24-bit where the
    /// terminal's description has direct colour (`COLORS` of 2^24), else
    /// the 256-colour palette, else 16 colours; none without colour.
    public var pictureColors: PictureColorMode {
        select()
        let colors = colorDepth == .monochrome ? 0 : Int(interlude_colors())
        return colors >= 1 << 24 ? .direct : colors >= 256 ? .palette256 : colors >= 16 ? .palette16 : .none
    }

    public func put(_ text: String, row: Int, column: Int, colors: CellColors) {
        select()
        let pair = interlude_alloc_pair(Int32(Self.number(colors.foreground, direct: pictureColors == .direct)),
                                        Int32(Self.number(colors.background, direct: pictureColors == .direct)))
        interlude_attr_set_pair(0, pair < 0 ? 0 : pair)
        var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        interlude_mvaddnwstr(Int32(row), Int32(column), wide, Int32(wide.count - 1))
    }

    /// The number ncurses takes for a colour: the palette's, or 0xRRGGBB itself in direct colour.
    private static func number(_ color: PictureColor, direct: Bool) -> Int {
        switch color {
        case .palette(let index): direct ? Int(PictureColorMode.paletteRGB(index)) : index
        case .rgb(let value): direct ? Int(value) : PictureColorMode.nearestPaletteIndex(value)
        }
    }

    public func clear() {
        select()
        interlude_erase()
        interlude_clearok(true)
    }

    public func refresh() {
        select()
        interlude_refresh()
    }

    /// ncurses writes a refresh with blocking `write`s (and spins on EAGAIN),
    /// so the player asks first: a tty reports POLLOUT only while its driver
    /// has room and is not stopped (a pty stopped by Ctrl-S has no room).
    public var acceptsOutput: Bool {
        var request = pollfd(fd: device.output, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&request, 1, 0)
            if ready >= 0 || errno != EINTR { return ready == 1 && request.revents & Int16(POLLOUT) != 0 }
        }
    }

    public func readInput() -> TerminalInput? {
        while true {
            if var report = partialReport {
                partialReport = nil
                switch readReport(&report) {
                case .report(let bytes): return .report(bytes)
                case .notAReport: return .key(.named(.escape))
                case .cutShort: return nil
                }
            }
            guard let (result, character) = nextCharacter() else { return nil }
            if result == KEY_CODE_YES {
                if Int32(character) == KEY_RESIZE { return .resize }
                if let key = Self.namedKey(Int32(character)) { return .key(.named(key)) }
                continue  // A key code the player has no name for.
            }
            if character == 0x1B {
                var report = TerminalReport()
                switch readReport(&report) {
                case .report(let bytes): return .report(bytes)
                case .notAReport: return .key(.named(.escape))
                case .cutShort: return nil
                }
            }
            guard let scalar = Unicode.Scalar(UInt32(character)), let key = Key(inputScalar: scalar) else { continue }
            return .key(key)
        }
    }

    /// Set while the player waits for the terminal's answers to a query: a
    /// report cut in two by a read's end (a slow link) is then carried over
    /// to the next read rather than read as keys.
    public var expectsReports = false
    private var partialReport: TerminalReport?
    /// What was read after an ESC that made no report, to be read again as keys, in order.
    private var readAgain: [(result: Int32, character: wint_t)] = []

    private func nextCharacter() -> (result: Int32, character: wint_t)? {
        select()
        if !readAgain.isEmpty { return readAgain.removeFirst() }
        var character: wint_t = 0
        let result = interlude_get_wch(&character)
        return result == ERR ? nil : (result, character)
    }

    private enum ReportRead {
        case report([UInt8])
        /// The ESC is a key: what followed it is read again.
        case notAReport
        /// The read ended inside a report whose rest is expected.
        case cutShort
    }

    /// After an ESC: reads on while what follows makes a terminal report.
    private func readReport(_ report: inout TerminalReport) -> ReportRead {
        while let next = nextCharacter() {
            let step = next.result == KEY_CODE_YES ? .notAReport : report.feed(UInt32(next.character))
            switch step {
            case .more:
                continue
            case .complete(let bytes):
                return .report(bytes)
            case .notAReport:
                readAgain = report.bytes.dropFirst().map { (OK, wint_t($0)) } + [next] + readAgain
                return .notAReport
            }
        }
        if report.hasIntroducer && expectsReports {
            partialReport = report
            return .cutShort
        }
        readAgain = report.bytes.dropFirst().map { (OK, wint_t($0)) } + readAgain
        return .notAReport
    }

    /// After SIGWINCH: reads the new size and tells ncurses.
    public func resize() {
        select()
        var rows: Int32 = 0, columns: Int32 = 0
        if interlude_terminal_size(device.output, &rows, &columns) == 0, rows > 0, columns > 0 {
            interlude_resizeterm(rows, columns)
        }
        noteResize()
    }

    /// After KEY_RESIZE: ncurses found the new size itself (reading a key
    /// after `fg`, say) and has resized its screen. `resizeterm` here would
    /// queue another KEY_RESIZE, and the next read would give it back: the
    /// loop reading keys would never see a key again (issue: the screen froze
    /// after Ctrl-Z and `fg`, spinning, an alarm impossible to dismiss).
    public func noteResize() {
        select()
        size = TerminalSize(columns: Int(interlude_cols()), rows: Int(interlude_lines()))
    }

    /// Bytes read from the terminal before ncurses saw them (keys typed while
    /// the player read the terminal's answers to a query) go back to its input,
    /// in order, to be read as keys.
    public func giveBackInput(_ bytes: [UInt8]) {
        select()
        for byte in bytes.reversed() { _ = interlude_ungetch(Int32(byte)) }
    }

    /// Gives the terminal back (before a job-control stop).
    public func suspend() {
        select()
        interlude_endwin()
    }

    /// Takes the terminal again after `fg`; the caller repaints everything.
    public func resume() {
        select()
        interlude_reset_prog_mode()
        resize()
        interlude_clearok(true)
    }

    /// Restores the terminal for good (exit, SIGINT, SIGTERM, fatal errors).
    public func end() {
        guard !ended else { return }
        ended = true
        select()
        interlude_endwin()
        if let screen { interlude_delscreen(screen) }
        screen = nil
        if let files {
            fclose(files.output)
            fclose(files.input)
        }
        files = nil
    }

    private static func curses(_ attributes: TextAttributes) -> attr_t {
        var result: attr_t = 0
        if attributes.contains(.bold) { result |= interlude_attr_bold() }
        if attributes.contains(.dim) { result |= interlude_attr_dim() }
        if attributes.contains(.underline) { result |= interlude_attr_underline() }
        if attributes.contains(.reverse) { result |= interlude_attr_reverse() }
        if attributes.contains(.standout) { result |= interlude_attr_standout() }
        if attributes.contains(.blink) { result |= interlude_attr_blink() }
        if attributes.contains(.italic) { result |= interlude_attr_italic() }
        return result
    }

    private static func namedKey(_ code: Int32) -> NamedKey? {
        switch code {
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .tab
        case KEY_F0 + 1...KEY_F0 + 12: NamedKey(rawValue: "f\(code - KEY_F0)")
        default: nil
        }
    }

    /// Bytes written as they are, after a refresh (a graphics protocol's picture): blocking, as ncurses writes.
    @discardableResult
    public func writeRaw(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(device.output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
