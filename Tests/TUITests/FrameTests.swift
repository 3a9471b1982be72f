import Testing
@testable import TUI

struct FrameTests {
    init() { _ = Locale.prepared }

    @Test("CJK and emoji take two columns, ASCII and the em dash one")
    func widths() {
        #expect(TextWidth.columns(of: "静夜思") == 6)
        #expect(TextWidth.columns(of: "さくら") == 6)
        #expect(TextWidth.columns(of: "🎵") == 2)
        #expect(TextWidth.columns(of: "abc — d") == 7)
        #expect(TextWidth.columns(of: "é") == 1)
    }

    @Test("text after a wide title starts in the same column as after an ASCII one")
    func wideTitlesLineUp() {
        var frame = Frame(size: TerminalSize(columns: 30, rows: 3))
        for (row, title) in ["静夜思", "abcdef", "さくら🎵"].enumerated() {
            frame.writePadded(title, row: row, column: 0, width: 10, element: .listRow)
            frame.write("|", row: row, column: 10, element: .listRow)
        }
        for row in 0..<3 {
            // Column 10 holds the bar in every row: count columns by cell widths.
            let cells = frame.cells[row]
            #expect(cells[10].text == "|", "row \(row): \(frame.line(row))")
        }
        #expect(frame.line(0).hasPrefix("静夜思    |"))
    }

    @Test("a wide character that would straddle the limit is left out and padded")
    func wideCharacterAtTheEdge() {
        var frame = Frame(size: TerminalSize(columns: 10, rows: 1))
        frame.writePadded("ab静夜思", row: 0, column: 0, width: 5, element: .listRow)
        frame.write("|", row: 0, column: 5, element: .listRow)
        #expect(frame.line(0).hasPrefix("ab静 |"))
        #expect(frame.truncated("静夜思静夜思", to: 7) == "静夜思…")
    }

    @Test("overwriting half of a wide character blanks the other half")
    func halfOverwritten() {
        var frame = Frame(size: TerminalSize(columns: 6, rows: 1))
        frame.write("静夜思", row: 0, column: 0, element: .listRow)
        frame.write("x", row: 0, column: 1, element: .listRow)
        #expect(frame.line(0) == " x夜思")
        #expect(frame.cells[0].reduce(0) { $0 + max($1.width, 0) } == 6)
    }
}
