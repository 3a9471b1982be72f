/// A strict RFC 8259 parser over UTF-8 bytes: one value, optionally
/// surrounded by whitespace; no comments, trailing commas, NaN or
/// single-quoted strings. Strings must be valid UTF-8 and `\u` escapes
/// well-formed UTF-16 (a lone surrogate is an error, not U+FFFD), so what
/// is read back is exactly what was written.
public struct JSONParser {
    /// Deeper nesting is refused rather than risking the stack on a hostile file.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard let byte = peek else { throw failure("unexpected end of input: expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character \(Self.describe(byte)): expected a value")
        }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a string key in an object") }
            let key = try string()
            skipWhitespace()
            try expect(":", "after an object key")
            skipWhitespace()
            // A repeated key keeps its last value, as most parsers do.
            members[key] = try value()
            skipWhitespace()
            if peek == UInt8(ascii: ",") { position += 1; continue }
            try expect("}", "after an object member (or ',')")
            return .object(members)
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            if peek == UInt8(ascii: ",") { position += 1; continue }
            try expect("]", "after an array element (or ',')")
            return .array(elements)
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        position += 1 // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &utf8)
            case 0..<0x20:
                throw failure("control character \(Self.describe(byte)) in a string must be escaped")
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONParseError) {
        guard let byte = peek else { throw failure("unterminated escape") }
        position += 1
        let simple: UInt8? = switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "/"): UInt8(ascii: "/")
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple { utf8.append(simple); return }
        guard byte == UInt8(ascii: "u") else { throw failure("unknown escape \\\(Self.describe(byte))") }
        var scalarValue = UInt32(try hexQuad())
        if (0xD800...0xDBFF).contains(scalarValue) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                throw failure("lone UTF-16 surrogate \\u\(String(scalarValue, radix: 16))")
            }
            position += 2
            let low = UInt32(try hexQuad())
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone UTF-16 surrogate \\u\(String(scalarValue, radix: 16))") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw failure("lone UTF-16 surrogate \\u\(String(scalarValue, radix: 16))")
        }
        // Valid by construction: surrogates were excluded or combined above.
        utf8.append(contentsOf: String(Character(Unicode.Scalar(scalarValue)!)).utf8)
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek else { throw failure("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u needs four hex digits, found \(Self.describe(byte))")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        // RFC 8259: no leading zeros, at least one digit each side of '.', optional exponent.
        if peek == UInt8(ascii: "0") {
            position += 1
        } else if try digits() == 0 {
            throw failure("expected a digit in a number")
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            guard try digits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard try digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("number \(text) is out of range") }
        return .double(double)
    }

    private mutating func digits() throws(JSONParseError) -> Int {
        let start = position
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        for expected in word.utf8 {
            guard peek == expected else { throw failure("invalid literal: expected '\(word)'") }
            position += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar, _ context: String) throws(JSONParseError) {
        guard let byte = peek else { throw failure("unexpected end of input: expected '\(character)' \(context)") }
        guard byte == UInt8(ascii: character) else {
            throw failure("unexpected character \(Self.describe(byte)): expected '\(character)' \(context)")
        }
        position += 1
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private func failure(_ reason: String) -> JSONParseError {
        var line = 1, column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return JSONParseError(line: line, column: column, reason: reason)
    }
}
