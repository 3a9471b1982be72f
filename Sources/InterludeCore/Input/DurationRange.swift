/// The durations and times (in seconds) a value typed by a user may take, and
/// the one phrase that says so.
///
/// Every parser of a duration or a time of day in seconds checks its text
/// here before anything converts or multiplies it: a `Double` that is
/// infinite, NaN or beyond `Int.max` traps when it becomes an `Int`, so no
/// value a user can type may reach that conversion unchecked. The bounds are
/// the largest that mean something to a listener (a week for a staged
/// interruption, as `alarm add in` allows), which keeps every later product in
/// milliseconds or frames far from overflowing.
public struct DurationRange: Sendable, Equatable {
    public let seconds: ClosedRange<Double>

    public init(seconds: ClosedRange<Double>) {
        precondition(seconds.lowerBound.isFinite && seconds.upperBound.isFinite)
        self.seconds = seconds
    }

    public static let day = 86_400.0
    public static let week = 7 * day

    /// Seconds from `5`, `2.5s`, `500ms`, `3m` or `1h` within the range; nil
    /// for text that is no such number or lies outside.
    public func parse(_ text: String) -> Double? {
        guard let value = DurationText.seconds(text), contains(value) else { return nil }
        return value
    }

    /// True for a finite value within the range (NaN is in no range).
    public func contains(_ value: Double) -> Bool {
        value.isFinite && seconds.contains(value)
    }

    /// Whole milliseconds of `value`, clamped to the range first, so the
    /// conversion cannot trap whatever the caller passes.
    public func milliseconds(_ value: Double) -> Int {
        let clamped = value.isNaN ? seconds.lowerBound : min(max(value, seconds.lowerBound), seconds.upperBound)
        return Int((clamped * 1000).rounded())
    }

    /// "a duration from 1 ms to 7 days (like 5, 2.5s, 500ms or 1m)".
    public var accepts: String {
        "a duration from \(Self.describe(seconds.lowerBound)) to \(Self.describe(seconds.upperBound)) "
            + "(like 5, 2.5s, 500ms or 1m)"
    }

    /// A bound as people say it: `0`, `1 ms`, `0.1 s`, `30 s`, `10 min`, `1 h`, `7 days`.
    static func describe(_ value: Double) -> String {
        if value == 0 { return "0" }
        let units: [(Double, String)] = [(day, " days"), (3600, " h"), (60, " min"), (1, " s"), (0.001, " ms")]
        for (scale, name) in units where value >= scale && abs(value / scale - (value / scale).rounded()) < 1e-9 {
            let count = Int((value / scale).rounded())
            return "\(count)\(count == 1 && scale == day ? " day" : name)"
        }
        return "\(value) s"
    }
}

/// Durations as people type them.
public enum DurationText {
    /// Seconds from `5`, `2.5s`, `500ms`, `3m`, `1h`; nil unless a finite number
    /// (the unit may make a huge finite number infinite: `1e308h`).
    public static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return finite(text.dropLast(suffix.count)).flatMap { finiteOrNil($0 * scale) }
        }
        return finite(Substring(text))
    }

    private static func finite(_ text: Substring) -> Double? {
        // `Double` also reads "nan", "inf" and "infinity"; none is a duration.
        Double(text).flatMap(finiteOrNil)
    }

    private static func finiteOrNil(_ value: Double) -> Double? { value.isFinite ? value : nil }
}
