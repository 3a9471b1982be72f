import AudioSession
import InterludeCore
import Testing

/// What the user chooses to play during an interruption (a book
/// while an alarm rings over music) waits for it and plays as the policy
/// resumes; with nothing holding the player it plays at once.
struct PlayWhenAllowedTests {
    @Test("chosen while an alarm holds the player, paused by the user before it: it plays when the alarm ends")
    func chosenDuringAnAlarmPlaysWhenItEnds() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.player.pause()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        #expect(harness.player.interruption?.resumeWhenEnded == false)
        #expect(harness.player.interruptionHoldsPlay)
        harness.forgetHistory()

        #expect(harness.player.playWhenAllowed() == .started)
        #expect(!harness.player.isPlaying)
        #expect(harness.actionList.isEmpty)
        #expect(harness.player.interruption?.resumeWhenEnded == true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.actionList == [.resume(.automatic)])
        #expect(harness.player.isPlaying)
        #expect(harness.player.automaticResumeAttempts == 1)
    }

    @Test("with nothing holding the player it is the user's play")
    func withNothingHoldingItPlaysAtOnce() {
        let harness = PlayerHarness()
        #expect(!harness.player.interruptionHoldsPlay)
        #expect(harness.player.playWhenAllowed() == .started)
        #expect(harness.actionList == [.resume(.user)])
    }

    @Test("a lost route does not hold it: the user's play tries the device, and nothing resumes by itself")
    func aLostRouteDoesNotHold() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.outputDeviceLost()
        #expect(!harness.player.interruptionHoldsPlay)
        harness.forgetHistory()
        harness.player.playWhenAllowed()
        #expect(harness.actionList == [.resume(.user)])
    }

    @Test("a navigation prompt pauses spoken audio; switched to music, the same prompt ducks it instead")
    func contentFollowsWhatPlays() throws {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        let prompt = harness.openInterrupter(.navigation)
        try prompt.setActive(true)
        #expect(harness.actionList.contains { if case .pause = $0 { true } else { false } })
        try prompt.setActive(false, notifyOthersOnDeactivation: true)
        harness.forgetHistory()

        harness.player.setContent(.music)
        #expect(harness.player.session.configuration.mode == .default)
        try prompt.setActive(true)
        #expect(harness.actionList.contains { if case .duck = $0 { true } else { false } })
        #expect(!harness.actionList.contains { if case .pause = $0 { true } else { false } })
        #expect(harness.player.duckGain != nil)
    }

    @Test("after setSink the actions go to the new sink only")
    func actionsGoToTheNewSink() {
        let first = PlayerHarness()
        let second = PlayerHarness()
        first.startPlaying()
        first.player.setSink(second)
        first.player.pause()
        #expect(first.actionList.isEmpty)
        #expect(second.actionList.contains { if case .pause = $0 { true } else { false } })
    }
}
