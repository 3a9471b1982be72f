import AudioSession
import InterludeCore
import Testing

/// Acceptance 5: the cases where the player must stay paused.
struct StaysPausedTests {
    @Test func userPausedDuringInterruptionMeansNoAutomaticResume() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        harness.player.pause()
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.automaticResumes.isEmpty)
        #expect(harness.player.automaticResumeAttempts == 0)
        #expect(!harness.player.isPlaying)
    }

    /// The sleep timer's pause: the listener's own, with its long fade, so an
    /// alarm that rings afterwards ends without resuming the book.
    @Test func pauseWithALongFadeIsTheUsersOwnAndAnAlarmAfterItDoesNotResume() throws {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        harness.player.pause(fade: .seconds(10))
        #expect(harness.actionList == [.pause(fade: .seconds(10))])
        harness.clock.advance(by: .seconds(60))
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        harness.clock.advance(by: .seconds(30))
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.automaticResumes.isEmpty)
        #expect(!harness.player.isPlaying)
    }

    @Test func endedWithoutShouldResumeStaysPaused() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        try call.setActive(true)
        try call.setActive(false, notifyOthersOnDeactivation: false)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.actionList == [.pause(fade: .milliseconds(30)), .stayPaused])
        #expect(!harness.player.isPlaying)
    }

    @Test func beganWithoutEndedStaysPausedAndManualResumeIsRefusedWithReasonUntilAlarmEnds() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)

        harness.clock.advance(by: .seconds(3600))
        #expect(!harness.player.isPlaying)
        #expect(harness.automaticResumes.isEmpty)

        let refused = harness.player.play()
        guard case .refused(let reason) = refused else {
            Issue.record("play while an alarm is active should be refused, got \(refused)")
            return
        }
        #expect(reason.contains("alarm"))
        #expect(harness.actionList.last == .playRefused(reason: reason))
        #expect(!harness.player.isPlaying)

        // The alarm goes away without telling anyone: the user can play again.
        try alarm.setActive(false, notifyOthersOnDeactivation: false)
        #expect(!harness.player.isPlaying)
        #expect(harness.player.play() == .started)
        #expect(harness.actionList.last == .resume(.user))
    }

    @Test func activationIsRefusedWithCannotInterruptOthersWhileHigherNonMixableSessionIsActive() throws {
        let harness = PlayerHarness()
        let call = harness.openInterrupter(.call)
        try call.setActive(true)
        let timer = harness.openInterrupter(.timer)
        #expect(throws: SessionActivationError.cannotInterruptOthers(blockedBy: .call)) {
            try timer.setActive(true)
        }
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        #expect(alarm.isActive)
    }
}
