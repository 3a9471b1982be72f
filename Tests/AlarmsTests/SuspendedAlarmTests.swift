import Alarms
import AudioSession
import InterludeCore
import Testing

/// design.md §3.4: an alarm that fell due while the process was stopped rings
/// when it continues, and the player comes back through the suspended path.
struct SuspendedAlarmTests {
    @Test func alarmDueWhileStoppedRingsOnContinueAndPlayerResumesAfterDismissal() {
        // 04:59Z is 06:59 in Berlin.
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z")
        harness.scheduler.start()
        harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))

        harness.arbiter.processWillSuspend()
        harness.clock.passTimeWhileStopped(.seconds(120))
        #expect(harness.ringingBegan().isEmpty, "nothing runs while stopped")
        harness.arbiter.processDidContinue()
        harness.clock.runDueTimers()

        #expect(harness.ringingBegan().count == 1, "overdue by a minute: within the grace period")
        #expect(harness.began.map(\.reason) == [.appWasSuspended])
        #expect(harness.ended.first?.wasSuspended == true)
        #expect(harness.ended.first?.options == .shouldResume)

        harness.clock.advance(by: .seconds(1))
        #expect(harness.actions.last == .resumePostponed, "the alarm is still ringing")
        #expect(harness.player.automaticResumeAttempts == 0)
        harness.clock.advance(by: .seconds(20))
        harness.scheduler.dismiss()
        #expect(harness.player.isPlaying)
        #expect(harness.player.automaticResumeAttempts == 1)
    }
}
