import AudioSession
import InterludeCore
import Testing

/// Acceptance 4: the secondary-audio hint postpones the resume, event-driven.
struct SecondaryAudioHintTests {
    @Test func hintSetAtResumeTimePostponesUntilTheTickItClearsWithNoTimersInBetween() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let timer = harness.openInterrupter(.timer)
        let call = harness.openInterrupter(.call)

        // The timer pauses the player; a call comes in over the timer (the
        // player is already paused, so the call only raises its hint); the
        // timer is dismissed while the call goes on.
        try timer.setActive(true)
        try call.setActive(true)
        #expect(harness.player.session.secondaryAudioShouldBeSilencedHint)
        try timer.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.interruptionNotifications.last?.options == .shouldResume)

        #expect(harness.actionList.last == .resumePostponed)
        #expect(harness.player.pendingResume == .waitingForHintToClear)
        #expect(harness.player.automaticResumeAttempts == 0)
        #expect(harness.clock.pendingTimerCount == 0, "waiting is event-driven: no timer, no polling")
        let timersFiredBefore = harness.clock.firedTimerCount

        harness.clock.advance(by: .seconds(90))
        #expect(harness.automaticResumes.isEmpty)
        let clearedAt = harness.clock.monotonicNow
        try call.setActive(false, notifyOthersOnDeactivation: true)

        #expect(harness.automaticResumes == [clearedAt])
        #expect(harness.clock.firedTimerCount == timersFiredBefore)
        #expect(harness.player.automaticResumeAttempts == 1)
        #expect(harness.notifications.contains(.silenceSecondaryAudioHint(.init(kind: .ended, time: clearedAt))))
    }

    @Test func hintAtTheDelayedSuspendedAttemptPostponesToo() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        harness.arbiter.processWillSuspend()
        harness.arbiter.processDidContinue()
        harness.clock.runDueTimers()
        try call.setActive(true)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.actionList.last == .resumePostponed)
        #expect(harness.player.automaticResumeAttempts == 0)
        try call.setActive(false)
        #expect(harness.player.automaticResumeAttempts == 1)
        #expect(harness.player.isPlaying)
    }

    @Test func hintFollowsHigherNonMixableSessionsOnly() throws {
        let harness = PlayerHarness()
        let me = harness.player.session
        let notification = harness.openInterrupter(.notification)
        try notification.setActive(true)
        #expect(!me.secondaryAudioShouldBeSilencedHint, "a mixable notification does not silence")
        #expect(me.isOtherAudioPlaying)

        let timer = harness.openInterrupter(.timer)
        try timer.setActive(true)
        #expect(me.secondaryAudioShouldBeSilencedHint)
        #expect(harness.notifications.contains(.silenceSecondaryAudioHint(.init(kind: .began, time: harness.clock.monotonicNow))))
        try timer.setActive(false)
        try notification.setActive(false)
        #expect(!me.secondaryAudioShouldBeSilencedHint)
        #expect(!me.isOtherAudioPlaying)
    }
}
