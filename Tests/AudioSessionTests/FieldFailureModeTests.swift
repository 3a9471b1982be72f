import AudioSession
import InterludeCore
import Testing

/// The ways audiobook and music players have failed
/// their listeners around interruptions (BookPlayer, audiobookshelf-app,
/// Voice, audio_session), each replayed against the session state machine
/// on the virtual clock.
struct FieldFailureModeTests {
    /// What the banner promises: a resume once the interruption ends (its rule
    /// in `Banner`: nothing waits for the user, and the interruption will resume).
    static func promisesResume(_ player: PlayerSession) -> Bool {
        player.waitingForUser == nil && (player.interruption?.resumeWhenEnded == true || player.pendingResume != .none)
    }

    static func refusalReason(_ outcome: PlayerSession.PlayOutcome) -> String? {
        if case .refused(let reason) = outcome { reason } else { nil }
    }

    // MARK: 1. Stuck or dead after an interruption

    @Test("an answered call (began, never ended): play says why while it lasts, plays once it is gone")
    func beganWithoutEnded() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        try call.setActive(true)
        harness.clock.advance(by: .seconds(2 * 3600))
        let reason = try #require(Self.refusalReason(harness.player.play()))
        #expect(reason.contains("call"), "\(reason)")
        #expect(!harness.player.isPlaying && harness.automaticResumes.isEmpty)
        // The call app goes away without a word.
        try call.setActive(false)
        #expect(harness.player.play() == .started)
        #expect(harness.actionList.last == .resume(.user))
    }

    @Test("ended without shouldResume: stays paused, says so, and the very next play works")
    func endedWithoutShouldResume() throws {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        #expect(Self.refusalReason(harness.player.play())?.contains("alarm") == true)
        try alarm.setActive(false, notifyOthersOnDeactivation: false)
        harness.clock.advance(by: .seconds(600))
        #expect(harness.actionList.last == .stayPaused)
        #expect(harness.player.waitingForUser == .endedWithoutShouldResume(.session(alarm.id, .alarm)))
        #expect(!Self.promisesResume(harness.player))
        #expect(harness.player.play() == .started)
        #expect(harness.player.waitingForUser == nil)
    }

    @Test("a resume attempt that fails: paused with the reason, never retried, the next play works")
    func failedResume() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.automaticResumes.count == 1)
        harness.player.resumeDidFail(reason: "cannot open device 'default': Device or resource busy")
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.automaticResumes.count == 1, "retried by itself")
        #expect(!harness.player.isPlaying && !Self.promisesResume(harness.player))
        #expect(harness.player.play() == .started)
    }

    // MARK: 2. Resuming what the listener stopped

    /// After the listener's own stop, a series of alarms, snoozes and calls: never
    /// an automatic resume, and never a promise of one.
    func neverResumes(after stop: (PlayerHarness) throws -> Void) throws {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        try stop(harness)
        let resumesBefore = harness.automaticResumes.count
        let alarm = harness.openInterrupter(.alarm)
        let call = harness.openInterrupter(.call)
        let steps: [() throws -> Void] = [
            { try alarm.setActive(true) },
            { try alarm.setActive(false, notifyOthersOnDeactivation: true) },  // snooze
            { harness.clock.advance(by: .seconds(9 * 60)) },
            { try alarm.setActive(true) },                                    // the snooze ends
            { try alarm.setActive(false, notifyOthersOnDeactivation: true) },  // dismissed
            { try call.setActive(true) },
            { harness.clock.advance(by: .seconds(120)) },
            { try call.setActive(false, notifyOthersOnDeactivation: true) },
            { harness.clock.advance(by: .seconds(60)) },
        ]
        for (index, step) in steps.enumerated() {
            try step()
            #expect(!harness.player.isPlaying, "step \(index): playing again")
            #expect(!Self.promisesResume(harness.player), "step \(index): the banner promises a resume")
        }
        #expect(harness.automaticResumes.count == resumesBefore)
    }

    @Test("a sleep-timer pause, then alarms, a snooze and a call: no automatic resume (audiobookshelf-app #369)")
    func sleepTimerPause() throws {
        try neverResumes { $0.player.pause(fade: .seconds(10)) }
    }

    @Test("a pause during an alarm, then snoozes and a call: no automatic resume")
    func userPauseDuringAlarm() throws {
        try neverResumes { harness in
            let first = harness.openInterrupter(.alarm)
            try first.setActive(true)
            harness.player.pause()
            try first.setActive(false, notifyOthersOnDeactivation: true)
        }
    }

    @Test("a pause after a snooze: the snoozed alarm's end does not resume")
    func pauseAfterSnooze() throws {
        try neverResumes { harness in
            let first = harness.openInterrupter(.alarm)
            try first.setActive(true)
            try first.setActive(false, notifyOthersOnDeactivation: true)  // snooze: resumes, as it should
            #expect(harness.player.isPlaying)
            harness.player.pause()
        }
    }

    @Test("headphones or the device lost, then alarms, a snooze and a call: no automatic resume")
    func deviceLoss() throws {
        try neverResumes { $0.arbiter.outputDeviceLost() }
    }

    // MARK: 3. Stale notifications

    /// With a real Ctrl-Z no key is read while the process is stopped, and
    /// `fg` delivers the late `began` before the loop reads keys again
    /// (`PlayerRuntime.jobControlStop`); the screen's `s` keeps reading keys,
    /// so space can come while suspended: it must neither start sound under
    /// the suspension nor add a second resume after it.
    @Test("s, space, s: space while suspended starts nothing; continuing resumes exactly once")
    func spaceWhileSuspended() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.processWillSuspend()
        _ = harness.player.play()
        #expect(harness.actionList.isEmpty, "\(harness.actionList)")
        harness.arbiter.processDidContinue()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.player.isPlaying)
        #expect(harness.actionList == [.pause(fade: .milliseconds(30)), .resumeScheduled(after: .seconds(1)), .resume(.automatic)],
                "\(harness.actionList)")
    }

    @Test("Ctrl-Z, fg and space at once: the late began first, then space: plays once, no second resume")
    func lateBeganThenSpace() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.processWillSuspend()
        harness.arbiter.processDidContinue()
        #expect(harness.interruptionNotifications.map(\.wasSuspended) == [true])
        #expect(harness.player.play() == .started)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.player.isPlaying)
        #expect(harness.automaticResumes.isEmpty, "an automatic resume after the user's play")
        #expect(harness.actionList.filter { if case .pause = $0 { true } else { false } }.count == 1)
    }

    @Test("s, s, space: the suspension's scheduled resume never fires after the user's play")
    func suspendContinueSpace() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.processWillSuspend()
        harness.arbiter.processDidContinue()
        harness.clock.runDueTimers()
        #expect(harness.actionList.last == .resumeScheduled(after: .seconds(1)))
        #expect(harness.player.play() == .started)
        harness.clock.advance(by: .seconds(5))
        #expect(harness.automaticResumes.isEmpty)
        #expect(harness.player.isPlaying)
        #expect(harness.actionList.filter { $0 == .resume(.user) }.count == 1)
    }

    @Test("a device event after the user's play does not pause it again")
    func deviceLossThenPlay() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.outputDeviceLost()
        #expect(harness.player.play() == .started)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.player.isPlaying)
        #expect(harness.actionList.last == .resume(.user))
    }

    // MARK: 4. Nested and stacked interruptions

    @Test("a call with an alarm inside, ending in either order: one resume, after the last", arguments: [true, false])
    func callWithAlarmInside(alarmEndsFirst: Bool) throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        let alarm = harness.openInterrupter(.alarm)
        try call.setActive(true)
        harness.clock.advance(by: .seconds(10))
        try alarm.setActive(true)
        harness.clock.advance(by: .seconds(10))
        let (first, last) = alarmEndsFirst ? (alarm, call) : (call, alarm)
        try first.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.automaticResumes.isEmpty, "resumed while \(alarmEndsFirst ? "the call" : "the alarm") still sounds")
        #expect(!harness.player.isPlaying)
        let lastEnd = harness.clock.monotonicNow
        try last.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.automaticResumes == [lastEnd])
        #expect(harness.player.isPlaying)
    }

    @Test("a call with an alarm inside where the call ends without shouldResume: no resume at all")
    func nestedOneForbids() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        let alarm = harness.openInterrupter(.alarm)
        try call.setActive(true)
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        try call.setActive(false, notifyOthersOnDeactivation: false)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.automaticResumes.isEmpty)
        #expect(!harness.player.isPlaying)
    }

    @Test("an alarm during a notification's duck: the notification's end releases the duck, the alarm's end resumes once")
    func alarmDuringDuck() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let chime = harness.openInterrupter(.notification)
        let alarm = harness.openInterrupter(.alarm)
        try chime.setActive(true)
        #expect(harness.actionList.last.map { if case .duck = $0 { true } else { false } } == true)
        try alarm.setActive(true)
        harness.clock.advance(by: .seconds(3600))
        #expect(!harness.actionList.contains { if case .unduck = $0 { true } else { false } }, "unducked by time")
        try chime.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.actionList.last.map { if case .unduck = $0 { true } else { false } } == true)
        #expect(harness.automaticResumes.isEmpty)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.automaticResumes.count == 1)
        #expect(harness.player.isPlaying)
    }

    @Test("two notifications overlapping: ducked once, released only when the second ends, never by a timer")
    func overlappingNotifications() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let first = harness.openInterrupter(.notification)
        let second = harness.openInterrupter(.notification)
        try first.setActive(true)
        harness.clock.advance(by: .seconds(1))
        try second.setActive(true)
        harness.clock.advance(by: .seconds(600))
        try first.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(600))
        let unducks = { harness.actionList.filter { if case .unduck = $0 { true } else { false } }.count }
        #expect(unducks() == 0, "\(harness.actionList)")
        try second.setActive(false, notifyOthersOnDeactivation: true)
        #expect(unducks() == 1)
        #expect(harness.player.isPlaying && harness.automaticResumes.isEmpty)
    }

    @Test("an alarm snoozed three times during a call: one resume, after the call ends")
    func alarmSnoozedThriceDuringACall() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let call = harness.openInterrupter(.call)
        let alarm = harness.openInterrupter(.alarm)
        try call.setActive(true)
        for _ in 0..<3 {
            try alarm.setActive(true)
            harness.clock.advance(by: .seconds(20))
            try alarm.setActive(false, notifyOthersOnDeactivation: true)
            harness.clock.advance(by: .seconds(9 * 60))
            #expect(harness.automaticResumes.isEmpty && !harness.player.isPlaying)
            #expect(Self.promisesResume(harness.player))
        }
        try alarm.setActive(true)
        try alarm.setActive(false, notifyOthersOnDeactivation: true)  // dismissed
        let callEnd = harness.clock.monotonicNow
        try call.setActive(false, notifyOthersOnDeactivation: true)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.automaticResumes == [callEnd])
    }
}
