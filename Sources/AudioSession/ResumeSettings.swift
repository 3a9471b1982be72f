/// The tunables of the resume strategy (design.md §3.1, §3.3).
public struct ResumeSettings: Sendable, Equatable {
    public static let suspendedResumeDelayRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(5)

    /// How long after an `ended` with `wasSuspended` the single attempt is made,
    /// so the alarm's own audio has finished. Clamped to 0.1-5 s.
    public var suspendedResumeDelay: Duration {
        didSet { suspendedResumeDelay = Self.clamp(suspendedResumeDelay) }
    }
    /// The fade before an interruption pause: long enough to avoid a click.
    public var pauseFade: Duration
    /// The duck and unduck ramp.
    public var duckRamp: Duration

    public init(
        suspendedResumeDelay: Duration = .seconds(1),
        pauseFade: Duration = .milliseconds(30),
        duckRamp: Duration = .milliseconds(500)
    ) {
        self.suspendedResumeDelay = Self.clamp(suspendedResumeDelay)
        self.pauseFade = pauseFade
        self.duckRamp = duckRamp
    }

    private static func clamp(_ delay: Duration) -> Duration {
        min(max(delay, suspendedResumeDelayRange.lowerBound), suspendedResumeDelayRange.upperBound)
    }
}
