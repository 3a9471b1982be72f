import Alarms
import InterludeCore
import Testing

/// Acceptance 6, the stepped wall clock: a 07:00 Berlin alarm set at 05:00 local.
struct WallClockStepTests {
    enum Outcome: Sendable, Equatable {
        /// Rings after this much monotonic time from the step.
        case ringsAfter(seconds: Int64)
        /// Reported missed, and rings next at 07:00 the next day.
        case missedThenTomorrow
    }

    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let stepHours: Int64
        let stepMinutes: Int64
        let outcome: Outcome
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "forward 1 h: rings 1 h later", stepHours: 1, stepMinutes: 0, outcome: .ringsAfter(seconds: 3600)),
        Row(name: "back 3 h: rings 5 h later", stepHours: -3, stepMinutes: 0, outcome: .ringsAfter(seconds: 5 * 3600)),
        Row(name: "forward 2 h 2 min, just past 07:00: rings at once", stepHours: 2, stepMinutes: 2, outcome: .ringsAfter(seconds: 0)),
        Row(name: "forward 3 h, an hour past 07:00: missed, not rung late", stepHours: 3, stepMinutes: 0, outcome: .missedThenTomorrow),
    ]

    @Test("wall clock stepped", arguments: rows)
    func wallClockStepped(row: Row) {
        // 2025-06-16T03:00Z is 05:00 CEST.
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z")
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily))

        harness.clock.stepWallClock(by: .seconds(row.stepHours * 3600 + row.stepMinutes * 60))
        harness.scheduler.wallClockDidChange()
        switch row.outcome {
        case .ringsAfter(let seconds):
            if seconds > 0 {
                harness.clock.advance(by: .seconds(seconds - 1))
                #expect(harness.ringingBegan().isEmpty)
                harness.clock.advance(by: .seconds(1))
            }
            #expect(harness.ringingBegan() == [[alarm.id]])
        case .missedThenTomorrow:
            #expect(harness.ringingBegan().isEmpty)
            #expect(harness.events.contains(.missed([MissedAlarm(id: alarm.id, label: "", dueAt: utc("2025-06-16T05:00:00Z"),
                                                                         lateSeconds: 3600, reason: .clockChanged)])))
            #expect(harness.scheduler.nextFire(of: alarm.id) == utc("2025-06-17T05:00:00Z"))
        }
    }

    @Test func clockSteppedBackAfterRingingDoesNotRingTheSameOccurrenceAgain() {
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z")
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily))
        harness.clock.advance(by: .seconds(2 * 3600))
        harness.scheduler.dismiss()
        harness.clock.advance(by: .seconds(600))
        harness.clock.stepWallClock(by: .seconds(-2 * 3600))
        harness.scheduler.wallClockDidChange()
        harness.clock.advance(by: .seconds(4 * 3600))
        #expect(harness.ringingBegan().count == 1)
        #expect(harness.scheduler.nextFire(of: alarm.id) == utc("2025-06-17T05:00:00Z"))
    }
}
