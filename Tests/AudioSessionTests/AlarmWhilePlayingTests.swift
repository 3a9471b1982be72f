import AudioSession
import InterludeCore
import Testing

/// Acceptance 2: an alarm while playing resumes at once, with one attempt.
struct AlarmWhilePlayingTests {
    @Test func alarmWhilePlayingResumesImmediatelyWithExactlyOneAttempt() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)

        try alarm.setActive(true)
        harness.clock.advance(by: .seconds(45))
        let endedAt = harness.clock.monotonicNow
        try alarm.setActive(false, notifyOthersOnDeactivation: true)

        let notifications = harness.interruptionNotifications
        #expect(notifications.count == 2)
        #expect(notifications[0].kind == .began)
        #expect(notifications[0].reason == .default)
        #expect(notifications[0].wasSuspended == false)
        #expect(notifications[1].kind == .ended)
        #expect(notifications[1].options.contains(.shouldResume))
        #expect(notifications[1].wasSuspended == false)
        #expect(notifications[1].interruptionID == notifications[0].interruptionID)
        #expect(harness.automaticResumes == [endedAt])
        #expect(harness.player.automaticResumeAttempts == 1)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.player.totalAutomaticResumeAttempts == 1)
    }

    @Test func notPlayingWhenAlarmBeganMeansNoResume() throws {
        let harness = PlayerHarness()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.actionList.isEmpty)
        #expect(!harness.player.isPlaying)
    }

    @Test func deactivatingWithoutNotifyingOthersEndsWithoutShouldResume() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: false)
        let ended = try #require(harness.interruptionNotifications.last)
        #expect(ended.kind == .ended)
        #expect(ended.options.isEmpty)
        #expect(harness.automaticResumes.isEmpty)
    }
}
