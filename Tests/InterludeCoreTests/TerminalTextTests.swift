import InterludeCore
import Testing

@Suite struct TerminalTextTests {
    @Test func controlCharactersFromATagAreShownEscapedAndPrintableTextIsKept() {
        #expect(TerminalText.escaped("\u{1B}]0;x\u{07}\u{1B}[2J") == "\\e]0;x\\x07\\e[2J")
        #expect(TerminalText.escaped("a\u{9B}31mb\u{7F}c\u{0}\r") == "a\\u{9b}31mb\\x7fc\\x00\\x0d")
        #expect(TerminalText.escaped("line\n\tnext") == "line\n\tnext")
        #expect(TerminalText.escaped("Café – 東京 ©") == "Café – 東京 ©")
        #expect(TerminalText.isSafe(Array(TerminalText.escaped("\u{1B}\u{85}\u{9F}\u{80}é").utf8)))
        #expect(!TerminalText.isSafe(Array("\u{9B}".utf8)))
        #expect(!TerminalText.isSafe(Array("\u{1B}".utf8)))
        #expect(TerminalText.isSafe(Array("é\n\t".utf8)))
    }

    /// JSON may carry DEL and C1 raw; a terminal showing the line may act on them.
    @Test func jsonEscapesDeleteAndC1AsWellAsC0() {
        #expect(JSONWriter().quoted("a\u{9B}b\u{7F}c\u{1B}") == "\"a\\u009bb\\u007fc\\u001b\"")
        #expect(JSONWriter().quoted("\u{A0}é") == "\"\u{A0}é\"")
    }
}
