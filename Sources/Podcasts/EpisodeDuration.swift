/// `itunes:duration` as podcastparser's `parse_time` reads it: `H:MM:SS`,
/// `M:SS` or seconds, each with an optional fraction that is dropped; 0 for
/// what it cannot read. Each part is at most 9 digits and the total at most
/// 100,000 hours, so no value a feed holds can overflow.
public enum EpisodeDuration {
    static let longest = 100_000 * 3600

    public static func seconds(_ text: String) -> Int {
        if let seconds = plainSeconds(text) { return seconds }
        let value = text.trimmingFeedWhitespace()
        if value.isEmpty { return 0 }
        var main = Substring(value)
        if let dot = main.firstIndex(of: ".") {
            let fraction = main[main.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return fallback(value) }
            main = main[..<dot]
        }
        let parts = main.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return fallback(value) }
        // Minutes and seconds after the first part are one or two digits.
        if parts.count > 1 && parts.dropFirst().contains(where: { $0.count > 2 }) { return fallback(value) }
        let numbers = parts.compactMap { Int($0) }
        var total = 0
        for number in numbers { total = total * 60 + number }
        return min(total, longest)
    }

    /// What `seconds` gives a text of one to three parts of ASCII digits
    /// apart by colons, the parts after the first one or two digits, an
    /// optional fraction (a dot then digits), nothing around them: read over
    /// its bytes. Nil for any other text.
    static func plainSeconds(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { plainSeconds(bytes: $0) }
    }

    /// `seconds` of UTF-8 bytes (an element's text as read): a String made only past the shortcut.
    static func seconds(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        plainSeconds(bytes: bytes) ?? seconds(String(decoding: bytes, as: UTF8.self))
    }

    static func plainSeconds(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        do {
            var total = 0
            var part = 0
            var digits = 0
            var parts = 0
            var index = 0
            func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
            func closePart() -> Bool {
                guard digits > 0, digits <= (parts == 0 ? 9 : 2) else { return false }
                parts += 1
                total = total * 60 + part
                part = 0
                digits = 0
                return parts <= 3
            }
            while index < bytes.count {
                let byte = bytes[index]
                if isDigit(byte) {
                    part = part * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                    if digits > 9 { return nil }
                } else if byte == UInt8(ascii: ":") {
                    guard closePart() else { return nil }
                } else if byte == UInt8(ascii: ".") {
                    let fraction = bytes[(index + 1)...]
                    guard !fraction.isEmpty, fraction.allSatisfy(isDigit) else { return nil }
                    break
                } else {
                    return nil
                }
                index += 1
            }
            guard closePart() else { return nil }
            return min(total, longest)
        }
    }

    /// Python's `int(value)` when no pattern matched ("+5", " 7 ").
    private static func fallback(_ value: String) -> Int {
        guard let number = FeedDate.pythonInt(value) else { return 0 }
        return max(-longest, min(number, longest))
    }
}
