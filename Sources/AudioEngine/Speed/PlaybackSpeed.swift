/// A playback speed from 0.5x to 3.0x in steps of 0.05, kept as a whole number
/// of twentieths so positions computed with it are exact integers (1.0x maps
/// every output frame to exactly one source frame).
public struct PlaybackSpeed: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The speed in twentieths: 10 (0.5x) ... 60 (3.0x).
    public let twentieths: Int

    public static let minimum = PlaybackSpeed(uncheckedTwentieths: 10)
    public static let maximum = PlaybackSpeed(uncheckedTwentieths: 60)
    public static let normal = PlaybackSpeed(uncheckedTwentieths: 20)

    /// The one message for a speed out of range or off the 0.05 grid.
    public static func rejection(_ text: String) -> String {
        "speed '\(text)' is not from 0.5 to 3.0 in steps of 0.05"
    }

    private init(uncheckedTwentieths: Int) { twentieths = uncheckedTwentieths }

    /// Nil unless `value` is on the 0.05 grid from 0.5 to 3.0.
    public init?(_ value: Double) {
        // The range first: `Int` of a huge or NaN value traps.
        guard value.isFinite, (0.5...3.0).contains(value) else { return nil }
        let scaled = value * 20
        let steps = scaled.rounded()
        guard abs(scaled - steps) < 1e-6, (10...60).contains(Int(steps)) else { return nil }
        twentieths = Int(steps)
    }

    /// Parses "1.5", "1.5x" or "2".
    public init?(parsing text: String) {
        let number = text.hasSuffix("x") ? String(text.dropLast()) : text
        guard let value = Double(number) else { return nil }
        self.init(value)
    }

    public var value: Double { Double(twentieths) / 20 }
    public var isNormal: Bool { twentieths == 20 }

    /// One step (0.05) faster, up to 3.0x (the `]` key).
    public var faster: PlaybackSpeed { PlaybackSpeed(uncheckedTwentieths: min(60, twentieths + 1)) }
    /// One step (0.05) slower, down to 0.5x (the `[` key).
    public var slower: PlaybackSpeed { PlaybackSpeed(uncheckedTwentieths: max(10, twentieths - 1)) }

    /// Source frames that `outputFrames` frames at this speed stand for (rounded down).
    public func sourceFrames(forOutput outputFrames: Int) -> Int { outputFrames * twentieths / 20 }

    /// Output frames that play `sourceFrames` source frames at this speed (rounded up):
    /// the inverse of `sourceFrames(forOutput:)`, the first output frame at or past them.
    public func outputFrames(forSource sourceFrames: Int) -> Int { (sourceFrames * 20 + twentieths - 1) / twentieths }

    public static func < (lhs: PlaybackSpeed, rhs: PlaybackSpeed) -> Bool { lhs.twentieths < rhs.twentieths }

    /// "1.0x", "1.25x", "0.5x".
    public var description: String {
        let whole = twentieths / 20
        let hundredths = twentieths % 20 * 5
        if hundredths == 0 { return "\(whole).0x" }
        if hundredths % 10 == 0 { return "\(whole).\(hundredths / 10)x" }
        return "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)x"
    }
}
