import AudioSession

/// What the player's session state machine (`PlayerSession`) and the runtime
/// know about what holds playback, read from them as they are: the banner
/// and the status line are drawn from this, never inferred from events.
public struct SessionSnapshot: Equatable, Sendable {
    /// The interruption the player is paused by.
    public struct Interruption: Equatable, Sendable {
        public var source: InterruptionSource
        public var reason: InterruptionNotification.Reason
        public var wasSuspended: Bool
        /// Playback comes back by itself when it ends: the player was playing
        /// at its `began` and the user has not paused since.
        public var willResume: Bool
        public var ended: Bool

        public init(source: InterruptionSource, reason: InterruptionNotification.Reason = .default,
                    wasSuspended: Bool = false, willResume: Bool, ended: Bool = false) {
            self.source = source
            self.reason = reason
            self.wasSuspended = wasSuspended
            self.willResume = willResume
            self.ended = ended
        }
    }

    public enum PendingResume: Equatable, Sendable {
        case none
        /// The single attempt after a suspended interruption, due at `deadline`
        /// (the player's time in seconds, as events carry it).
        case scheduled(deadline: Double)
        /// Waiting for the secondary-audio hint to clear.
        case waitingForHint
    }

    /// The user's intent: playing, or held by an interruption it will resume from.
    public var playing = false
    public var interruption: Interruption?
    public var pendingResume = PendingResume.none
    /// Why playback waits for the user's play, when it does.
    public var waitingForUser: PlayerSession.UserResumeReason?
    /// The session is suspended without the process stopping (the testing key).
    public var suspended = false
    public var callActive = false
    public var alarmRinging = false

    public init(playing: Bool = false, interruption: Interruption? = nil, pendingResume: PendingResume = .none,
                waitingForUser: PlayerSession.UserResumeReason? = nil, suspended: Bool = false) {
        self.playing = playing
        self.interruption = interruption
        self.pendingResume = pendingResume
        self.waitingForUser = waitingForUser
        self.suspended = suspended
    }
}
