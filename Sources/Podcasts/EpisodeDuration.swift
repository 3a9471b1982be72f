/// `itunes:duration` as podcastparser's `parse_time` reads it: `H:MM:SS`,
/// `M:SS` or seconds, each with an optional fraction that is dropped; 0 for
/// what it cannot read. Each part is at most 9 digits and the total at most
/// 100,000 hours, so no value a feed holds can overflow.
public enum EpisodeDuration {
    static let longest = 100_000 * 3600

    public static func seconds(_ text: String) -> Int {
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

    /// Python's `int(value)` when no pattern matched ("+5", " 7 ").
    private static func fallback(_ value: String) -> Int {
        guard let number = FeedDate.pythonInt(value) else { return 0 }
        return max(-longest, min(number, longest))
    }
}
