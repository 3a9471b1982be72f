/// ID3v2's `TCON` values as genre names. Besides plain text, taggers write
/// ID3v1's numbers: "17" or "(17)" (2.3's form) for Rock, "(17)Rock" (a
/// number refined by text, the text kept when it differs: "(17)Hard" is Rock
/// and Hard), several in a row ("(17)(18)"), and "(RX)"/"(CR)" or "RX"/"CR"
/// for Remix and Cover; "((" escapes a text's leading parenthesis. Read as
/// mutagen reads them, a number outside the table is "Unknown".
enum ID3Genres {
    static func names(_ values: [String]) -> [String] {
        var names: [String] = []
        for value in values {
            // Longer digit runs are no genre number; their value is not needed.
            if !value.isEmpty, value.count <= 5, value.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(value), number < 256 {
                names.append(ID3v1Genre.name(number: number) ?? "Unknown")
            } else if let special = special(Substring(value)) {
                names.append(special)
            } else {
                names += parenthesized(value)
            }
        }
        return names
    }

    private static func special(_ code: Substring) -> String? {
        switch code {
        case "RX": "Remix"
        case "CR": "Cover"
        default: nil
        }
    }

    /// "(17)(RX)text": each parenthesized number or code, then the text after.
    private static func parenthesized(_ value: String) -> [String] {
        var rest = Substring(value)
        var found: [String] = []
        while rest.hasPrefix("("), let close = rest.firstIndex(of: ")") {
            let code = rest[rest.index(after: rest.startIndex)..<close]
            let isNumber = !code.isEmpty && code.allSatisfy { $0.isASCII && $0.isNumber }
            guard isNumber || special(code) != nil else { break }
            // Past three digits no number is in the table; its value is not needed.
            let number = isNumber && code.count <= 3 ? Int(code) : nil
            found.append(special(code) ?? number.flatMap(ID3v1Genre.name) ?? "Unknown")
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty {
            if rest.hasPrefix("((") { rest = rest.dropFirst() }
            let text = String(rest)
            if !found.contains(text) { found.append(text) }
        }
        return found
    }
}
