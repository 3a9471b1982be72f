import AudioSession
import InterludeCore
import Testing

/// The fact the banner's "press space" line is drawn from: set when playback
/// that was meant to go on must wait for the user, with why; cleared by play.
struct WaitingForUserTests {
    @Test func endedWithoutShouldResumeWaitsForTheUserNamingTheInterrupter() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        try call.setActive(true)
        #expect(harness.player.waitingForUser == nil)
        try call.setActive(false, notifyOthersOnDeactivation: false)
        guard case .endedWithoutShouldResume(let source)? = harness.player.waitingForUser,
              case .session(_, let priorityClass) = source else {
            Issue.record("expected endedWithoutShouldResume, got \(String(describing: harness.player.waitingForUser))")
            return
        }
        #expect(priorityClass == .call)
        #expect(harness.player.play() == .started)
        #expect(harness.player.waitingForUser == nil)
    }

    @Test func aFailedResumeWaitsWithItsReasonAndAPauseKeepsIt() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.player.resumeDidFail(reason: "device busy")
        #expect(harness.player.waitingForUser == .resumeFailed(reason: "device busy"))
        harness.player.pause()
        #expect(harness.player.waitingForUser == .resumeFailed(reason: "device busy"))
    }

    @Test func losingTheOutputWhilePlayingWaitsForTheUser() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.outputDeviceLost()
        #expect(harness.player.waitingForUser == .routeDisconnected)
    }

    @Test func losingTheOutputWhilePausedByTheUserAsksNothing() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.player.pause()
        harness.arbiter.outputDeviceLost()
        #expect(harness.player.waitingForUser == nil)
    }

    @Test func anAlarmThatEndsWithShouldResumeNeverWaits() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.player.isPlaying)
        #expect(harness.player.waitingForUser == nil)
    }
}
