import AudioSession
import InterludeCore

/// Rings alarms on time, driven by a `Clock`.
///
/// One monotonic timer is armed for the earliest due alarm; clock-time and
/// date alarms are planned in wall time and re-planned when the wall clock is
/// stepped (`wallClockDidChange()`), relative alarms and snoozes are timed on
/// the monotonic clock. Ringing activates one `alarm`-class session on the
/// arbiter, so the player is interrupted once however many alarms ring, and
/// dismissing, snoozing or timing out deactivates it with
/// `notifyOthersOnDeactivation`, which ends the interruption with `shouldResume`.
public final class AlarmScheduler {
    public struct Settings: Sendable, Equatable {
        /// An alarm (or a snooze) found overdue by at most this much rings
        /// late and says why; older is reported missed and does not ring.
        public var lateRingGrace: Duration
        public static let defaultLateRingGrace = Duration.seconds(600)
        public init(lateRingGrace: Duration = Settings.defaultLateRingGrace) { self.lateRingGrace = lateRingGrace }
    }

    public struct Ringing: Sendable, Equatable {
        public var alarmIDs: [AlarmID]
        public var endsAt: MonotonicInstant
    }

    public private(set) var alarms: [Alarm] = []
    public private(set) var ringing: Ringing?
    /// Alarms reported missed that the listener has not yet seen (`acknowledgeMissed()`).
    public private(set) var unseenMissed: [MissedAlarm] = []
    public let settings: Settings
    public let session: Session
    public var onEvent: (AlarmEvent) -> Void
    /// Called `preparationLead` before the next alarm is due (at once when it is
    /// nearer), with that alarm: alarms are known ahead, so whatever ringing
    /// needs (its sound opened) can be ready at the due time instead of being
    /// made then, cold, between the due time and the music's pause.
    public var onPrepare: ((Alarm) -> Void)?
    /// Called as ringing begins, with the alarms that ring, before their session
    /// interrupts the player: the sound is started first (an exclusive voice
    /// waits for the music to stop), so the music's pause that the activation
    /// causes reaches the output with the sound already there, and goes at once.
    public var onSound: (([AlarmID]) -> Void)?
    /// Called after every plan of the next rings: each change of the alarms
    /// (added, removed, enabled, edited, rung, snoozed, skipped, or read from
    /// another process's save) ends in one. What follows the next alarm (the
    /// computer's wake) looks again then, and at no other time.
    public var onPlanned: (() -> Void)?
    public var preparationLead: Duration = .seconds(5)

    private let clock: any Clock
    private let calculator: NextFireCalculator
    private let store: AlarmStore?
    private var nextID = 1
    /// The file's alarms as this scheduler last read or wrote them: what
    /// another process changed since is told from it (`AlarmStore.save(_:since:now:)`).
    private var onDisk = AlarmStore.Contents.empty
    /// Alarms added here whose id another process took before the save, by the id given at first.
    private var renumbered: [AlarmID: AlarmID] = [:]
    private var planTimer: TimerToken?
    /// Every alarm with a next fire when the plan timer was armed, in the
    /// alarms' order, with that fire (wall seconds): what the timer rings.
    private var planned: [(id: AlarmID, fire: Int64)] = []
    private var prepareTimer: TimerToken?
    private var ringTimeoutTimer: TimerToken?
    /// Relative alarms and snoozes set in this run, on the monotonic clock.
    private var monotonicDeadlines: [AlarmID: MonotonicInstant] = [:]
    /// The system announced a sleep (or the boot clock showed one) that no look since has accounted for.
    private var sleepSeen = false
    /// Overdue by at most this (seconds) is on time: a timer's own latency.
    private static let onTimeSlack: Int64 = 1

    public init(clock: any Clock, timeZone: TimeZoneRules, arbiter: AudioSessionArbiter, store: AlarmStore?,
                settings: Settings = Settings(), onEvent: @escaping (AlarmEvent) -> Void = { _ in }) {
        self.clock = clock
        self.calculator = NextFireCalculator(zone: ZonedTime(timeZone: timeZone))
        self.store = store
        self.settings = settings
        self.onEvent = onEvent
        self.session = arbiter.openSession(SessionConfiguration(category: .playback, priorityClass: .alarm))
    }

    // MARK: Life cycle

    /// Loads the alarm file, reports damage and missed alarms, rings the ones
    /// within the grace period, and arms the timer.
    public func start() {
        if let store {
            let result = store.load(now: clock.wallNow)
            if let problem = result.problem { onEvent(.storeProblem(problem)) }
            alarms = result.contents.alarms
            nextID = result.contents.nextID
            onDisk = result.contents
        }
        let interrupted = takeInterruptedRings()
        reconcile(cause: .notRunning)
        ringAgain(interrupted)
    }

    /// Alarms whose ring a player that died left unended: never dropped in
    /// silence. Within the late-ring grace they ring again, said late with
    /// the reason; past it they are reported missed.
    private func takeInterruptedRings() -> [(id: AlarmID, since: Int64)] {
        var interrupted: [(id: AlarmID, since: Int64)] = []
        for index in alarms.indices {
            guard let since = alarms[index].ringingSince else { continue }
            alarms[index].ringingSince = nil
            interrupted.append((alarms[index].id, since))
        }
        return interrupted
    }

    private func ringAgain(_ interrupted: [(id: AlarmID, since: Int64)]) {
        guard !interrupted.isEmpty else { return }
        let now = clock.wallNow.secondsSince1970
        let grace = settings.lateRingGrace.components.seconds
        let again = interrupted.filter { now - $0.since <= grace && ringing?.alarmIDs.contains($0.id) != true }
        let missed = interrupted.filter { now - $0.since > grace }.compactMap { entry -> MissedAlarm? in
            guard let alarm = alarms.first(where: { $0.id == entry.id }) else { return nil }
            return MissedAlarm(id: alarm.id, label: alarm.label, dueAt: entry.since, lateSeconds: now - entry.since,
                               reason: .interrupted)
        }
        if !missed.isEmpty {
            unseenMissed += missed
            onEvent(.missed(missed))
        }
        if !again.isEmpty {
            ring(again.map { ($0.id, $0.since) })
            onEvent(.rangLate(again.map { LateRing(id: $0.id, lateSeconds: now - $0.since, reason: .interrupted) }))
        }
        save()
    }

    /// The system is about to sleep: what is found late next was late because it slept.
    public func systemWillSleep() { sleepSeen = true }

    /// The system woke: what fell due while it slept rings late or is missed now.
    public func systemDidWake() {
        sleepSeen = true
        wallClockDidChange(reason: .asleep)
    }

    /// The alarm file changed on disk (`interlude alarm`, another player):
    /// its changes are taken in, merged with this run's (an alarm added there
    /// rings here, one removed there is gone here), and the alarms re-planned.
    /// The scheduler's own saves change nothing here.
    public func fileDidChange() {
        if takeChangesFromFile() { reconcile() }
    }

    /// Reads the file and merges what changed in it since `onDisk` into the
    /// alarms; true when that changed them. A damaged file is set aside (and
    /// said once), and the next save writes this run's alarms whole.
    private func takeChangesFromFile() -> Bool {
        guard let store else { return false }
        let result = store.load(now: clock.wallNow)
        if let problem = result.problem {
            onEvent(.storeProblem(problem))
            // Nothing is known of the file now: this run's alarms are all there is.
            onDisk = .empty
            return true
        }
        guard result.contents != onDisk else { return false }
        let mine = AlarmStore.Contents(alarms: alarms, nextID: nextID)
        let (merged, renumbering) = mine.merged(since: onDisk, over: result.contents)
        onDisk = result.contents
        adopt(merged, renumbering)
        return merged != mine
    }

    /// Makes `contents` (the file's, merged) the alarms, keeping this run's
    /// deadlines and ringing under the ids the merge gave.
    private func adopt(_ contents: AlarmStore.Contents, _ renumbering: [AlarmID: AlarmID]) {
        for (old, new) in renumbering {
            monotonicDeadlines[new] = monotonicDeadlines.removeValue(forKey: old)
            if var current = ringing {
                current.alarmIDs = current.alarmIDs.map { $0 == old ? new : $0 }
                ringing = current
            }
        }
        renumbered.merge(renumbering) { _, new in new }
        alarms = contents.alarms
        nextID = contents.nextID
        let kept = Set(alarms.map(\.id))
        monotonicDeadlines = monotonicDeadlines.filter { kept.contains($0.key) }
    }

    /// The wall clock was set (NTP step, manual change, or after a system
    /// sleep): re-plan, ringing what just fell due and reporting what fell due
    /// too long ago. Relative alarms and snoozes keep their monotonic deadlines.
    /// `reason` is what the late ones say: a step of the clock, or a sleep
    /// that the boot clock showed.
    ///
    /// After a sleep it is the other way round: the monotonic clock stood
    /// still while the machine slept, so a snooze or a relative alarm keeps
    /// its wall time (it is late or missed like any other alarm), and its
    /// deadline moves back by the sleep.
    public func wallClockDidChange(reason: LateReason = .clockChanged) {
        for (id, deadline) in monotonicDeadlines {
            guard let index = alarms.firstIndex(where: { $0.id == id }) else { continue }
            let wall = (clock.wallNow + (deadline - clock.monotonicNow)).secondsSince1970
            if reason == .asleep {
                var stored = alarms[index].snoozedUntil
                if stored == nil, case .relative(let firesAt) = alarms[index].schedule { stored = firesAt }
                // Within a second is the stored whole seconds' truncation, not a sleep.
                if let stored, wall - stored > 1 {
                    monotonicDeadlines[id] = clock.monotonicNow + (WallInstant(secondsSince1970: stored) - clock.wallNow)
                }
            } else if alarms[index].snoozedUntil != nil {
                alarms[index].snoozedUntil = wall
            } else if case .relative = alarms[index].schedule {
                alarms[index].schedule = .relative(firesAt: wall)
            }
        }
        reconcile(cause: sleepSeen ? .asleep : reason)
        if reason == .asleep { sleepSeen = false }
    }

    // MARK: Editing

    /// Adds an alarm (its id is assigned here) and returns it.
    @discardableResult
    public func add(schedule: AlarmSchedule, configure: (inout Alarm) -> Void = { _ in }) -> Alarm {
        var deadline: MonotonicInstant?
        if case .relative(let firesAt) = schedule {
            deadline = clock.monotonicNow + (WallInstant(secondsSince1970: firesAt) - clock.wallNow)
        }
        return insert(schedule: schedule, monotonicDeadline: deadline, configure: configure)
    }

    /// Adds a relative alarm that rings exactly `delay` from now on the
    /// monotonic clock; its stored wall time is only whole seconds.
    @discardableResult
    public func add(after delay: Duration, configure: (inout Alarm) -> Void = { _ in }) -> Alarm {
        insert(schedule: .relative(firesAt: (clock.wallNow + delay).secondsSince1970),
               monotonicDeadline: clock.monotonicNow + delay, configure: configure)
    }

    /// The one way in: the deadline is in place before the alarm is planned, so
    /// a relative alarm never rings by its truncated wall time.
    private func insert(schedule: AlarmSchedule, monotonicDeadline: MonotonicInstant?,
                        configure: (inout Alarm) -> Void) -> Alarm {
        // The next free id is the file's: `interlude alarm add` may have taken one a moment ago.
        _ = takeChangesFromFile()
        renumbered = [:]
        var alarm = Alarm(id: AlarmID(rawValue: nextID), schedule: schedule, handledThrough: clock.wallNow.secondsSince1970)
        nextID += 1
        configure(&alarm)
        if let monotonicDeadline { monotonicDeadlines[alarm.id] = monotonicDeadline }
        alarms.append(alarm)
        reconcile()
        let id = renumbered[alarm.id] ?? alarm.id
        return alarms.first { $0.id == id } ?? alarm
    }

    /// Gives alarm `id` a new schedule, keeping its id, label, sound, ring and
    /// snooze lengths, and enables it (a one-time alarm that has rung is
    /// disabled; setting a new time is asking for it to ring). A snooze in
    /// progress is forgotten, and occurrences before now are not missed.
    /// False when there is no such alarm.
    @discardableResult
    public func reschedule(_ id: AlarmID, to schedule: AlarmSchedule) -> Bool {
        guard let index = alarms.firstIndex(where: { $0.id == id }) else { return false }
        alarms[index].schedule = schedule
        alarms[index].isEnabled = true
        alarms[index].snoozedUntil = nil
        alarms[index].skips = nil
        alarms[index].handledThrough = clock.wallNow.secondsSince1970
        monotonicDeadlines[id] = nil
        if case .relative(let firesAt) = schedule {
            monotonicDeadlines[id] = clock.monotonicNow + (WallInstant(secondsSince1970: firesAt) - clock.wallNow)
        }
        reconcile()
        return true
    }

    public func remove(_ id: AlarmID) {
        alarms.removeAll { $0.id == id }
        monotonicDeadlines[id] = nil
        reconcile()
    }

    public func setEnabled(_ id: AlarmID, _ enabled: Bool) {
        guard let index = alarms.firstIndex(where: { $0.id == id }) else { return }
        if enabled && !alarms[index].isEnabled {
            // Re-enabling starts from now: occurrences while disabled are not missed.
            alarms[index].handledThrough = clock.wallNow.secondsSince1970
            alarms[index].skips = nil
        }
        alarms[index].isEnabled = enabled
        if !enabled { alarms[index].snoozedUntil = nil; monotonicDeadlines[id] = nil }
        reconcile()
    }

    /// When the alarm rings next (wall seconds), or nil.
    public func nextFire(of id: AlarmID) -> Int64? {
        alarms.first { $0.id == id }.flatMap(nextFire)
    }

    /// When the next of all alarms rings (wall seconds; a ringing one's next
    /// is after this ring); nil when none will.
    public var nextAlarm: Int64? { alarms.compactMap(nextFire).min() }

    /// Skips the next regular occurrence of a repeating alarm (the one after
    /// that rings); returns the skipped occurrence, or nil when alarm `id` is
    /// missing, disabled or rings once. A snooze in progress is kept.
    @discardableResult
    public func skipNext(_ id: AlarmID) -> Int64? {
        guard let index = alarms.firstIndex(where: { $0.id == id }),
              let fire = alarms[index].skipNext(calculator, now: clock.wallNow.secondsSince1970) else { return nil }
        reconcile()
        return fire
    }

    /// The listener has seen the missed alarms: the banner and the pane stop showing them.
    public func acknowledgeMissed() { unseenMissed = [] }

    // MARK: Ringing

    /// Dismisses the ringing alarms; with none ringing, acknowledges the missed ones.
    public func dismiss() {
        guard ringing != nil else { return acknowledgeMissed() }
        endRinging(.dismissed)
    }

    /// Ends the ringing (the player resumes) and rings the same alarms again
    /// after their snooze length.
    public func snooze() {
        guard let ringing else { return }
        var latest: Int64 = 0
        for id in ringing.alarmIDs {
            guard let index = alarms.firstIndex(where: { $0.id == id }) else { continue }
            let length = Duration.seconds(alarms[index].snoozeMinutes * 60)
            monotonicDeadlines[id] = clock.monotonicNow + length
            let until = (clock.wallNow + length).secondsSince1970
            alarms[index].snoozedUntil = until
            latest = max(latest, until)
        }
        endRinging(.snoozed(until: latest))
    }

    private func endRinging(_ end: RingingEnd) {
        guard let ringing else { return }
        self.ringing = nil
        if let timer = ringTimeoutTimer { clock.cancel(timer) }
        ringTimeoutTimer = nil
        let snoozed = if case .snoozed = end { true } else { false }
        for id in ringing.alarmIDs {
            if let index = alarms.firstIndex(where: { $0.id == id }) { alarms[index].ringingSince = nil }
        }
        if !snoozed {
            for id in ringing.alarmIDs {
                guard let index = alarms.firstIndex(where: { $0.id == id }) else { continue }
                if alarms[index].schedule.isOneShot && alarms[index].snoozedUntil == nil {
                    alarms[index].isEnabled = false
                }
            }
        }
        try? session.setActive(false, notifyOthersOnDeactivation: true)
        onEvent(.ringingEnded(end))
        reconcile()
    }

    /// Rings `due`: its sound and its session first, then `bookkeeping` (what
    /// must be so before anyone hears of the ringing), then the event.
    private func ring(_ due: [(id: AlarmID, fire: Int64)], bookkeeping: () -> Void = {}) {
        let now = clock.monotonicNow
        let wall = clock.wallNow.secondsSince1970
        var joined: [AlarmID] = []
        var endsAt = ringing?.endsAt ?? now
        for (id, _) in due {
            guard let index = alarms.firstIndex(where: { $0.id == id }) else { continue }
            endsAt = max(endsAt, now + .seconds(alarms[index].ringTimeoutSeconds))
            // Saved with the ring's bookkeeping: a player that dies now leaves it for the next to ring.
            alarms[index].ringingSince = wall
            joined.append(id)
        }
        if var current = ringing {
            current.alarmIDs += joined
            current.endsAt = endsAt
            ringing = current
            bookkeeping()
            for id in joined { onEvent(.ringingJoined(id)) }
        } else {
            ringing = Ringing(alarmIDs: joined, endsAt: endsAt)
            onSound?(joined)
            // Nothing outranks an alarm, so activation cannot be refused.
            try? session.setActive(true)
            bookkeeping()
            onEvent(.ringingBegan(joined))
        }
        if let timer = ringTimeoutTimer { clock.cancel(timer) }
        ringTimeoutTimer = clock.schedule(at: endsAt) { [weak self] in
            self?.ringTimeoutTimer = nil
            self?.endRinging(.timedOut)
        }
    }

    // MARK: Planning

    /// The next fire of `alarm` in wall seconds: its regular occurrence after
    /// `handledThrough`, or the end of its snooze, whichever is first.
    private func nextFire(_ alarm: Alarm) -> Int64? {
        let (snooze, regular) = pendingFires(alarm)
        return [snooze, regular].compactMap { $0 }.min()
    }

    /// The end of the snooze and the regular occurrence, each in wall seconds.
    /// Monotonic deadlines (relative alarms, snoozes set in this run) are
    /// converted at the current offset, so wall-clock steps do not move them.
    private func pendingFires(_ alarm: Alarm) -> (snooze: Int64?, regular: Int64?) {
        guard alarm.isEnabled else { return (nil, nil) }
        let monotonic = monotonicDeadlines[alarm.id].map { (clock.wallNow + ($0 - clock.monotonicNow)).secondsSince1970 }
        if let snoozedUntil = alarm.snoozedUntil {
            let regular = alarm.schedule.isOneShot ? nil : calculator.nextFire(of: alarm.schedule, after: alarm.handledThrough)
            return (monotonic ?? snoozedUntil, regular)
        }
        if case .relative = alarm.schedule, let monotonic { return (nil, monotonic) }
        return (nil, calculator.nextFire(of: alarm.schedule, after: alarm.handledThrough))
    }

    /// Marks what fell due for `alarm` (up to `now`) as handled.
    private func consumeDueFires(at index: Int, now: Int64) {
        let (snooze, regular) = pendingFires(alarms[index])
        let id = alarms[index].id
        if let snooze, snooze <= now {
            alarms[index].snoozedUntil = nil
            monotonicDeadlines[id] = nil
        }
        if let regular, regular <= now {
            if case .relative(let firesAt) = alarms[index].schedule {
                alarms[index].handledThrough = max(now, firesAt)
                monotonicDeadlines[id] = nil
            } else {
                alarms[index].handledThrough = max(alarms[index].handledThrough, regular)
            }
        }
    }

    /// Rings what is due, reports what is long overdue, saves, and arms the
    /// timer for the next fire. Called on every change and every timer.
    /// `cause` is why anything found late is late: without one, a sleep seen
    /// since, or else a timer that fired late (the process was stopped).
    private func reconcile(cause: LateReason? = nil) {
        let reason = cause ?? (sleepSeen ? .asleep : .stopped)
        let now = clock.wallNow.secondsSince1970
        let grace = settings.lateRingGrace.components.seconds
        var due: [(id: AlarmID, fire: Int64)] = []
        var late: [LateRing] = []
        var missed: [MissedAlarm] = []
        for index in alarms.indices {
            if let skips = alarms[index].skips, skips <= now { alarms[index].skips = nil }
            let alarm = alarms[index]
            if ringing?.alarmIDs.contains(alarm.id) == true { continue }
            guard let fire = nextFire(alarm), isDue(alarm, fire: fire, now: now) else { continue }
            if now - fire <= grace {
                due.append((alarm.id, fire))
                let overdue = lateness(alarm, fire: fire, now: now)
                if overdue > Self.onTimeSlack { late.append(LateRing(id: alarm.id, lateSeconds: overdue, reason: reason)) }
                consumeDueFires(at: index, now: now)
            } else {
                let last = max(calculator.lastFire(of: alarm.schedule, after: alarm.handledThrough, through: now) ?? fire, fire)
                missed.append(MissedAlarm(id: alarm.id, label: alarm.label, dueAt: last, lateSeconds: now - last, reason: reason))
                alarms[index].handledThrough = now
                alarms[index].snoozedUntil = nil
                monotonicDeadlines[alarm.id] = nil
                if alarm.schedule.isOneShot { alarms[index].isEnabled = false }
            }
        }
        if !missed.isEmpty {
            unseenMissed += missed
            onEvent(.missed(missed))
        }
        if !due.isEmpty { ring(due) }
        if !late.isEmpty { onEvent(.rangLate(late)) }
        save()
        plan()
    }

    /// Seconds `alarm` is past its fire: by its monotonic deadline where it has one.
    private func lateness(_ alarm: Alarm, fire: Int64, now: Int64) -> Int64 {
        if let deadline = monotonicDeadlines[alarm.id], alarm.snoozedUntil != nil || isRelative(alarm) {
            return (clock.monotonicNow - deadline).components.seconds
        }
        return now - fire
    }

    /// The plan timer fired: what is due of what it was planned for rings
    /// first, by the fires the plan computed, so nothing is computed, saved or
    /// re-planned between the due time and the music's pause. The bookkeeping
    /// follows in the same turn: those fires marked handled (before the
    /// ringing is reported, as `reconcile` has it), then `reconcile`
    /// (anything else due or missed, the save, the next plan). An alarm past
    /// the grace window among them (the process was stopped) goes the way of
    /// `reconcile` alone, which reports the missed before it rings the rest.
    private func ringPlanned() {
        let now = clock.wallNow.secondsSince1970
        let grace = settings.lateRingGrace.components.seconds
        let due = planned.filter { entry in
            alarms.first { $0.id == entry.id }.map { isDue($0, fire: entry.fire, now: now) } ?? false
        }
        guard !due.isEmpty, due.allSatisfy({ now - $0.fire <= grace }) else { return reconcile() }
        let reason: LateReason = sleepSeen ? .asleep : .stopped
        let late = due.compactMap { entry -> LateRing? in
            guard let alarm = alarms.first(where: { $0.id == entry.id }) else { return nil }
            let overdue = lateness(alarm, fire: entry.fire, now: now)
            return overdue > Self.onTimeSlack ? LateRing(id: entry.id, lateSeconds: overdue, reason: reason) : nil
        }
        ring(due) {
            for (id, _) in due {
                if let index = alarms.firstIndex(where: { $0.id == id }) { consumeDueFires(at: index, now: now) }
            }
        }
        if !late.isEmpty { onEvent(.rangLate(late)) }
        reconcile()
    }

    /// Relative alarms and snoozes set in this run keep an exact monotonic
    /// deadline; the stored wall time is whole seconds and would ring up to a
    /// second early. Everything else is due by the wall clock.
    private func isDue(_ alarm: Alarm, fire: Int64, now: Int64) -> Bool {
        if let deadline = monotonicDeadlines[alarm.id], alarm.snoozedUntil != nil || isRelative(alarm) {
            return clock.monotonicNow >= deadline
        }
        return fire <= now
    }

    private func isRelative(_ alarm: Alarm) -> Bool {
        if case .relative = alarm.schedule { return true }
        return false
    }

    private func plan() {
        defer { onPlanned?() }
        if let timer = planTimer { clock.cancel(timer) }
        planTimer = nil
        if let timer = prepareTimer { clock.cancel(timer) }
        prepareTimer = nil
        let now = clock.wallNow
        let waits: [(wait: Duration, alarm: Alarm, fire: Int64)] = alarms
            .filter { ringing?.alarmIDs.contains($0.id) != true }
            .compactMap { alarm in
                guard let fire = nextFire(alarm) else { return nil }
                if let deadline = monotonicDeadlines[alarm.id], alarm.snoozedUntil != nil || isRelative(alarm) {
                    return (deadline - clock.monotonicNow, alarm, fire)
                }
                return (WallInstant(secondsSince1970: fire) - now, alarm, fire)
            }
        planned = waits.map { ($0.alarm.id, $0.fire) }
        guard let soonest = waits.min(by: { $0.wait < $1.wait }) else { return }
        let wait = max(.zero, soonest.wait)
        planTimer = clock.schedule(after: wait) { [weak self] in
            self?.planTimer = nil
            self?.ringPlanned()
        }
        if let onPrepare {
            let alarm = soonest.alarm
            prepareTimer = clock.schedule(after: max(.zero, wait - preparationLead)) { [weak self] in
                self?.prepareTimer = nil
                onPrepare(alarm)
            }
        }
    }

    /// Saves under the file's lock, merged with what others wrote since this
    /// scheduler last read or wrote it (`AlarmStore.save(_:since:now:)`), and
    /// takes the merged alarms: nothing another process wrote is lost, and
    /// nothing stale is written back.
    private func save() {
        guard let store else { return }
        do {
            let merged = try store.save(AlarmStore.Contents(alarms: alarms, nextID: nextID), since: onDisk, now: clock.wallNow)
            if let problem = merged.problem { onEvent(.storeProblem(problem)) }
            onDisk = merged.contents
            adopt(merged.contents, merged.renumbered)
        } catch {
            onEvent(.storeProblem("alarms not saved: \(error.description)"))
        }
    }
}
