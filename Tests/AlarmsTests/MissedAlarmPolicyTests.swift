import Alarms
import InterludeCore
import Testing

/// An occurrence found late by at most the grace window
/// (10 min by default) rings and says how late and why; later, it does not
/// ring and is kept as missed until the listener has seen it. A daily 07:00
/// Berlin alarm labelled "wake", the scheduler started at 06:59.
struct MissedAlarmPolicyTests {
    enum Cause: String, Sendable, CaseIterable {
        /// logind's PrepareForSleep(true), the machine asleep, PrepareForSleep(false).
        case asleep
        /// A sleep seen only by the boot clock's jump (no logind).
        case asleepByBootClock
        /// SIGSTOP: the monotonic clock ran on, no timer ran.
        case stopped
        /// The player quit at 06:59 and started again later.
        case notRunning
        case clockSteppedForward
    }

    enum Outcome: Sendable, Equatable {
        case rings(line: String?)
        case missed(line: String)
    }

    struct Row: Sendable, CustomStringConvertible {
        let cause: Cause
        /// Seconds after 07:00 when the scheduler looks.
        let gap: Int64
        let outcome: Outcome
        var description: String { "\(cause.rawValue), \(gap) s late" }
    }

    static let reasons: [Cause: String] = [
        .asleep: "the computer was asleep", .asleepByBootClock: "the computer was asleep",
        .stopped: "the player was stopped", .notRunning: "the player was not running",
        .clockSteppedForward: "the clock was changed",
    ]

    static let rows: [Row] = Cause.allCases.flatMap { cause -> [Row] in
        let reason = reasons[cause]!
        return [
            Row(cause: cause, gap: 10, outcome: .rings(line: "alarm 1 rang 10 s late: \(reason)")),
            Row(cause: cause, gap: 9 * 60, outcome: .rings(line: "alarm 1 rang 9 min late: \(reason)")),
            Row(cause: cause, gap: 11 * 60, outcome: .missed(line: "missed alarm 1 wake: 11 min late, \(reason)")),
            Row(cause: cause, gap: 3 * 3600, outcome: .missed(line: "missed alarm 1 wake: 3 h late, \(reason)")),
        ]
    }

    @Test("found late: rings within the grace window with how late and why, else missed", arguments: rows)
    func foundLate(row: Row) throws {
        let directory = try makeTemporaryDirectory()
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily)) { $0.label = "wake" }
        #expect(alarm.id == AlarmID(rawValue: 1))
        let away = Duration.seconds(60 + row.gap)
        switch row.cause {
        case .asleep:
            harness.arbiter.systemWillSleep()
            harness.scheduler.systemWillSleep()
            harness.clock.sleepMachine(for: away)
            harness.arbiter.systemDidWake()
            harness.scheduler.systemDidWake()
        case .asleepByBootClock:
            harness.clock.sleepMachine(for: away)
            #expect(harness.arbiter.checkForSystemSleep())
            harness.scheduler.wallClockDidChange(reason: .asleep)
        case .stopped:
            harness.arbiter.processWillSuspend()
            harness.clock.passTimeWhileStopped(away)
            harness.arbiter.processDidContinue()
            harness.clock.runDueTimers()
        case .notRunning:
            harness.clock.stepWallClock(by: away)
            harness.restart(stateDirectory: directory)
        case .clockSteppedForward:
            harness.clock.stepWallClock(by: away)
            harness.scheduler.wallClockDidChange()
        }
        check(harness, alarm.id, row.outcome, dueAt: utc("2025-06-16T05:00:00Z"))
        #expect(harness.scheduler.nextFire(of: alarm.id) == utc("2025-06-17T05:00:00Z"), "tomorrow's rings as ever")
    }

    /// A snooze (9 min, rung at 07:00) whose end passes while the machine sleeps.
    static let snoozeRows: [Row] = [
        Row(cause: .asleep, gap: 10, outcome: .rings(line: "alarm 1 rang 10 s late: the computer was asleep")),
        Row(cause: .asleep, gap: 9 * 60, outcome: .rings(line: "alarm 1 rang 9 min late: the computer was asleep")),
        Row(cause: .asleep, gap: 11 * 60, outcome: .missed(line: "missed alarm 1 wake: 11 min late, the computer was asleep")),
        Row(cause: .asleep, gap: 3 * 3600, outcome: .missed(line: "missed alarm 1 wake: 3 h late, the computer was asleep")),
        Row(cause: .stopped, gap: 11 * 60, outcome: .missed(line: "missed alarm 1 wake: 11 min late, the player was stopped")),
    ]

    @Test("a snooze never rings later than the grace window", arguments: snoozeRows)
    func snoozeFoundLate(row: Row) {
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z")
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily)) { $0.label = "wake" }
        harness.clock.advance(by: .seconds(60))
        #expect(harness.ringingBegan() == [[alarm.id]])
        harness.scheduler.snooze()
        let away = Duration.seconds(9 * 60 + row.gap)
        if row.cause == .asleep {
            harness.scheduler.systemWillSleep()
            harness.clock.sleepMachine(for: away)
            harness.scheduler.systemDidWake()
            harness.clock.runDueTimers()
        } else {
            harness.clock.passTimeWhileStopped(away)
            harness.clock.runDueTimers()
        }
        let rung = harness.ringingBegan()
        switch row.outcome {
        case .rings:
            #expect(rung == [[alarm.id], [alarm.id]], "the snooze rang")
        case .missed:
            #expect(rung == [[alarm.id]], "the snooze did not ring")
        }
        check(harness, alarm.id, row.outcome, dueAt: utc("2025-06-16T05:09:00Z"), ringsBefore: 1)
    }

    private func check(_ harness: AlarmHarness, _ id: AlarmID, _ outcome: Outcome, dueAt: Int64, ringsBefore: Int = 0) {
        let late = harness.events.flatMap { event -> [String] in
            if case .rangLate(let rings) = event { rings.map(\.line) } else { [] }
        }
        let missed = harness.events.flatMap { event -> [MissedAlarm] in
            if case .missed(let alarms) = event { alarms } else { [] }
        }
        switch outcome {
        case .rings(let line):
            #expect(harness.ringingBegan().count == ringsBefore + 1)
            #expect(late == (line.map { [$0] } ?? []))
            #expect(missed.isEmpty)
            #expect(harness.scheduler.unseenMissed.isEmpty)
        case .missed(let line):
            #expect(harness.ringingBegan().count == ringsBefore, "missed: it does not ring")
            #expect(late.isEmpty)
            #expect(missed.map(\.line) == [line])
            #expect(missed.map(\.dueAt) == [dueAt])
            // Shown until seen: dismissing with nothing ringing is the listener having seen it.
            #expect(harness.scheduler.unseenMissed.map(\.line) == [line])
            harness.scheduler.dismiss()
            #expect(harness.scheduler.unseenMissed.isEmpty)
        }
    }

    @Test("on time: no late line; the clock stepped back: rings once at 07:00, on time")
    func onTimeAndSteppedBack() {
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z")
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily))
        harness.clock.stepWallClock(by: .seconds(-3600))
        harness.scheduler.wallClockDidChange()
        harness.clock.advance(by: .seconds(3600 + 59))
        #expect(harness.ringingBegan().isEmpty, "05:59 + 1 h - 1 s: not yet")
        harness.clock.advance(by: .seconds(1))
        #expect(harness.ringingBegan() == [[alarm.id]])
        #expect(!harness.events.contains { if case .rangLate = $0 { true } else { false } }, "on time says nothing")
        #expect(!harness.events.contains { if case .missed = $0 { true } else { false } })
    }

    @Test("the grace window is a setting: 0 rings only on time")
    func zeroGrace() {
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z")
        let scheduler = AlarmScheduler(clock: harness.clock, timeZone: harness.timeZone, arbiter: harness.arbiter,
                                       store: nil, settings: .init(lateRingGrace: .zero))
        var events: [AlarmEvent] = []
        scheduler.onEvent = { events.append($0) }
        scheduler.start()
        scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        harness.clock.passTimeWhileStopped(.seconds(70))
        harness.clock.runDueTimers()
        #expect(!events.contains { if case .ringingBegan = $0 { true } else { false } })
        #expect(events.compactMap { if case .missed(let alarms) = $0 { alarms.map(\.line) } else { nil } }
            == [["missed alarm 1: 10 s late, the player was stopped"]])
    }

    @Test("spans as the lines say them", arguments: [
        (0, "0 s"), (45, "45 s"), (59, "59 s"), (60, "1 min"), (599, "9 min"), (3600, "1 h"),
        (7 * 3600 + 12 * 60 + 30, "7 h 12 min"), (86_400, "1 d"), (2 * 86_400 + 3 * 3600 + 59, "2 d 3 h"), (-5, "0 s"),
    ] as [(Int64, String)])
    func durationText(seconds: Int64, text: String) {
        #expect(AlarmDurationText.text(seconds: seconds) == text)
    }
}
