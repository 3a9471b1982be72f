import InterludeCore

/// "The system": decides which session may sound, interrupts and ducks lower
/// priorities according to the `InterruptionPolicy` table, and tells each
/// session what happened to it through `SessionEvent`s.
///
/// Events are queued while the arbiter's state changes and delivered after,
/// in order; an observer may call back into the arbiter (a player resuming
/// from inside its `ended` handler), and the events that call causes are
/// delivered after the current ones, never re-entrantly.
public final class AudioSessionArbiter {
    public let policy: InterruptionPolicy
    /// A jump of `CLOCK_BOOTTIME - CLOCK_MONOTONIC` larger than this means the machine slept.
    public var sleepDetectionThreshold: Duration = .milliseconds(500)

    private let clock: any Clock
    private var sessions: [SessionID: SessionRecord] = [:]
    private var interruptions: [OpenInterruption] = []
    private var pendingEvents: [(SessionID, SessionEvent)] = []
    private var isDelivering = false
    private var nextSessionID = 1
    private var nextInterruptionID = 1
    private var lastBootOffset: Duration
    private var suspensionEndTimer: TimerToken?
    /// Set between the system's "about to sleep" and its "woke up" (logind's
    /// `PrepareForSleep(true/false)`).
    public private(set) var isSleepAnnounced = false

    private struct SessionRecord {
        var configuration: SessionConfiguration
        var isActive = false
        var hint = false
        var observer: (SessionEvent) -> Void
    }

    private struct OpenInterruption {
        let id: InterruptionID
        let victim: SessionID
        let source: InterruptionSource
        let effect: InterruptionEffect
        let wasSuspended: Bool
        /// A suspension's `began` is delivered late, when the process continues.
        var beganDelivered: Bool
    }

    public init(clock: any Clock, policy: InterruptionPolicy = .standard) {
        self.clock = clock
        self.policy = policy
        self.lastBootOffset = clock.bootTimeMinusMonotonic
    }

    // MARK: Sessions

    public func openSession(_ configuration: SessionConfiguration, observer: @escaping (SessionEvent) -> Void = { _ in }) -> Session {
        let id = SessionID(rawValue: nextSessionID)
        nextSessionID += 1
        sessions[id] = SessionRecord(configuration: configuration, observer: observer)
        return Session(id: id, configuration: configuration, arbiter: self)
    }

    /// Deactivates (notifying others) and forgets the session.
    public func closeSession(_ id: SessionID) {
        try? setActive(false, session: id, notifyOthersOnDeactivation: true)
        interruptions.removeAll { $0.victim == id }
        sessions[id] = nil
    }

    func setMode(_ mode: SessionMode, for id: SessionID) {
        sessions[id]?.configuration.mode = mode
    }

    func setObserver(_ observer: @escaping (SessionEvent) -> Void, for id: SessionID) {
        sessions[id]?.observer = observer
    }

    public func isActive(_ id: SessionID) -> Bool { sessions[id]?.isActive ?? false }

    public func secondaryAudioShouldBeSilencedHint(for id: SessionID) -> Bool {
        guard let me = sessions[id] else { return false }
        return blocker(above: me.configuration.priorityClass, excluding: id) != nil
    }

    public func isOtherAudioPlaying(besides id: SessionID) -> Bool {
        sessions.contains { $0.key != id && $0.value.isActive }
    }

    /// The active interruption sources pausing or ducking `id`, for display.
    public func openInterruptions(affecting id: SessionID) -> [InterruptionID] {
        interruptions.filter { $0.victim == id }.map(\.id)
    }

    public func setActive(_ active: Bool, session id: SessionID, notifyOthersOnDeactivation: Bool = false) throws(SessionActivationError) {
        guard let record = sessions[id] else { throw .unknownSession(id) }
        if active {
            guard !record.isActive else { return }
            if let blocker = blocker(above: record.configuration.priorityClass, excluding: id) {
                throw .cannotInterruptOthers(blockedBy: blocker)
            }
            activate(id)
        } else {
            deactivate(id, notifyOthers: notifyOthersOnDeactivation)
        }
        refreshHints()
        deliverPendingEvents()
    }

    // MARK: Suspension and devices

    /// The process is about to stop (SIGTSTP): every active session is
    /// deactivated by the system. Its `began` is delivered late, by `processDidContinue()`.
    public func processWillSuspend() {
        for id in sortedIDs where sessions[id]!.isActive {
            sessions[id]!.isActive = false
            record(victim: id, source: .suspension, effect: .pause, wasSuspended: true, deliverBegan: false)
        }
        refreshHints()
        deliverPendingEvents()
    }

    /// The process runs again (SIGCONT): each session deactivated by the
    /// suspension gets its late `began` (`appWasSuspended`, `wasSuspended`).
    /// The suspension itself ends on the next timer tick with `shouldResume`,
    /// so that anything due meanwhile (an overdue alarm's timer fires before a
    /// timer scheduled now) is already active when the players try to resume.
    public func processDidContinue() {
        let now = clock.monotonicNow
        for index in interruptions.indices where interruptions[index].source == .suspension && !interruptions[index].beganDelivered {
            interruptions[index].beganDelivered = true
            let interruption = interruptions[index]
            enqueue(interruption.victim, .interruption(InterruptionNotification(
                kind: .began, options: [], reason: .appWasSuspended, wasSuspended: true,
                interruptionID: interruption.id, source: .suspension, time: now)))
        }
        if let timer = suspensionEndTimer { clock.cancel(timer) }
        suspensionEndTimer = clock.schedule(after: .zero) { [weak self] in
            guard let self else { return }
            self.suspensionEndTimer = nil
            self.endInterruptions(causedBy: .suspension, notifyOthers: true)
            self.refreshHints()
            self.deliverPendingEvents()
        }
        deliverPendingEvents()
    }

    /// Compares `CLOCK_BOOTTIME - CLOCK_MONOTONIC` with its last reading; a jump
    /// means the machine slept, which is handled as a suspension followed at
    /// once by a continue. Call it whenever the main loop wakes. Returns true
    /// when a sleep was detected (the caller should also re-plan wall-clock alarms).
    ///
    /// The fallback: when the system announced the sleep (`systemWillSleep`),
    /// the sessions are suspended already and the jump only ends the sleep, in
    /// case its wake-up announcement comes later or never.
    @discardableResult
    public func checkForSystemSleep() -> Bool {
        let offset = clock.bootTimeMinusMonotonic
        defer { lastBootOffset = offset }
        guard offset - lastBootOffset > sleepDetectionThreshold else { return false }
        if isSleepAnnounced {
            isSleepAnnounced = false
        } else {
            processWillSuspend()
        }
        processDidContinue()
        return true
    }

    /// The system is about to sleep (logind's `PrepareForSleep(true)`): every
    /// active session is deactivated now, as for a stopped process, so the
    /// late `began` after wake-up carries `wasSuspended` whether or not the
    /// clock jump is ever seen. Once until `systemDidWake`.
    public func systemWillSleep() {
        guard !isSleepAnnounced else { return }
        isSleepAnnounced = true
        processWillSuspend()
    }

    /// The system is awake again (`PrepareForSleep(false)`): the late `began`
    /// (`appWasSuspended`, `wasSuspended`), then the end with `shouldResume` on
    /// the next tick, exactly as after a stopped process. Nothing when the
    /// sleep was not announced or its clock jump already ended it. The sleep's
    /// clock jump is taken as seen, so it is not reported a second time.
    public func systemDidWake() {
        guard isSleepAnnounced else { return }
        isSleepAnnounced = false
        lastBootOffset = clock.bootTimeMinusMonotonic
        processDidContinue()
    }

    /// The output device went away: every active session is paused with
    /// `routeDisconnected` and nothing resumes it but the user.
    public func outputDeviceLost() {
        for id in sortedIDs where sessions[id]!.isActive {
            sessions[id]!.isActive = false
            record(victim: id, source: .outputDeviceLost, effect: .pause, wasSuspended: false, deliverBegan: true)
        }
        refreshHints()
        deliverPendingEvents()
    }

    // MARK: State changes

    private var sortedIDs: [SessionID] { sessions.keys.sorted { $0.rawValue < $1.rawValue } }

    /// The highest-priority active non-mixable session above `priorityClass`, if any.
    private func blocker(above priorityClass: PriorityClass, excluding id: SessionID) -> PriorityClass? {
        sessions
            .filter { $0.key != id && $0.value.isActive && !$0.value.configuration.isMixable && $0.value.configuration.priorityClass > priorityClass }
            .map(\.value.configuration.priorityClass)
            .max()
    }

    private func activate(_ id: SessionID) {
        // Activating by itself (the user pressed play) overrides whatever still
        // holds this session paused; nothing will send it an `ended` now.
        interruptions.removeAll { $0.victim == id && $0.effect == .pause }
        sessions[id]!.isActive = true
        let me = sessions[id]!.configuration
        let source = InterruptionSource.session(id, me.priorityClass)
        let row = policy.row(for: .session(me.priorityClass))
        for victim in sortedIDs where victim != id {
            let other = sessions[victim]!
            guard other.isActive, other.configuration.priorityClass < me.priorityClass else { continue }
            let effect = row.effect(on: other.configuration.content)
            if effect == .pause { sessions[victim]!.isActive = false }
            record(victim: victim, source: source, effect: effect, wasSuspended: false, deliverBegan: true)
        }
        // A session that starts under an active higher-priority ducker is ducked too.
        for ducker in sortedIDs where ducker != id {
            let other = sessions[ducker]!
            guard other.isActive, other.configuration.priorityClass > me.priorityClass else { continue }
            let effect = policy.row(for: .session(other.configuration.priorityClass)).effect(on: me.content)
            if case .duck = effect {
                record(victim: id, source: .session(ducker, other.configuration.priorityClass), effect: effect, wasSuspended: false, deliverBegan: true)
            }
        }
    }

    private func deactivate(_ id: SessionID, notifyOthers: Bool) {
        sessions[id]!.isActive = false
        // Also when already inactive (e.g. deactivated by a suspension): the
        // interruptions this session caused still end only when it says so.
        guard let priorityClass = sessions[id]?.configuration.priorityClass else { return }
        endInterruptions(causedBy: .session(id, priorityClass), notifyOthers: notifyOthers)
        // Its own ducks are meaningless once it is silent.
        interruptions.removeAll { $0.victim == id && $0.effect != .pause }
    }

    private func record(victim: SessionID, source: InterruptionSource, effect: InterruptionEffect, wasSuspended: Bool, deliverBegan: Bool) {
        guard effect != .mix else { return }
        let interruption = OpenInterruption(
            id: InterruptionID(rawValue: nextInterruptionID), victim: victim, source: source,
            effect: effect, wasSuspended: wasSuspended, beganDelivered: deliverBegan)
        nextInterruptionID += 1
        interruptions.append(interruption)
        guard deliverBegan else { return }
        let now = clock.monotonicNow
        switch effect {
        case .pause:
            let reason: InterruptionNotification.Reason = switch source {
            case .session: .default
            case .suspension: .appWasSuspended
            case .outputDeviceLost: .routeDisconnected
            }
            enqueue(victim, .interruption(InterruptionNotification(
                kind: .began, options: [], reason: reason, wasSuspended: wasSuspended,
                interruptionID: interruption.id, source: source, time: now, sourceLabel: label(of: source))))
        case .duck(let gain):
            enqueue(victim, .ducking(DuckingNotification(kind: .began, gain: gain, interruptionID: interruption.id, source: source,
                                                         time: now, sourceLabel: label(of: source))))
        case .mix:
            break
        }
    }

    private func endInterruptions(causedBy source: InterruptionSource, notifyOthers: Bool) {
        let now = clock.monotonicNow
        let ending = interruptions.filter { $0.source == source }
        interruptions.removeAll { $0.source == source }
        let resumes = policy.row(for: source.interrupter).autoResume
        for interruption in ending where interruption.beganDelivered {
            switch interruption.effect {
            case .pause:
                let options: InterruptionNotification.Options =
                    notifyOthers && resumes == .whenEndedWithShouldResume ? .shouldResume : []
                enqueue(interruption.victim, .interruption(InterruptionNotification(
                    kind: .ended, options: options, reason: nil, wasSuspended: interruption.wasSuspended,
                    interruptionID: interruption.id, source: source, time: now, sourceLabel: label(of: source))))
            case .duck:
                // Unducking does not wait for notifyOthers: a duck is never a pause.
                enqueue(interruption.victim, .ducking(DuckingNotification(
                    kind: .ended, gain: 1.0, interruptionID: interruption.id, source: source, time: now,
                    sourceLabel: label(of: source))))
            case .mix:
                break
            }
        }
    }

    /// The causing session's label; read while it is still known (a closing
    /// session ends its interruptions before it is forgotten).
    private func label(of source: InterruptionSource) -> String? {
        guard case .session(let id, _) = source else { return nil }
        return sessions[id]?.configuration.label
    }

    private func refreshHints() {
        let now = clock.monotonicNow
        for id in sortedIDs {
            let hint = secondaryAudioShouldBeSilencedHint(for: id)
            guard hint != sessions[id]!.hint else { continue }
            sessions[id]!.hint = hint
            enqueue(id, .silenceSecondaryAudioHint(SilenceSecondaryAudioHintNotification(kind: hint ? .began : .ended, time: now)))
        }
    }

    private func enqueue(_ id: SessionID, _ event: SessionEvent) {
        pendingEvents.append((id, event))
    }

    private func deliverPendingEvents() {
        guard !isDelivering else { return }
        isDelivering = true
        defer { isDelivering = false }
        while !pendingEvents.isEmpty {
            let (id, event) = pendingEvents.removeFirst()
            sessions[id]?.observer(event)
        }
    }
}
