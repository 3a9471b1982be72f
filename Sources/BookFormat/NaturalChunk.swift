/// A run of ASCII digits or of other text: the units `NaturalOrder`
/// compares.
enum NaturalChunk {
    case number(Substring)
    case text(Substring)

    var text: Substring {
        switch self {
        case .number(let digits): return digits
        case .text(let text): return text
        }
    }

    /// Splits a name into alternating digit and text runs.
    static func split(_ name: String) -> [NaturalChunk] {
        var chunks: [NaturalChunk] = []
        var start = name.startIndex
        var inDigits: Bool?
        for index in name.indices {
            // ASCII only: no file manager people compare us with sorts other
            // scripts' digits by value.
            let isDigit = name[index].isASCII && name[index].isNumber
            if let current = inDigits, current != isDigit {
                chunks.append(current ? .number(name[start..<index]) : .text(name[start..<index]))
                start = index
            }
            inDigits = isDigit
        }
        if let current = inDigits {
            chunks.append(current ? .number(name[start...]) : .text(name[start...]))
        }
        return chunks
    }
}
