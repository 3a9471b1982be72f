import CNcursesw
import Themes
#if canImport(Glibc)
import Glibc
#endif

/// A terminal handed to the player service (`ScreenAttachments`), driven with
/// the escape sequences every terminal of the last forty years reads
/// (ECMA-48 and xterm's: cursor moves, SGR colours, the alternate screen),
/// and its keys read from the bytes it sends. Not ncurses: its screens share
/// one list of windows in the build Debian ships, and a second screen's
/// `resizeterm` or `delscreen` broke the first (seen: keys no longer read,
/// then a crash), while the service draws on several terminals at once.
///
/// The service opens the terminal again (`/proc/self/fd`), so its
/// non-blocking reads and writes are its own and never the client's: a
/// frame the terminal cannot take now stays pending (`acceptsOutput` false
/// until it is written), and the service's loop never waits on a slow link.
public final class AnsiTerminal: ScreenTerminal {
    public let device: TerminalDevice
    public private(set) var size: TerminalSize
    public let colorDepth: ColorDepth
    public var expectsReports = false
    private let fd: Int32
    private var output: [UInt8] = []
    private var input: [UInt8] = []
    private var styles: [ThemeElement: [UInt8]] = [:]
    private var savedModes = termios()
    private var hasSavedModes = false
    private var taken = false
    private var ended = false
    /// A key's bytes cut by a read's end are not waited for past this many bytes pending.
    public static let outputLimit = 4 << 20

    /// Takes the terminal `device` names; its `type` (TERM) says its colours.
    public init(device: TerminalDevice) throws(TerminalError) {
        self.device = device
        guard isatty(device.input) != 0, isatty(device.output) != 0 else { throw .notATerminal }
        let type = device.type ?? ""
        guard !type.isEmpty, type != "dumb" else { throw .cannotInitialize(term: type) }
        // A description of our own: O_NONBLOCK on the client's would reach its shell.
        let reopened = open("/proc/self/fd/\(device.output)", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard reopened >= 0 else { throw .cannotInitialize(term: type) }
        fd = reopened
        colorDepth = type.hasPrefix("vt") || type == "ansi-mono" ? .monochrome
            : type.contains("256color") || type.contains("direct") || type.hasPrefix("tmux") || type.hasPrefix("screen") ? .colors256
            : .colors16
        size = TerminalSize(columns: 80, rows: 24)
        hasSavedModes = tcgetattr(fd, &savedModes) == 0
        take()
        readSize()
    }

    deinit {
        end()
        close(fd)
    }

    /// The picture colours: the palette's 256 (or 16), never direct colour (TERM does not say it).
    public var pictureColors: PictureColorMode {
        colorDepth == .colors256 ? .palette256 : colorDepth == .colors16 ? .palette16 : .none
    }

    /// Keys one at a time, no echo, CR as typed; signals stay with the client (Ctrl-C, Ctrl-Z).
    private func take() {
        if hasSavedModes {
            var modes = savedModes
            modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
            modes.c_iflag &= ~tcflag_t(ICRNL | IXON)
            modes.c_cc.6 = 1  // VMIN
            modes.c_cc.5 = 0  // VTIME
            _ = tcsetattr(fd, TCSANOW, &modes)
        }
        // The alternate screen, the cursor hidden, cursor keys in application mode.
        append("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1h\u{1B}=\u{1B}[0m\u{1B}[2J")
        taken = true
        flush()
    }

    private func giveBack() {
        guard taken else { return }
        taken = false
        output = []
        append("\u{1B}[0m\u{1B}[?1l\u{1B}>\u{1B}[?25h\u{1B}[?1049l")
        flush()
        if hasSavedModes { _ = tcsetattr(fd, TCSANOW, &savedModes) }
    }

    private func readSize() {
        var rows: Int32 = 0, columns: Int32 = 0
        if interlude_terminal_size(fd, &rows, &columns) == 0, rows > 0, columns > 0 {
            size = TerminalSize(columns: Int(columns), rows: Int(rows))
        }
    }

    public func setTheme(_ rendering: ThemeRendering) {
        styles = [:]
        for element in ThemeElement.allCases { styles[element] = Self.sgr(rendering[element], depth: colorDepth) }
    }

    /// SGR for a style: attributes, then the colours (the terminal's default, the 16, or the 256).
    package static func sgr(_ style: ThemeStyle, depth: ColorDepth) -> [UInt8] {
        var codes = ["0"]
        let attributes = style.attributes
        if attributes.contains(.bold) { codes.append("1") }
        if attributes.contains(.dim) { codes.append("2") }
        if attributes.contains(.italic) { codes.append("3") }
        if attributes.contains(.underline) { codes.append("4") }
        if attributes.contains(.blink) { codes.append("5") }
        if attributes.contains(.reverse) || attributes.contains(.standout) { codes.append("7") }
        if depth != .monochrome {
            codes.append(color(style.foreground, base: 30, bright: 90))
            codes.append(color(style.background, base: 40, bright: 100))
        }
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }

    private static func color(_ color: ThemeColor, base: Int, bright: Int) -> String {
        switch color {
        case .terminalDefault: String(base + 9)
        case .index(let index) where index < 8: String(base + Int(index))
        case .index(let index) where index < 16: String(bright + Int(index) - 8)
        case .index(let index): "\(base + 8);5;\(index)"
        }
    }

    public func put(_ text: String, row: Int, column: Int, element: ThemeElement) {
        moveTo(row: row, column: column)
        output += styles[element] ?? Array("\u{1B}[0m".utf8)
        append(text)
    }

    public func put(_ text: String, row: Int, column: Int, colors: CellColors) {
        moveTo(row: row, column: column)
        append("\u{1B}[0;\(Self.pictureColor(colors.foreground, layer: 38));\(Self.pictureColor(colors.background, layer: 48))m")
        append(text)
    }

    private static func pictureColor(_ color: PictureColor, layer: Int) -> String {
        switch color {
        case .palette(let index): "\(layer);5;\(index)"
        case .rgb(let value): "\(layer);5;\(PictureColorMode.nearestPaletteIndex(value))"
        }
    }

    private func moveTo(row: Int, column: Int) {
        append("\u{1B}[\(row + 1);\(column + 1)H")
    }

    private func append(_ text: String) {
        output += Array(text.utf8)
    }

    public func clear() {
        append("\u{1B}[0m\u{1B}[2J")
    }

    public func refresh() {
        append("\u{1B}[0m")
        flush()
    }

    /// Writes what is pending, as far as the terminal takes it now.
    private func flush() {
        while !output.isEmpty {
            let written = output.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                // A terminal gone (EIO) or one that takes nothing for ever: what it cannot take is dropped past the limit.
                if written < 0 && errno != EAGAIN || output.count > Self.outputLimit { output = [] }
                return
            }
            output.removeFirst(written)
        }
    }

    /// Nothing pending, and room now: a frame goes whole.
    public var acceptsOutput: Bool {
        flush()
        guard output.isEmpty else { return false }
        var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&request, 1, 0) == 1 && request.revents & Int16(POLLOUT) != 0
    }

    public func readInput() -> TerminalInput? {
        if input.isEmpty || !Self.isComplete(input) { readAvailable() }
        guard !input.isEmpty else { return nil }
        let (consumed, result) = Self.decode(input, expectsReports: expectsReports)
        guard consumed > 0 else { return nil }
        input.removeFirst(consumed)
        return result ?? readInput()
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while input.count < 1 << 16 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            input += chunk.prefix(count)
            if count < chunk.count { return }
        }
    }

    /// Whether the bytes end where a key does (no UTF-8 character cut in two).
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let last = bytes.last else { return true }
        return last < 0x80
    }

    /// The first key or report in `bytes`: how many bytes it took, and what it
    /// is (nil for bytes that make nothing: an unknown sequence, a stray byte).
    /// 0 taken: the rest of a character or report is still to come.
    package static func decode(_ bytes: [UInt8], expectsReports: Bool = false) -> (Int, TerminalInput?) {
        let first = bytes[0]
        if first == 0x1B {
            guard bytes.count > 1 else { return (1, .key(.named(.escape))) }
            if let (length, key) = sequenceKey(bytes) { return (length, key.map(TerminalInput.key)) }
            var report = TerminalReport()
            for (offset, byte) in bytes.dropFirst().enumerated() {
                switch report.feed(UInt32(byte)) {
                case .more: continue
                case .complete(let whole): return (offset + 2, .report(whole))
                case .notAReport: return (1, .key(.named(.escape)))
                }
            }
            // A report cut by the read's end: the rest comes with the next read.
            return report.hasIntroducer && expectsReports ? (0, nil) : (1, .key(.named(.escape)))
        }
        // UTF-8: the character's length from its first byte.
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        guard bytes.count >= length else { return (0, nil) }
        let text = String(decoding: bytes[0..<length], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first, scalar != "\u{FFFD}" || length == 3 else { return (length, nil) }
        return (length, Key(inputScalar: scalar).map(TerminalInput.key))
    }

    /// CSI and SS3 key sequences (xterm's, the Linux console's, tmux's and screen's).
    private static func sequenceKey(_ bytes: [UInt8]) -> (Int, Key?)? {
        if bytes[1] == 0x4F, bytes.count > 2 {  // SS3
            let keys: [UInt8: NamedKey] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end,
                                           0x50: .f1, 0x51: .f2, 0x52: .f3, 0x53: .f4, 0x4D: .enter]
            return keys[bytes[2]].map { (3, Key.named($0)) }
        }
        guard bytes[1] == 0x5B else { return nil }  // CSI
        var index = 2
        var parameters = ""
        while index < bytes.count, (0x30...0x3F).contains(bytes[index]) {
            parameters.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        guard index < bytes.count else { return nil }
        let final = bytes[index]
        // A private parameter ('?', '>', '<', '='): a terminal's report, not a key.
        if let lead = parameters.unicodeScalars.first, (0x3C...0x3F).contains(lead.value) { return nil }
        let number = Int(parameters.split(separator: ";").first ?? "") ?? 1
        let named: NamedKey?
        switch final {
        case 0x41: named = .up
        case 0x42: named = .down
        case 0x43: named = .right
        case 0x44: named = .left
        case 0x48: named = .home
        case 0x46: named = .end
        case 0x5A: return (index + 1, .named(.tab))  // Shift-Tab: what ncurses' KEY_BTAB is named
        case 0x7E:
            let tilde: [Int: NamedKey] = [1: .home, 7: .home, 4: .end, 8: .end, 3: .delete, 5: .pageUp, 6: .pageDown,
                                          11: .f1, 12: .f2, 13: .f3, 14: .f4, 15: .f5, 17: .f6, 18: .f7, 19: .f8,
                                          20: .f9, 21: .f10, 23: .f11, 24: .f12]
            named = tilde[number]
        case 0x5B where parameters.isEmpty && index + 1 < bytes.count:
            // The Linux console's F1-F5: CSI [ A-E.
            let console: [UInt8: NamedKey] = [0x41: .f1, 0x42: .f2, 0x43: .f3, 0x44: .f4, 0x45: .f5]
            return console[bytes[index + 1]].map { (index + 2, Key.named($0)) }
        default:
            return nil
        }
        return (index + 1, named.map(Key.named))
    }

    public func noteResize() {
        readSize()
    }

    public func resize() {
        readSize()
    }

    public func giveBackInput(_ bytes: [UInt8]) {
        input = bytes + input
    }

    public func suspend() {
        giveBack()
    }

    public func resume() {
        take()
        readSize()
    }

    public func end() {
        guard !ended else { return }
        ended = true
        giveBack()
    }

    /// The descriptor the service reads and writes (its own description of the terminal).
    public var descriptor: Int32 { fd }

    @discardableResult
    public func writeRaw(_ bytes: [UInt8]) -> Bool {
        output += bytes
        flush()
        return true
    }
}
