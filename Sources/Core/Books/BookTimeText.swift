import InterludeCore

/// Book positions as people write them: `h:mm:ss`, `m:ss`, or a duration
/// (`95`, `95.5s`, `12m`, `1h`).
package enum BookTimeText {
    /// Milliseconds, or nil when `text` is neither form (or negative).
    package static func parse(_ text: String) -> Int? {
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count) else { return nil }
            var seconds = 0.0
            for (index, part) in parts.enumerated() {
                let isLast = index == parts.count - 1
                guard let value = Double(part), value >= 0, value.isFinite,
                      isLast || value.rounded() == value, index == 0 || value < 60 else { return nil }
                seconds = seconds * 60 + value
            }
            return range.contains(seconds) ? range.milliseconds(seconds) : nil
        }
        return range.parse(text).map(range.milliseconds)
    }

    /// Longer than any book (the longest run to about 150 hours).
    package static let range = DurationRange(seconds: 0...1000 * 3600)

    /// "a time from 0 to 1000 h (h:mm:ss, m:ss or seconds)".
    package static var accepts: String { "a time from 0 to \(BookTimeText.format(range.milliseconds(range.seconds.upperBound))) (h:mm:ss, m:ss or seconds)" }

    /// `h:mm:ss` or `m:ss`, whole seconds rounded down.
    package static func format(_ milliseconds: Int) -> String {
        clockText(Double(milliseconds) / 1000)
    }
}
