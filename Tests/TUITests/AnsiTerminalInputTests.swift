import Testing
import Themes
import TUI

/// The service's screens read keys from the bytes their terminal sends (no
/// ncurses): the sequences of xterm, tmux, screen and the Linux console, a
/// UTF-8 character, Escape alone, and a terminal's report kept apart from keys.
struct AnsiTerminalInputTests {
    static func decoded(_ text: String) -> [TerminalInput] {
        var bytes = Array(text.utf8)
        var inputs: [TerminalInput] = []
        while !bytes.isEmpty {
            let (count, input) = AnsiTerminal.decode(bytes)
            guard count > 0 else { break }
            if let input { inputs.append(input) }
            bytes.removeFirst(count)
        }
        return inputs
    }

    @Test("cursor and editing keys, in CSI and SS3 forms", arguments: [
        ("\u{1B}[A", NamedKey.up), ("\u{1B}OA", .up), ("\u{1B}[B", .down), ("\u{1B}OB", .down),
        ("\u{1B}[C", .right), ("\u{1B}OD", .left), ("\u{1B}[H", .home), ("\u{1B}OF", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}OP", .f1), ("\u{1B}OS", .f4), ("\u{1B}[15~", .f5), ("\u{1B}[24~", .f12), ("\u{1B}[[A", .f1),
        ("\u{1B}[Z", .tab), ("\u{7F}", .backspace), ("\r", .enter), ("\t", .tab), (" ", .space),
    ])
    func namedKeys(sequence: String, key: NamedKey) {
        #expect(Self.decoded(sequence) == [.key(.named(key))])
    }

    @Test("characters, control keys and Escape alone")
    func characters() {
        #expect(Self.decoded("q") == [.key(Key(inputScalar: "q")!)])
        #expect(Self.decoded("曲") == [.key(Key(inputScalar: "曲")!)])
        #expect(Self.decoded("\u{15}") == [.key(Key(inputScalar: "\u{15}")!)])
        #expect(Self.decoded("\u{1B}") == [.key(.named(.escape))])
        #expect(Self.decoded("a\u{1B}[Bb") == [.key(Key(inputScalar: "a")!), .key(.named(.down)), .key(Key(inputScalar: "b")!)])
    }

    @Test("a UTF-8 character cut by a read's end waits for its rest")
    func cutCharacter() {
        let bytes = Array("曲".utf8)
        #expect(AnsiTerminal.decode(Array(bytes.prefix(2))).0 == 0)
    }

    @Test("a terminal's answer is a report, never keys")
    func reports() {
        #expect(Self.decoded("\u{1B}[?62;4c") == [.report(Array("\u{1B}[?62;4c".utf8))])
        #expect(Self.decoded("\u{1B}_Gi=1;OK\u{1B}\\") == [.report(Array("\u{1B}_Gi=1;OK\u{1B}\\".utf8))])
    }

    @Test("a style is one SGR: attributes, then the colours the terminal has")
    func styles() {
        let style = ThemeStyle(.index(11), .index(1), .bold)
        #expect(String(decoding: AnsiTerminal.sgr(style, depth: .colors16), as: UTF8.self) == "\u{1B}[0;1;93;41m")
        #expect(String(decoding: AnsiTerminal.sgr(ThemeStyle(.index(208), .terminalDefault), depth: .colors256), as: UTF8.self)
                == "\u{1B}[0;38;5;208;49m")
        #expect(String(decoding: AnsiTerminal.sgr(ThemeStyle(.index(2), .index(0), .reverse), depth: .monochrome), as: UTF8.self)
                == "\u{1B}[0;7m")
    }
}
