import InterludeCore

/// Sent to a session that a higher-priority session ducks (and later unducks).
/// AVAudioSession ducks silently; Interlude tells the player so the engine,
/// which does the mixing itself, can ramp the gain.
public struct DuckingNotification: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case began
        case ended
    }

    public let kind: Kind
    /// The linear gain to ramp to while ducked (1.0 on `ended`).
    public let gain: Double
    public let interruptionID: InterruptionID
    public let source: InterruptionSource
    /// The ducking session's `label`, when it has one (see `InterruptionNotification`).
    public let sourceLabel: String?
    public let time: MonotonicInstant

    public init(kind: Kind, gain: Double, interruptionID: InterruptionID, source: InterruptionSource, time: MonotonicInstant,
                sourceLabel: String? = nil) {
        self.sourceLabel = sourceLabel
        self.kind = kind
        self.gain = gain
        self.interruptionID = interruptionID
        self.source = source
        self.time = time
    }
}
