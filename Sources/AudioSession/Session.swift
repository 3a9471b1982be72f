/// A handle on one session opened with the arbiter, shaped like
/// AVAudioSession's instance API so the player code reads like iOS code.
public final class Session {
    public let id: SessionID
    public private(set) var configuration: SessionConfiguration
    private unowned let arbiter: AudioSessionArbiter

    init(id: SessionID, configuration: SessionConfiguration, arbiter: AudioSessionArbiter) {
        self.id = id
        self.configuration = configuration
        self.arbiter = arbiter
    }

    /// Activates or deactivates the session. Activation throws
    /// `cannotInterruptOthers` while a higher-priority non-mixable session is
    /// active; deactivation ends the interruptions this session caused, with
    /// `shouldResume` only when `notifyOthersOnDeactivation` is true.
    public func setActive(_ active: Bool, notifyOthersOnDeactivation: Bool = false) throws(SessionActivationError) {
        try arbiter.setActive(active, session: id, notifyOthersOnDeactivation: notifyOthersOnDeactivation)
    }

    public var isActive: Bool { arbiter.isActive(id) }

    /// True while a higher-priority, non-mixable session is active.
    public var secondaryAudioShouldBeSilencedHint: Bool { arbiter.secondaryAudioShouldBeSilencedHint(for: id) }

    /// True while any other session is active.
    public var isOtherAudioPlaying: Bool { arbiter.isOtherAudioPlaying(besides: id) }

    /// Changes what the session plays (a book after music): the policy's
    /// column for the interruptions that begin from now on. One under way
    /// keeps the effect it began with, as a duck stays a duck.
    public func setMode(_ mode: SessionMode) {
        configuration.mode = mode
        arbiter.setMode(mode, for: id)
    }

    /// Replaces the observer that receives this session's notifications.
    public func observe(_ observer: @escaping (SessionEvent) -> Void) {
        arbiter.setObserver(observer, for: id)
    }
}
