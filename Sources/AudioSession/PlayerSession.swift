import InterludeCore

/// The player's side of the session contract: a state machine that turns
/// interruption, ducking and hint notifications plus the user's play/pause
/// into `PlayerAction`s, following design.md §3.3:
///
/// - On `began` it pauses and remembers whether playback was active.
/// - On `ended` with `shouldResume`, if playback was active at `began` and the
///   user has not paused or played since, it resumes at once, or, when the
///   interruption `wasSuspended`, makes a single attempt after a delay.
/// - While the secondary-audio hint is set it postpones, and resumes on the
///   hint's `ended` notification (no polling, no timer).
/// - At most one automatic attempt per interruption: a refused attempt leaves
///   the player paused with the reason until the user plays.
public final class PlayerSession {
    public enum PendingResume: Sendable, Equatable {
        case none
        case scheduled(at: MonotonicInstant)
        case waitingForHintToClear
    }

    public enum PlayOutcome: Sendable, Equatable {
        case started
        case alreadyPlaying
        case refused(reason: String)
    }

    /// Why playback waits for the user to play again, after an interruption
    /// that would have resumed could not: what the screen asks them about.
    public enum UserResumeReason: Sendable, Equatable {
        /// The interruption ended without `shouldResume`.
        case endedWithoutShouldResume(InterruptionSource)
        /// The single automatic attempt (or a resume on a lost device) failed.
        case resumeFailed(reason: String)
        /// The output route went away (design.md §3.2: never resumed by itself).
        case routeDisconnected
    }

    /// The interruption the player is currently paused by.
    public struct Interruption: Sendable, Equatable {
        public let id: InterruptionID
        public let source: InterruptionSource
        public let reason: InterruptionNotification.Reason
        public let wasSuspended: Bool
        /// Playing at `began` and not paused by the user since.
        public var resumeWhenEnded: Bool
        public var ended = false
    }

    public let session: Session
    public private(set) var settings: ResumeSettings
    public private(set) var isPlaying = false
    public private(set) var interruption: Interruption?
    public private(set) var pendingResume: PendingResume = .none
    /// Automatic resume attempts made for the current (or last) interruption: 0 or 1.
    public private(set) var automaticResumeAttempts = 0
    /// Automatic resume attempts over the player's lifetime.
    public private(set) var totalAutomaticResumeAttempts = 0
    /// Why the last resume failed or was refused, for the screen.
    public private(set) var lastFailureReason: String?
    /// Set while playback that was meant to go on waits for the user's play
    /// (the player was playing, or would have resumed); cleared when it plays.
    public private(set) var waitingForUser: UserResumeReason?

    /// Sees every notification the session receives, just before the state machine
    /// handles it, so a log shows each notification before the actions it caused.
    public var onSessionEvent: ((SessionEvent) -> Void)?

    private let clock: any Clock
    private unowned var sink: any PlayerActionSink
    private var resumeTimer: TimerToken?
    private var duckGains: [InterruptionID: Double] = [:]

    public init(arbiter: AudioSessionArbiter, clock: any Clock, content: SessionContent,
                settings: ResumeSettings = ResumeSettings(), sink: any PlayerActionSink) {
        self.clock = clock
        self.settings = settings
        self.sink = sink
        self.session = arbiter.openSession(SessionConfiguration(
            category: .playback, mode: content == .spokenAudio ? .spokenAudio : .default, priorityClass: .media))
        session.observe { [weak self] event in self?.handle(event) }
    }

    /// The product's setting; takes effect for the next scheduled attempt.
    public func setSuspendedResumeDelay(_ delay: Duration) {
        settings.suspendedResumeDelay = delay
    }

    // MARK: The user

    /// The user pressed play: cancels any pending automatic resume and starts
    /// at once, unless a higher-priority session is active (then says why).
    @discardableResult
    public func play() -> PlayOutcome {
        cancelPendingResume()
        guard !isPlaying else { return .alreadyPlaying }
        do {
            try session.setActive(true)
        } catch {
            lastFailureReason = error.description
            sink.perform(.playRefused(reason: error.description))
            return .refused(reason: error.description)
        }
        interruption = nil
        lastFailureReason = nil
        waitingForUser = nil
        isPlaying = true
        sink.perform(.resume(.user))
        return .started
    }

    /// The user chose other playback (a book while music plays, or music
    /// while a book plays) and it is to play: at once when nothing holds the
    /// player (`play()`), else as the interruption that holds it ends, by the
    /// policy, as if it had been playing when the interruption began.
    @discardableResult
    public func playWhenAllowed() -> PlayOutcome {
        guard interruptionHoldsPlay, var current = interruption else { return play() }
        guard !isPlaying else { return .alreadyPlaying }
        current.resumeWhenEnded = true
        interruption = current
        waitingForUser = nil
        return .started
    }

    /// An interruption under way holds what the user chooses to play until
    /// it ends (`playWhenAllowed`). A lost route never resumes by itself
    /// (design.md 3.2): the user's play tries the device.
    public var interruptionHoldsPlay: Bool {
        guard let current = interruption, !current.ended || pendingResume != .none else { return false }
        return current.reason != .routeDisconnected && current.source != .outputDeviceLost
    }

    /// Other playback took over (a book after music, with a pipeline of its
    /// own): the actions go to its sink from now on.
    public func setSink(_ sink: any PlayerActionSink) {
        self.sink = sink
    }

    /// The gain the interruptions under way duck the player to, or nil.
    public var duckGain: Double? { duckGains.values.min() }

    /// What the player plays changed kind (spoken audio after music, or back):
    /// the next interruptions take the policy's column for it.
    public func setContent(_ content: SessionContent) {
        session.setMode(content == .spokenAudio ? .spokenAudio : .default)
    }

    /// The user paused: no automatic resume for the current interruption.
    /// `fade` replaces the usual pause fade (a sleep timer fades over 10 s).
    public func pause(fade: Duration? = nil) {
        cancelPendingResume()
        interruption?.resumeWhenEnded = false
        guard isPlaying else { return }
        isPlaying = false
        sink.perform(.pause(fade: fade ?? settings.pauseFade))
    }

    /// The engine could not carry out an automatic resume (the device cannot
    /// be opened): stay paused with the reason; never retried automatically.
    public func resumeDidFail(reason: String) {
        guard isPlaying else { return }
        isPlaying = false
        lastFailureReason = reason
        waitingForUser = .resumeFailed(reason: reason)
        // Not sounding, so not holding the output: other sessions see silence.
        try? session.setActive(false)
        sink.perform(.resumeFailed(reason: reason))
    }

    /// The output could not be opened before anything played (no sound card,
    /// no sound server): paused from the start with the reason, for the
    /// banner; the user's play tries the output again.
    public func outputUnavailable(reason: String) {
        guard !isPlaying else { return }
        lastFailureReason = reason
        waitingForUser = .resumeFailed(reason: reason)
    }

    // MARK: Notifications

    public func handle(_ event: SessionEvent) {
        onSessionEvent?(event)
        switch event {
        case .interruption(let notification):
            switch notification.kind {
            case .began: interruptionBegan(notification)
            case .ended: interruptionEnded(notification)
            }
        case .ducking(let notification):
            switch notification.kind {
            case .began: duckGains[notification.interruptionID] = notification.gain
            case .ended: duckGains[notification.interruptionID] = nil
            }
            if let gain = duckGains.values.min() {
                sink.perform(.duck(gain: gain, ramp: settings.duckRamp))
            } else {
                sink.perform(.unduck(ramp: settings.duckRamp))
            }
        case .silenceSecondaryAudioHint(let notification):
            if notification.kind == .ended, pendingResume == .waitingForHintToClear {
                pendingResume = .none
                attemptAutomaticResume()
            }
        }
    }

    private func interruptionBegan(_ notification: InterruptionNotification) {
        // A resume that was still pending for an earlier interruption carries
        // the listener's intent over: they were listening and never paused.
        let intendedToPlay = isPlaying || (interruption?.resumeWhenEnded ?? false && pendingResume != .none)
        cancelPendingResume()
        if notification.reason == .routeDisconnected || notification.source == .outputDeviceLost,
           intendedToPlay || interruption?.resumeWhenEnded == true || waitingForUser != nil {
            waitingForUser = .routeDisconnected
        }
        if isPlaying {
            isPlaying = false
            sink.perform(.pause(fade: settings.pauseFade))
        }
        interruption = Interruption(
            id: notification.interruptionID, source: notification.source,
            reason: notification.reason ?? .default, wasSuspended: notification.wasSuspended,
            resumeWhenEnded: intendedToPlay)
        automaticResumeAttempts = 0
    }

    private func interruptionEnded(_ notification: InterruptionNotification) {
        guard var current = interruption, current.id == notification.interruptionID, !current.ended else { return }
        current.ended = true
        interruption = current
        guard current.resumeWhenEnded else { return }
        guard notification.options.contains(.shouldResume) else {
            waitingForUser = .endedWithoutShouldResume(current.source)
            sink.perform(.stayPaused)
            return
        }
        if notification.wasSuspended {
            let delay = settings.suspendedResumeDelay
            let deadline = clock.monotonicNow + delay
            pendingResume = .scheduled(at: deadline)
            resumeTimer = clock.schedule(at: deadline) { [weak self] in
                guard let self else { return }
                self.resumeTimer = nil
                self.pendingResume = .none
                self.attemptAutomaticResume()
            }
            sink.perform(.resumeScheduled(after: delay))
        } else {
            attemptAutomaticResume()
        }
    }

    private func attemptAutomaticResume() {
        guard let current = interruption, current.ended, current.resumeWhenEnded, automaticResumeAttempts == 0 else { return }
        if session.secondaryAudioShouldBeSilencedHint {
            pendingResume = .waitingForHintToClear
            sink.perform(.resumePostponed)
            return
        }
        automaticResumeAttempts += 1
        totalAutomaticResumeAttempts += 1
        interruption = nil
        do {
            try session.setActive(true)
        } catch {
            lastFailureReason = error.description
            waitingForUser = .resumeFailed(reason: error.description)
            sink.perform(.resumeFailed(reason: error.description))
            return
        }
        lastFailureReason = nil
        waitingForUser = nil
        isPlaying = true
        sink.perform(.resume(.automatic))
    }

    private func cancelPendingResume() {
        if let timer = resumeTimer { clock.cancel(timer) }
        resumeTimer = nil
        pendingResume = .none
    }
}
