/// HTML in a feed's description as plain text, as podcastparser's
/// `remove_html_tags` makes it: line breaks for `<br>`, list items and
/// paragraphs, every other tag dropped, character references and HTML's
/// named entities as their characters, at most one blank line in a row.
public enum HTMLText {
    /// podcastparser's `is_html`: an opening tag, `<name` then white space or `>` or `/>`.
    /// Over the UTF-8 bytes (every byte of the syntax is ASCII), in one pass.
    public static func isHTML(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isHTML(bytes: $0) }
    }

    /// The same over UTF-8 bytes (an element's text as read).
    static func isHTML(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        do {
            guard let lastClose = bytes.lastIndex(of: UInt8(ascii: ">")) else { return false }
            var index = 0
            while index < bytes.count {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, isASCIILetter(bytes[index + 1]) else { continue }
                var end = index + 2
                while end < bytes.count, isASCIILetter(bytes[end]) || isASCIIDigit(bytes[end]) { end += 1 }
                guard end < bytes.count else { continue }
                let next = bytes[end]
                if next == UInt8(ascii: ">") { return true }
                if next == UInt8(ascii: "/"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ">") { return true }
                if let (scalar, length) = scalar(in: bytes, at: end), scalar.properties.isWhitespace, lastClose >= end + length {
                    return true
                }
            }
            return false
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The scalar whose UTF-8 starts at `index` and its length in bytes (the bytes are a String's: valid UTF-8).
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return (scalar, length)
    }

    /// The text, copied through byte by byte (runs of plain text at once):
    /// tags become line breaks or nothing, references their characters, and
    /// more than two line breaks in a row the first two.
    public static func text(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            // Written straight into the String made, no array between: the
            // text is never longer than the HTML (a tag of n bytes leaves at
            // most n, `<li>` its 4; a reference of n at most 3 of n >= 4;
            // other bytes are copied or dropped), held to by `put`.
            String(unsafeUninitializedCapacity: bytes.count) { output in
                var written = 0
                var breaks = 0
                func put(_ byte: UInt8) {
                    if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                        breaks += 1
                        if breaks > 2 { return }
                    } else {
                        breaks = 0
                    }
                    precondition(written < output.count, "HTML text longer than its HTML")
                    output[written] = byte
                    written += 1
                }
                // No `>` after this: a `<` past it starts no tag, known without a search to the end for each.
                let lastClose = bytes.lastIndex(of: UInt8(ascii: ">")) ?? -1
                var index = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "<"), index < lastClose, let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">")) {
                        for replacement in tagText(bytes, (index + 1)..<close).utf8 { put(replacement) }
                        index = close + 1
                        continue
                    }
                    if byte == UInt8(ascii: "&"), let (replacement, length) = entity(bytes, at: index) {
                        for replacement in replacement.utf8 { put(replacement) }
                        index += length
                        continue
                    }
                    // Plain text up to the next tag, reference or line break: at once.
                    var end = index
                    // Eight bytes at a time while none of them is a stop, then byte by byte.
                    if let base = bytes.baseAddress {
                        while end + 8 <= bytes.count, !hasStop(UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)) { end += 8 }
                    }
                    while end < bytes.count {
                        let next = bytes[end]
                        if next < 64 && (stops >> UInt64(next)) & 1 != 0 { break }
                        end += 1
                    }
                    if end > index {
                        // Plain bytes are copied one for one: the output is at `written` <= `index`, room for them.
                        _ = UnsafeMutableBufferPointer(rebasing: output[written..<(written + end - index)])
                            .initialize(from: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                        written += end - index
                        breaks = 0
                        index = end
                        continue
                    }
                    put(byte)
                    index += 1
                }
                // Trimmed in place (UTF-8: the input's, cut at ASCII tags and references).
                let range = String.trimmedRange(UnsafeBufferPointer(rebasing: output[..<written]))
                if range.lowerBound > 0, let start = output.baseAddress {
                    // Overlapping: a memmove.
                    UnsafeMutableRawPointer(start).copyMemory(from: start + range.lowerBound, byteCount: range.count)
                }
                return range.count
            }
        }
    }

    /// The bytes a run of plain text stops at, `<`, `&`, line feed and
    /// carriage return (all below 64), as bits: one test a byte.
    private static let stops: UInt64 = 1 << UInt64(UInt8(ascii: "<")) | 1 << UInt64(UInt8(ascii: "&")) | 1 << 0x0A | 1 << 0x0D

    /// Whether any of a word's eight bytes is a stop: each stop's byte
    /// XORed away, a byte that becomes zero found by the borrow it makes.
    private static func hasStop(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // The four tests' bits ORed before the one branch: no branch a stop.
        func zeros(_ value: UInt64) -> UInt64 { (value &- ones) & ~value }
        return (zeros(word ^ (ones &* UInt64(UInt8(ascii: "<")))) | zeros(word ^ (ones &* UInt64(UInt8(ascii: "&"))))
            | zeros(word ^ (ones &* 0x0A)) | zeros(word ^ (ones &* 0x0D))) & highs != 0
    }

    /// What a tag's inside (between `<` and `>`) leaves in the text.
    private static func tagText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        // Only tags that start as one of these words matter; case as ASCII.
        // The words are static ASCII: compared over their bytes, no array made per tag.
        func starts(with word: StaticString) -> Bool {
            word.withUTF8Buffer { word in
                guard range.count >= word.count else { return false }
                return word.indices.allSatisfy { asciiLowercased(bytes[range.lowerBound + $0]) == word[$0] }
            }
        }
        /// The tag's name is `word`: it ends there, at white space or at `/`.
        func named(_ word: StaticString) -> Bool {
            guard starts(with: word) else { return false }
            let after = range.lowerBound + word.utf8CodeUnitCount
            guard after < range.upperBound else { return true }
            if bytes[after] == UInt8(ascii: "/") { return true }
            return scalar(in: bytes, at: after).map { Character($0.0).isWhitespace } ?? false
        }
        // Told apart by their first byte: most tags are none of them.
        guard let first = range.first.map({ asciiLowercased(bytes[$0]) }) else { return "" }
        switch first {
        case UInt8(ascii: "b"): return starts(with: "br") ? "\n" : ""
        case UInt8(ascii: "u"): return named("ul") ? "\n" : ""
        case UInt8(ascii: "/"): return starts(with: "/ul") || starts(with: "/li") ? "\n" : ""
        case UInt8(ascii: "l"): return named("li") ? "\n * " : ""
        case UInt8(ascii: "p"): return range.count == 1 ? "\n\n" : ""
        default: return ""
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    /// `&#NN;` (2 to 4 digits) or `&name;` (2 to 8 characters, dropped when
    /// HTML has no such entity), its `;` within the 10 characters after `&`;
    /// the replacement and the bytes it takes.
    private static func entity(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (String, Int)? {
        var semicolon: Int?
        // The scalar index of the byte at `cursor` (`&` is 0), counted at each
        // scalar's first byte: a continuation byte is part of the one before.
        var scalarIndex = 0
        var cursor = start + 1
        while cursor < bytes.count {
            if bytes[cursor] & 0xC0 != 0x80 {
                scalarIndex += 1
                if scalarIndex >= 11 { break }
                if bytes[cursor] == UInt8(ascii: ";") { semicolon = cursor; break }
            }
            cursor += 1
        }
        guard let semicolon, scalarIndex >= 3 else { return nil }
        let body = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<semicolon]), as: UTF8.self)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            if (2...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(digits),
               let character = Unicode.Scalar(value) {
                return (String(character), semicolon + 1 - start)
            }
        }
        guard (2...8).contains(body.count) else { return nil }
        return (namedEntities[body] ?? "", semicolon + 1 - start)
    }

    /// HTML 4's named entities that descriptions use (Python's `html.entities.entitydefs` holds these and more).
    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“",
        "rdquo": "”", "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "euro": "€", "pound": "£",
        "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷", "auml": "ä", "ouml": "ö",
        "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "eacute": "é", "egrave": "è", "ecirc": "ê",
        "aacute": "á", "agrave": "à", "iacute": "í", "oacute": "ó", "uacute": "ú", "ntilde": "ñ", "ccedil": "ç",
        "Eacute": "É", "shy": "\u{AD}", "zwnj": "\u{200C}", "zwj": "\u{200D}",
    ]
}
