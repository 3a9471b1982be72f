/// How far to go back when playback resumes after a pause or an interruption,
/// as BookPlayer does it (design.md §5):
///
///     rewind = min(max(ease(min(t, 3600) / 3600) * maxRewind, 2 s), timeInChapter, t)
///     ease(d) = 1 - (1 - d)^4
///
/// with `t` the time since playback stopped. A short interruption rewinds the
/// 2 s floor, an hour or more rewinds `maxRewind`; never before the chapter's
/// start, and never more than the time that passed. `maxRewind` 0 disables it.
public struct SmartRewind: Sendable, Equatable {
    public static let floorSeconds = 2.0
    public static let fullAfterSeconds = 3600.0

    /// Seconds; 0 disables smart rewind.
    public var maxRewindSeconds: Double

    public init(maxRewindSeconds: Double = 30) {
        self.maxRewindSeconds = max(0, maxRewindSeconds)
    }

    public static func ease(_ d: Double) -> Double {
        let rest = 1 - d
        return 1 - rest * rest * rest * rest
    }

    /// Seconds to rewind after `stoppedFor` seconds, at `timeInChapter` seconds into the chapter.
    public func rewind(stoppedFor t: Double, timeInChapter: Double) -> Double {
        guard maxRewindSeconds > 0, t > 0 else { return 0 }
        let eased = Self.ease(min(t, Self.fullAfterSeconds) / Self.fullAfterSeconds) * maxRewindSeconds
        return max(0, min(max(eased, Self.floorSeconds), timeInChapter, t))
    }
}
