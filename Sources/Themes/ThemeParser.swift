import InterludeCore

/// Reads the theme file format, a pure function over the file's text.
///
/// One setting per line: `element = foreground background [attributes]`.
/// `#` starts a comment (no colour, attribute or element name contains it);
/// blank lines are ignored; names are case-insensitive. Attributes are
/// separated by commas, spaces or both. Every line is checked and every
/// problem reported, so a user fixes a file in one pass.
public enum ThemeParser {
    public static func parse(_ text: String, name: String, path: String) -> ThemeLoad {
        var overrides: [ThemeElement: ThemeStyle] = [:]
        var firstLine: [ThemeElement: Int] = [:]
        var problems: [ConfigProblem] = []

        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak).enumerated() {
            let lineNumber = offset + 1
            func report(_ message: String) {
                problems.append(ConfigProblem(path: path, line: lineNumber, message: message))
            }
            let content = rawLine.prefix { $0 != "#" }
            guard !isBlank(content) else { continue }
            guard let equals = content.firstIndex(of: "=") else {
                report("expected 'element = foreground background [attributes]'")
                continue
            }
            let elementName = trimmed(content[..<equals]).lowercased()
            let words = content[content.index(after: equals)...].split(whereSeparator: isSpace).map(String.init)

            let element = ThemeElement(rawValue: elementName)
            if elementName.isEmpty {
                report("missing element name before '='")
            } else if element == nil {
                report("unknown element '\(elementName)'")
            } else if let element, let earlier = firstLine[element] {
                report("element '\(elementName)' is already set on line \(earlier)")
            }
            let subject = elementName.isEmpty ? "the element" : "'\(elementName)'"
            guard words.count >= 2 else {
                report(words.isEmpty ? "missing foreground and background colours for \(subject)"
                                     : "missing background colour for \(subject)")
                continue
            }
            let foreground = color(words[0], report: report)
            let background = color(words[1], report: report)
            var attributes: TextAttributes = []
            for word in words.dropFirst(2).joined(separator: " ").split(whereSeparator: { $0 == "," || isSpace($0) }) {
                if let attribute = TextAttributes(word: String(word)) {
                    attributes.insert(attribute)
                } else {
                    report("unknown attribute '\(word)' (expected \(TextAttributes.named.map(\.name).joined(separator: ", ")))")
                }
            }
            if let element, firstLine[element] == nil, let foreground, let background {
                firstLine[element] = lineNumber
                overrides[element] = ThemeStyle(foreground, background, attributes)
            }
        }

        guard problems.isEmpty else {
            return ThemeLoad(requestedName: name, path: path, theme: .standard, problems: problems)
        }
        return ThemeLoad(requestedName: name, path: path, theme: Theme(name: name, overriding: overrides), problems: [])
    }

    private static func color(_ word: String, report: (String) -> Void) -> ThemeColor? {
        if let color = ThemeColor(word: word) { return color }
        if !word.isEmpty, word.allSatisfy(\.isASCIIDigit) {
            report("colour \(word) is out of range (0-255)")
        } else {
            report("unknown colour '\(word)' (expected default, a name such as red or bright-red, or 0-255)")
        }
        return nil
    }

    /// Swift reads CR LF as one `Character`, so Windows line endings need naming here.
    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n"
    }

    private static func isSpace(_ character: Character) -> Bool {
        // A lone \r is left over from a file edited with mixed line endings.
        character == " " || character == "\t" || character == "\r"
    }

    private static func isBlank(_ text: Substring) -> Bool { text.allSatisfy(isSpace) }

    private static func trimmed(_ text: Substring) -> String {
        let start = text.drop(while: isSpace)
        guard let last = start.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(start[...last])
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
