import AudioSession
import InterludeCore
import Testing

/// Acceptance 3 (and the suspension half of build item 5): the suspended
/// path makes one delayed attempt and never retries by itself.
struct SuspendedResumeTests {
    /// Suspends and continues the process, returning when `ended` arrived.
    private func suspendAndContinue(_ harness: PlayerHarness) -> MonotonicInstant {
        harness.arbiter.processWillSuspend()
        harness.clock.advance(by: .seconds(30))
        harness.arbiter.processDidContinue()
        harness.clock.runDueTimers()
        return harness.clock.monotonicNow
    }

    @Test func suspendedInterruptionBeginsLateWithAppWasSuspendedAndEndsWithShouldResume() throws {
        let harness = PlayerHarness()
        harness.startPlaying()

        harness.arbiter.processWillSuspend()
        #expect(harness.interruptionNotifications.isEmpty, "the began is late: delivered on continue")
        harness.clock.advance(by: .seconds(30))
        harness.arbiter.processDidContinue()

        let began = try #require(harness.interruptionNotifications.first)
        #expect(began.kind == .began)
        #expect(began.reason == .appWasSuspended)
        #expect(began.wasSuspended)
        #expect(began.source == .suspension)
        harness.clock.runDueTimers()
        let ended = try #require(harness.interruptionNotifications.last)
        #expect(ended.kind == .ended)
        #expect(ended.options == .shouldResume)
        #expect(ended.wasSuspended)
        #expect(ended.interruptionID == began.interruptionID)
    }

    @Test func suspendedPathMakesOneAttemptExactlyAtTheConfiguredDelay() {
        let harness = PlayerHarness()
        harness.startPlaying()
        let endedAt = suspendAndContinue(harness)

        #expect(harness.actionList.contains(.resumeScheduled(after: .seconds(1))))
        harness.clock.advance(by: .milliseconds(999))
        #expect(harness.player.automaticResumeAttempts == 0, "not before the delay")
        #expect(harness.automaticResumes.isEmpty)
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.automaticResumes == [endedAt + .seconds(1)])
        #expect(harness.player.automaticResumeAttempts == 1)
    }

    @Test func configuredSuspendedDelayIsUsedAndClampedToTheAllowedRange() {
        let harness = PlayerHarness(settings: ResumeSettings(suspendedResumeDelay: .milliseconds(250)))
        harness.startPlaying()
        let endedAt = suspendAndContinue(harness)
        harness.clock.advance(by: .seconds(2))
        #expect(harness.automaticResumes == [endedAt + .milliseconds(250)])

        #expect(ResumeSettings(suspendedResumeDelay: .milliseconds(10)).suspendedResumeDelay == .milliseconds(100))
        #expect(ResumeSettings(suspendedResumeDelay: .seconds(60)).suspendedResumeDelay == .seconds(5))
    }

    @Test func failedSuspendedResumeIsNeverRetriedAutomaticallyAndUserPlayResumes() {
        let harness = PlayerHarness()
        harness.startPlaying()
        _ = suspendAndContinue(harness)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.player.automaticResumeAttempts == 1)

        // The engine could not reopen the device for that attempt.
        harness.player.resumeDidFail(reason: "cannot open ALSA device 'pulse'")
        #expect(harness.actionList.last == .resumeFailed(reason: "cannot open ALSA device 'pulse'"))
        #expect(!harness.player.isPlaying)
        #expect(!harness.player.session.isActive)

        harness.clock.advance(by: .seconds(60))
        #expect(harness.player.automaticResumeAttempts == 1)
        #expect(harness.player.totalAutomaticResumeAttempts == 1)
        #expect(harness.automaticResumes.count == 1)
        #expect(harness.clock.pendingTimerCount == 0, "nothing is left waiting to retry")

        #expect(harness.player.play() == .started)
        #expect(harness.actionList.last == .resume(.user))
    }

    @Test func userPauseCancelsTheScheduledSuspendedResume() {
        let harness = PlayerHarness()
        harness.startPlaying()
        _ = suspendAndContinue(harness)
        harness.clock.advance(by: .milliseconds(500))
        harness.player.pause()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.automaticResumes.isEmpty)
        #expect(harness.player.automaticResumeAttempts == 0)
    }

    @Test func userPlayDuringTheDelayResumesOnceAndCancelsTheAutomaticAttempt() {
        let harness = PlayerHarness()
        harness.startPlaying()
        _ = suspendAndContinue(harness)
        harness.clock.advance(by: .milliseconds(300))
        #expect(harness.player.play() == .started)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.actionList.filter { if case .resume = $0 { true } else { false } } == [.resume(.user)])
    }

    @Test func systemSleepDetectedFromBootTimeJumpGivesTheSuspendedPath() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        #expect(harness.arbiter.checkForSystemSleep() == false)

        harness.clock.sleepMachine(for: .seconds(3600))
        #expect(harness.arbiter.checkForSystemSleep())
        let began = try #require(harness.interruptionNotifications.first)
        #expect(began.reason == .appWasSuspended)
        #expect(began.wasSuspended)
        harness.clock.runDueTimers()
        let endedAt = harness.clock.monotonicNow
        harness.clock.advance(by: .seconds(5))
        #expect(harness.automaticResumes == [endedAt + .seconds(1)])
        #expect(harness.arbiter.checkForSystemSleep() == false, "the same jump is reported once")
    }

    @Test func wallClockStepIsNotMistakenForSystemSleep() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.clock.stepWallClock(by: .seconds(7200))
        #expect(harness.arbiter.checkForSystemSleep() == false)
        #expect(harness.notifications.isEmpty)
    }
}
