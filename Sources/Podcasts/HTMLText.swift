/// HTML in a feed's description as plain text, as podcastparser's
/// `remove_html_tags` makes it: line breaks for `<br>`, list items and
/// paragraphs, every other tag dropped, character references and HTML's
/// named entities as their characters, at most one blank line in a row.
public enum HTMLText {
    /// podcastparser's `is_html`: an opening tag, `<name` then white space or `>` or `/>`.
    public static func isHTML(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "<", index + 1 < scalars.count, isASCIILetter(scalars[index + 1]) else { continue }
            var end = index + 2
            while end < scalars.count, isASCIILetter(scalars[end]) || ("0"..."9").contains(scalars[end]) { end += 1 }
            guard end < scalars.count else { continue }
            let next = scalars[end]
            if next == ">" { return true }
            if next == "/", end + 1 < scalars.count, scalars[end + 1] == ">" { return true }
            if next.properties.isWhitespace, scalars[(end + 1)...].contains(">") { return true }
        }
        return false
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    public static func text(_ html: String) -> String {
        var output = ""
        var scalars = Array(html.unicodeScalars)[...]
        while let scalar = scalars.first {
            if scalar == "<", let close = scalars.firstIndex(of: ">") {
                let tag = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close])).lowercased()
                let name = tag.prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" }
                if tag.hasPrefix("br") || name == "ul" || tag == "/ul" || tag.hasPrefix("/ul") || tag.hasPrefix("/li") {
                    output += "\n"
                } else if name == "li" {
                    output += "\n * "
                } else if tag == "p" {
                    output += "\n\n"
                }
                scalars = scalars[scalars.index(after: close)...]
                continue
            }
            if scalar == "&", let (replacement, length) = entity(scalars) {
                output += replacement
                scalars = scalars.dropFirst(length)
                continue
            }
            output.unicodeScalars.append(scalar)
            scalars = scalars.dropFirst()
        }
        return collapseBlankLines(output).trimmingFeedWhitespace()
    }

    /// `&#NN;` (2 to 4 digits) or `&name;` (2 to 8 characters, dropped when HTML has no such entity).
    private static func entity(_ scalars: ArraySlice<Unicode.Scalar>) -> (String, Int)? {
        let limit = min(scalars.count, 11)
        let window = Array(scalars.prefix(limit))
        guard let semicolon = window.firstIndex(of: ";"), semicolon >= 3 else { return nil }
        let body = String(String.UnicodeScalarView(window[1..<semicolon]))
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            if (2...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(digits),
               let character = Unicode.Scalar(value) {
                return (String(character), semicolon + 1)
            }
        }
        guard (2...8).contains(body.count) else { return nil }
        return (namedEntities[body] ?? "", semicolon + 1)
    }

    /// More than two line breaks in a row as the first two.
    private static func collapseBlankLines(_ text: String) -> String {
        var result = ""
        var run: [Unicode.Scalar] = []
        func flush() {
            for scalar in run.prefix(2) { result.unicodeScalars.append(scalar) }
            run.removeAll()
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" { run.append(scalar) } else { flush(); result.unicodeScalars.append(scalar) }
        }
        flush()
        return result
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
