import Alarms
import AudioSession
import InterludeCore
import Testing

/// Alarms are known ahead, so the scheduler says which
/// alarm comes next `preparationLead` before it is due; the player opens its
/// sound then, and ringing starts a voice that is ready.
struct AlarmPreparationTests {
    static let start = "2026-03-02T05:00:00Z"

    @Test("the next alarm is announced for preparation 5 s before it is due, once, and before it rings")
    func preparedFiveSecondsAhead() {
        let harness = AlarmHarness(startUTC: Self.start)
        var prepared: [(AlarmID, MonotonicInstant)] = []
        // The clock, not the harness: the harness owns the scheduler that keeps this closure.
        let clock = harness.clock
        harness.scheduler.onPrepare = { alarm in prepared.append((alarm.id, clock.monotonicNow)) }
        harness.scheduler.start()
        let begin = harness.clock.monotonicNow
        // 07:00 Berlin is 06:00 UTC: an hour away.
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0)) { $0.sound = .file(path: "/alarm.mp3") }
        harness.clock.advance(by: .seconds(3594))
        #expect(prepared.isEmpty, "not before the lead")
        harness.clock.advance(by: .seconds(1))
        #expect(prepared.map(\.0) == [alarm.id])
        #expect(prepared.first.map { $0.1 - begin } == .seconds(3595))
        #expect(harness.ringingBegan().isEmpty, "prepared before it rings")
        harness.clock.advance(by: .seconds(5))
        #expect(harness.ringingBegan() == [[alarm.id]])
        #expect(prepared.count == 1)
    }

    @Test("an alarm nearer than the lead is prepared at once; the next one after a ring is prepared ahead of its own time")
    func nearAlarmAndTheOneAfter() {
        let harness = AlarmHarness(startUTC: Self.start)
        var prepared: [AlarmID] = []
        harness.scheduler.onPrepare = { prepared.append($0.id) }
        harness.scheduler.start()
        let soon = harness.scheduler.add(after: .seconds(2))
        let later = harness.scheduler.add(after: .seconds(120))
        harness.clock.advance(by: .zero)
        #expect(prepared == [soon.id])
        harness.clock.advance(by: .seconds(2))
        #expect(harness.ringingBegan() == [[soon.id]])
        harness.scheduler.dismiss()
        harness.clock.advance(by: .seconds(112))
        #expect(prepared == [soon.id], "the later alarm is prepared only 5 s before it")
        harness.clock.advance(by: .seconds(1))
        #expect(prepared == [soon.id, later.id])
    }
}
