import FoundationEssentials
import InterludeCore
import Testing

/// The hand-written JSON reader and writer that replaced JSONDecoder/JSONEncoder.
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" { "a" : [1, -2, 3.5, -0.25e2, 1E3, true, false, null, "x"], "b": {}, "c": [] } "#)
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .double(3.5), .double(-25), .double(1000), .bool(true), .bool(false), .null, .string("x")]),
            "b": .object([:]),
            "c": .array([]),
        ]))
    }

    @Test func integersStayExactBeyondDoublePrecision() throws {
        #expect(try JSONParser.parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        // One past Int64: still a number, as a Double.
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    }

    @Test func escapesAndUnicodeDecode() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20AC \ud83d\ude00 é😀""#
        #expect(try JSONParser.parse(text) == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t Aé€ 😀 é😀"))
    }

    @Test("round trip through the writer gives back the same value", arguments: [false, true])
    func roundTrip(escapesSlashes: Bool) throws {
        let value: JSONValue = .object([
            "text": .string("tab\t quote\" slash/ back\\ nul\u{0} del\u{7F} ü 日本 🎧 \u{2028}"),
            "numbers": .array([.integer(0), .integer(-42), .integer(Int64.max), .double(0.1), .double(-1.5e-7), .double(1e300)]),
            "nested": .object(["empty": .array([]), "none": .object([:]), "flag": .bool(false), "nothing": .null]),
        ])
        let text = JSONWriter(escapesSlashes: escapesSlashes).prettyPrinted(value)
        #expect(try JSONParser.parse(text) == value)
        #expect(text.contains(#"slash\/"#) == escapesSlashes)
    }

    @Test func writerMatchesFoundationsPrettyPrintedSortedLayout() throws {
        struct Sample: Encodable {
            let zeta = 1
            let alpha = "a/b \"c\"\n\u{1}"
            let list = [1.5, 2, 0.1]
            let empty: [Int] = []
            let nested = ["b": true, "a": false]
            let none: [String: Int] = [:]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let foundation = String(decoding: try encoder.encode(Sample()), as: UTF8.self)
        let ours = JSONWriter(escapesSlashes: true).prettyPrinted(.object([
            "zeta": .integer(1), "alpha": .string("a/b \"c\"\n\u{1}"),
            "list": .array([.double(1.5), .double(2), .double(0.1)]), "empty": .array([]),
            "nested": .object(["b": .bool(true), "a": .bool(false)]), "none": .object([:]),
        ]))
        #expect(ours == foundation)
    }

    static let malformed: [(String, String)] = [
        ("", "line 1, column 1"),
        ("{", "line 1, column 2"),
        ("{\"version\": 1,", "line 1, column 15"),
        ("[1, 2,]", "line 1, column 7"),
        ("{\"a\" 1}", "expected ':'"),
        ("{a: 1}", "string key"),
        ("[01]", "line 1, column 3"),
        ("1.", "after '.'"),
        ("-", "digit"),
        ("1e", "exponent"),
        ("tru", "literal"),
        ("nul", "literal"),
        ("\"abc", "unterminated string"),
        ("\"a\u{1}b\"", "control character"),
        ("\"\\x\"", "unknown escape"),
        ("\"\\u12G4\"", "hex"),
        ("\"\\ud83d\"", "surrogate"),
        ("\"\\ude00\"", "surrogate"),
        ("[1] [2]", "after the JSON value"),
        ("{\n  \"a\" : [\n    1,\n    ]\n}", "line 4, column 5"),
        ("NaN", "expected a value"),
        (String(repeating: "[", count: 300), "nested deeper"),
    ]

    @Test("malformed input is an error saying where and why", arguments: malformed)
    func malformedInputIsAnError(text: String, mentions: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.description.contains(mentions)
        }
    }

    @Test func invalidUTF8InAStringIsAnError() throws {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(try JSONParser.parse([0x22, 0xC3, 0xA9, 0x22]) == .string("é"))
    }
}
