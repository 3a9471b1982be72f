import Testing
@testable import Themes

/// The theme file format, parsed from strings: no files involved.
struct ThemeParserTests {
    private func parse(_ text: String) -> ThemeLoad {
        ThemeParser.parse(text, name: "test", path: "/t/test.theme")
    }

    static let colorWords: [(String, ThemeColor)] = [
        ("default", .terminalDefault),
        ("black", .index(0)), ("red", .index(1)), ("green", .index(2)), ("yellow", .index(3)),
        ("blue", .index(4)), ("magenta", .index(5)), ("cyan", .index(6)), ("white", .index(7)),
        ("bright-black", .index(8)), ("bright-red", .index(9)), ("bright-green", .index(10)), ("bright-yellow", .index(11)),
        ("bright-blue", .index(12)), ("bright-magenta", .index(13)), ("bright-cyan", .index(14)), ("bright-white", .index(15)),
        ("0", .index(0)), ("9", .index(9)), ("16", .index(16)), ("196", .index(196)), ("255", .index(255)),
        ("Bright-Red", .index(9)), ("DEFAULT", .terminalDefault),
    ]

    @Test("every colour form parses as foreground and as background", arguments: colorWords)
    func colourFormParses(word: String, expected: ThemeColor) {
        let asForeground = parse("list-row = \(word) default")
        let asBackground = parse("list-row = default \(word)")
        #expect(asForeground.problems == [])
        #expect(asForeground.theme[.listRow] == ThemeStyle(expected, .terminalDefault))
        #expect(asBackground.theme[.listRow] == ThemeStyle(.terminalDefault, expected))
    }

    @Test("a colour's spelling reads back as the same colour", arguments: 0...255)
    func colourDescriptionRoundTrips(index: Int) {
        let color = ThemeColor.index(UInt8(index))
        #expect(ThemeColor(word: color.description) == color)
    }

    static let attributeLines: [(String, TextAttributes)] = [
        ("", []),
        ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
        ("standout", .standout), ("blink", .blink), ("italic", .italic),
        ("bold,underline", [.bold, .underline]),
        ("bold, underline", [.bold, .underline]),
        ("bold underline reverse", [.bold, .underline, .reverse]),
        ("italic ,dim,  blink", [.italic, .dim, .blink]),
        ("BOLD", .bold),
        ("bold,dim,underline,reverse,standout,blink,italic", [.bold, .dim, .underline, .reverse, .standout, .blink, .italic]),
    ]

    @Test("attributes combine whether separated by commas, spaces or both", arguments: attributeLines)
    func attributesCombine(attributes: String, expected: TextAttributes) {
        let load = parse("banner = white red \(attributes)")
        #expect(load.problems == [])
        #expect(load.theme[.banner].attributes == expected)
    }

    @Test("comments, blank lines, tabs and CRLF endings are ignored")
    func commentsAndBlankLinesAreIgnored() {
        let load = parse("# a theme\n\n   \n\tbanner\t=\tyellow\tblue\tbold   # trailing comment\r\nlist-row = red default\r\n")
        #expect(load.problems == [])
        #expect(load.theme[.banner] == ThemeStyle(.index(3), .index(4), .bold))
        #expect(load.theme[.listRow] == ThemeStyle(.index(1), .terminalDefault))
    }

    @Test("elements a theme leaves out keep the default theme's style and the theme keeps its name")
    func unsetElementsKeepDefaultStyle() {
        let load = parse("banner = black yellow")
        #expect(load.theme.name == "test")
        #expect(!load.fellBackToDefault)
        for element in ThemeElement.allCases where element != .banner {
            #expect(load.theme[element] == Theme.standard[element], "\(element.rawValue)")
        }
    }

    @Test("every element name is accepted")
    func everyElementNameIsAccepted() {
        let text = ThemeElement.allCases.map { "\($0.rawValue) = red blue" }.joined(separator: "\n")
        let load = parse(text)
        #expect(load.problems == [])
        for element in ThemeElement.allCases {
            #expect(load.theme[element] == ThemeStyle(.index(1), .index(4)))
        }
    }

    static let badLines: [(line: String, message: String)] = [
        ("titel-bar = red blue", "unknown element 'titel-bar'"),
        ("banner = purple blue", "unknown colour 'purple'"),
        ("banner = red purple", "unknown colour 'purple'"),
        ("banner = red blue blod", "unknown attribute 'blod'"),
        ("banner = 256 blue", "colour 256 is out of range (0-255)"),
        ("banner = red 99999999999999999999999", "colour 99999999999999999999999 is out of range (0-255)"),
        ("banner = -1 blue", "unknown colour '-1'"),
        ("banner = red", "missing background colour for 'banner'"),
        ("banner =", "missing foreground and background colours for 'banner'"),
        ("banner red blue", "expected 'element = foreground background [attributes]'"),
        ("= red blue", "missing element name before '='"),
        ("banner = brightred blue", "unknown colour 'brightred'"),
    ]

    @Test("each kind of bad line is reported as PATH:LINE: message and the default theme is used", arguments: badLines)
    func badLineIsReportedAndDefaultUsed(line: String, message: String) throws {
        let load = parse("# comment\nlist-row = red default\n\(line)\nbanner-countdown = yellow red\n")
        let problem = try #require(load.problems.first)
        #expect(load.problems.count == 1)
        #expect(problem.line == 3)
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
        #expect(problem.description.hasPrefix("/t/test.theme:3: \(message)"))
        #expect(load.fellBackToDefault)
        #expect(load.theme == Theme.standard)
    }

    @Test("all problems are reported in line order, several on one line included")
    func allProblemsAreReported() {
        let text = """
        banner = red blue
        nonsense = red blue
        # fine
        list-row = purple 300 blod
        title-bar = red
        banner = white black
        """
        let load = parse(text)
        #expect(load.problems.map(\.line) == [2, 4, 4, 4, 5, 6])
        #expect(load.problems.map(\.message) == [
            "unknown element 'nonsense'",
            "unknown colour 'purple' (expected default, a name such as red or bright-red, or 0-255)",
            "colour 300 is out of range (0-255)",
            "unknown attribute 'blod' (expected bold, dim, underline, reverse, standout, blink, italic)",
            "missing background colour for 'title-bar'",
            "element 'banner' is already set on line 1",
        ])
        #expect(load.theme == Theme.standard)
    }

    @Test("an empty file is a valid theme identical in style to the default")
    func emptyFileIsDefaultStyles() {
        let load = parse("")
        #expect(load.problems == [])
        #expect(ThemeElement.allCases.allSatisfy { load.theme[$0] == Theme.standard[$0] })
    }

    @Test("a style's description is the right-hand side of a theme line and parses back")
    func styleDescriptionParsesBack() {
        let style = ThemeStyle(.index(214), .index(9), [.bold, .italic])
        #expect(style.description == "214 bright-red bold,italic")
        #expect(parse("playing-row = \(style)").theme[.playingRow] == style)
    }
}
