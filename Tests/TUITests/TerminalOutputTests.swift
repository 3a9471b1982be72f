import Testing
import Themes
@testable import TUI

/// What reaches the terminal. A tag's control characters never do
/// (ncurses would send them raw), and a terminal that takes no output (Ctrl-S)
/// gets no write: the frame waits, replaced by newer ones, until it can.
@Suite struct TerminalOutputTests {
    static let hostile = "\u{1B}]0;x\u{07}\u{1B}[2J\u{9B}31m\r\n\u{7F}"

    @Test func aTagsControlCharactersReachNoCellAndSoNoCallToNcurses() {
        var frame = Frame(size: TerminalSize(columns: 40, rows: 2))
        frame.write("title " + Self.hostile + " end", row: 0, column: 0, element: .listRow)
        let terminal = InMemoryTerminal(size: TerminalSize(columns: 40, rows: 2))
        ScreenPresenter(terminal: terminal).present(frame)
        let scalars = frame.cells.flatMap { $0 }.flatMap { $0.text.unicodeScalars }
        #expect(!scalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(!terminal.screenText.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F..<0xA0).contains($0.value) })
        #expect(terminal.line(0).hasPrefix("title \u{FFFD}]0;x\u{FFFD}\u{FFFD}[2J\u{FFFD}31m"), "\(terminal.line(0))")
    }

    @Test func aTerminalThatTakesNoOutputGetsNoWriteAndTheNewestFrameOnceItDoes() {
        let size = TerminalSize(columns: 20, rows: 1)
        let terminal = InMemoryTerminal(size: size)
        let presenter = ScreenPresenter(terminal: terminal)
        var first = Frame(size: size)
        first.write("0:01", row: 0, column: 0, element: .listRow)
        #expect(presenter.present(first))
        #expect(terminal.refreshCount == 1)

        terminal.acceptsOutput = false
        for second in 2...5 {
            var frame = Frame(size: size)
            frame.write("0:0\(second)", row: 0, column: 0, element: .listRow)
            #expect(!presenter.present(frame))
        }
        #expect(!presenter.presentDeferred())
        #expect(terminal.refreshCount == 1 && terminal.line(0).hasPrefix("0:01"), "nothing written while stopped")

        terminal.acceptsOutput = true
        #expect(presenter.presentDeferred())
        #expect(terminal.refreshCount == 2 && terminal.line(0).hasPrefix("0:05"), "the newest frame, once: \(terminal.line(0))")
        #expect(presenter.deferred == nil && !presenter.presentDeferred())
    }
}
