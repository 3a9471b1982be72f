import Testing
@testable import TUI

/// Keys as the keys file spells them and as the terminal delivers them.
struct KeyTests {
    static let spellings: [(String, Key)] = [
        ("a", .character("a")), ("A", .character("A")), ("?", .character("?")), ("[", .character("[")),
        ("#", .character("#")), ("ö", .character("ö")), ("é", .character("é")), ("中", .character("中")), ("й", .character("й")),
        ("ctrl-x", .control("x")), ("CTRL-X", .control("x")), ("ctrl-X", .control("x")),
        ("left", .named(.left)), ("right", .named(.right)), ("up", .named(.up)), ("down", .named(.down)),
        ("home", .named(.home)), ("end", .named(.end)), ("pgup", .named(.pageUp)), ("pgdn", .named(.pageDown)),
        ("enter", .named(.enter)), ("tab", .named(.tab)), ("backspace", .named(.backspace)),
        ("delete", .named(.delete)), ("escape", .named(.escape)), ("space", .named(.space)),
        ("f1", .named(.f1)), ("F5", .named(.f5)), ("f12", .named(.f12)), ("Enter", .named(.enter)),
    ]

    @Test("each key form parses", arguments: spellings)
    func keyFormParses(text: String, expected: Key) {
        #expect(Key(parsing: text) == expected)
    }

    @Test("Ctrl forms a terminal cannot tell from named keys are those keys",
          arguments: [("ctrl-i", NamedKey.tab), ("ctrl-m", .enter), ("ctrl-j", .enter), ("ctrl-h", .backspace)])
    func ambiguousControlKeysAreNamedKeys(text: String, named: NamedKey) {
        #expect(Key(parsing: text) == .named(named))
    }

    @Test("every key's spelling parses back to the same key")
    func spellingRoundTrips() {
        var keys = NamedKey.allCases.map(Key.named)
        keys += "abcdefghijklmnopqrstuvwxyz".map(Key.control)
        keys += "aZ09!~[]#ö中🎵".map(Key.character)
        for key in keys {
            #expect(Key(parsing: key.description) == key, "\(key)")
        }
    }

    @Test("things that are no key do not parse",
          arguments: ["", "ctrl-", "ctrl-1", "ctrl-ab", "ctrl-ö", "f13", "f0", "pageup", "ab", "e\u{301}", "\u{7}", "\u{85}"])
    func nonKeysDoNotParse(text: String) {
        #expect(Key(parsing: text) == nil)
    }

    static let inputs: [(UInt32, Key)] = [
        (0x61, .character("a")), (0x41, .character("A")), (0xF6, .character("ö")), (0x4E2D, .character("中")),
        (0x20, .named(.space)), (0x0D, .named(.enter)), (0x0A, .named(.enter)), (0x09, .named(.tab)),
        (0x1B, .named(.escape)), (0x7F, .named(.backspace)), (0x08, .named(.backspace)),
        (0x01, .control("a")), (0x18, .control("x")), (0x1A, .control("z")),
    ]

    @Test("characters read from the terminal map to the key a binding names", arguments: inputs)
    func inputMapsToKey(scalar: UInt32, expected: Key) throws {
        #expect(Key(inputScalar: try #require(Unicode.Scalar(scalar))) == expected)
    }

    @Test("control codes no key sends map to nothing", arguments: [0x00, 0x1C, 0x1F, 0x80, 0x9F] as [UInt32])
    func unmappedControlCodes(scalar: UInt32) throws {
        #expect(Key(inputScalar: try #require(Unicode.Scalar(scalar))) == nil)
    }

    @Test("keys sort named first, then characters, then ctrl")
    func keyOrder() {
        let keys: [Key] = [.control("a"), .character("b"), .named(.enter), .character("A"), .named(.left)]
        #expect(keys.sorted() == [.named(.left), .named(.enter), .character("A"), .character("b"), .control("a")])
    }
}
