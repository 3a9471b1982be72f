import InterludeCore

/// How a dropped stream is tried again: after 1 s, 2 s, 4 s, 8 s ... up to
/// `maximumDelay`, each delay shortened by up to `jitter` of itself so that
/// many listeners of one station that fell over do not all come back in the
/// same second; given up after `limit` attempts, or tried for ever.
public struct ReconnectPolicy: Equatable, Sendable {
    public enum Limit: Equatable, Sendable {
        case attempts(Int)
        case forever
    }

    public var firstDelay: Duration
    public var maximumDelay: Duration
    /// 0 (none) to 0.5 (a delay may be halved).
    public var jitter: Double
    public var limit: Limit

    /// The settings' bounds, checked by `init`.
    public static let attemptRange = CountRange(1...1000, unit: "attempts")
    public static let delayRange = Duration.milliseconds(100)...Duration.seconds(3600)
    public static let jitterRange = 0.0...0.5

    /// Nil when a value is out of its range (see the static ranges) or the
    /// first delay is longer than the maximum.
    public init?(firstDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), jitter: Double = 0.2,
                 limit: Limit = .attempts(10)) {
        guard Self.delayRange.contains(firstDelay), Self.delayRange.contains(maximumDelay), firstDelay <= maximumDelay,
              Self.jitterRange.contains(jitter) else { return nil }
        if case .attempts(let count) = limit, !Self.attemptRange.range.contains(count) { return nil }
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.limit = limit
    }

    /// The default: 1 s doubling to 30 s, 20 % jitter, ten attempts.
    public static let standard = ReconnectPolicy()!

    /// The delay before attempt `attempt` (from 1) before jitter: the first
    /// delay doubled `attempt - 1` times, never past the maximum (and never
    /// computed past it, so attempt 10,000 of a stream kept for ever does not overflow).
    public func baseDelay(beforeAttempt attempt: Int) -> Duration {
        let first = milliseconds(firstDelay)
        let maximum = milliseconds(maximumDelay)
        var delay = first
        var doublings = max(0, attempt - 1)
        while doublings > 0 && delay < maximum {
            delay = min(delay * 2, maximum)
            doublings -= 1
        }
        return .milliseconds(delay)
    }

    /// `baseDelay` less a random part of up to `jitter` of it, from `generator`.
    public func delay(beforeAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let base = milliseconds(baseDelay(beforeAttempt: attempt))
        let most = Int(Double(base) * jitter)
        let cut = most > 0 ? Int.random(in: 0...most, using: &generator) : 0
        return .milliseconds(base - cut)
    }

    /// True when attempt `attempt` (from 1) may still be made.
    public func allows(attempt: Int) -> Bool {
        switch limit {
        case .forever: return true
        case .attempts(let count): return attempt <= count
        }
    }

    private func milliseconds(_ duration: Duration) -> Int {
        // Within delayRange: at most 3,600,000, so the conversion cannot trap.
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
