/// The whole numbers (counts, numbers of minutes or milliseconds, ids) a
/// value typed by a user or read from a file may take, and the one phrase
/// that says so. `Int(text)` already refuses what does not fit in an `Int`;
/// the range keeps what does fit from overflowing the arithmetic after it
/// (`minutes * 60`, an array of that many points).
public struct CountRange: Sendable, Equatable {
    public let range: ClosedRange<Int>
    /// What is counted, plural ("minutes", "milliseconds"), or "" for a bare number.
    public let unit: String

    public init(_ range: ClosedRange<Int>, unit: String = "") {
        self.range = range
        self.unit = unit
    }

    /// A whole number within the range, written in ASCII digits with an optional sign; else nil.
    public func parse(_ text: String) -> Int? {
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    public func contains(_ value: Int64) -> Bool {
        value >= Int64(range.lowerBound) && value <= Int64(range.upperBound)
    }

    /// `value` as an `Int` when it is in range.
    public func checked(_ value: Int64) -> Int? {
        contains(value) ? Int(value) : nil
    }

    /// "a whole number of minutes from 1 to 60", "a number from 1 to 999999".
    public var accepts: String {
        let what = unit.isEmpty ? "a whole number" : "a whole number of \(unit)"
        return "\(what) from \(range.lowerBound) to \(range.upperBound)"
    }
}
