/// The numbers with a fraction (a speed, a volume) a value read from a file
/// or typed may take, and the one phrase that says so. NaN and the
/// infinities are in no range, so a value that passes is safe to multiply
/// and to convert once scaled.
public struct DecimalRange: Sendable, Equatable {
    public let range: ClosedRange<Double>

    public init(_ range: ClosedRange<Double>) {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite)
        self.range = range
    }

    /// True for a finite value within the range.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && range.contains(value)
    }

    /// Playback speeds (`PlaybackSpeed`'s range), as state files keep them.
    public static let playbackSpeed = DecimalRange(0.5...3.0)
    /// Linear gains: a player's volume, an alarm's.
    public static let volume = DecimalRange(0...1)

    /// "a number from 0.5 to 3.0".
    public var accepts: String { "a number from \(range.lowerBound) to \(range.upperBound)" }
}
