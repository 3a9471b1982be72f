import AudioSession
import PlayerModel
import Testing
@testable import TUI

/// The banner is drawn from the session snapshot the runtime reads off the
/// player's state machine; each step below is a state that machine reaches.
struct BannerTests {
    static let alarm = InterruptionSource.session(SessionID(rawValue: 2), .alarm)
    static let call = InterruptionSource.session(SessionID(rawValue: 3), .call)

    func playing() -> SessionSnapshot { SessionSnapshot(playing: true) }

    /// Held by an interruption the player will resume from.
    func held(by source: InterruptionSource = alarm, wasSuspended: Bool = false, ended: Bool = false,
              pending: SessionSnapshot.PendingResume = .none) -> SessionSnapshot {
        SessionSnapshot(playing: false, interruption: .init(source: source, wasSuspended: wasSuspended, willResume: true,
                                                            ended: ended),
                        pendingResume: pending)
    }

    @Test("an alarm while playing shows the exact text until playback resumes")
    func alarmWhilePlaying() {
        #expect(Banner(playing()).text(now: 0, resumeKey: "space") == nil)
        #expect(Banner(held()).text(now: 2, resumeKey: "space")?.message == "audio paused, will resume after alarm")
        // Ended with shouldResume; the resume waits (here for the hint to clear).
        #expect(Banner(held(ended: true, pending: .waitingForHint)).text(now: 5, resumeKey: "space")?.message
                == "audio paused, will resume after alarm")
        #expect(Banner(playing()).text(now: 6, resumeKey: "space") == nil)
    }

    @Test("a suspended session's resume counts down, then the banner goes")
    func countdown() {
        // The alarm's began replaced the suspension's; it ended at 4 with a 1.5 s delay.
        let banner = Banner(held(wasSuspended: true, ended: true, pending: .scheduled(deadline: 5.5)))
        #expect(banner.isCountingDown)
        let text = banner.text(now: 4.2, resumeKey: "space")
        #expect(text?.message == "audio paused, will resume after alarm")
        #expect(text?.countdown == " — resuming in 1.3 s")
        #expect(banner.text(now: 5.0, resumeKey: "space")?.countdown == " — resuming in 0.5 s")
        #expect(Banner(playing()).text(now: 5.6, resumeKey: "space") == nil)
    }

    @Test("ended without shouldResume asks for space, with the reason")
    func endedWithoutShouldResume() {
        #expect(Banner(held(by: Self.call)).text(now: 1, resumeKey: "space")?.message == "audio paused, will resume after the call")
        var ended = held(by: Self.call, ended: true)
        ended.waitingForUser = .endedWithoutShouldResume(Self.call)
        #expect(Banner(ended).text(now: 3, resumeKey: "space")?.message == "audio paused — press space to resume")
        #expect(Banner(ended).text(now: 3, resumeKey: "space")?.countdown == " (the call ended without shouldResume)")
    }

    @Test("a failed attempt asks for space with the failure's reason")
    func failedAttempt() {
        #expect(Banner(held(wasSuspended: true, ended: true, pending: .scheduled(deadline: 3))).isCountingDown)
        let failed = SessionSnapshot(waitingForUser: .resumeFailed(reason: "device busy"))
        #expect(Banner(failed).text(now: 3, resumeKey: "space")?.message == Banner.pressSpaceText)
        #expect(Banner(failed).text(now: 3, resumeKey: "space")?.countdown == " (device busy)")
        #expect(Banner(playing()).text(now: 4, resumeKey: "space") == nil)
    }

    @Test("an interruption while paused expects no resume and shows nothing")
    func interruptionWhilePaused() {
        let paused = SessionSnapshot(playing: false, interruption: .init(source: Self.alarm, willResume: false))
        #expect(Banner(paused).text(now: 2, resumeKey: "space") == nil)
    }

    @Test("a lost output device asks for space")
    func deviceLost() {
        let lost = SessionSnapshot(interruption: .init(source: .outputDeviceLost, reason: .routeDisconnected, willResume: true),
                                   waitingForUser: .routeDisconnected)
        #expect(Banner(lost).text(now: 1, resumeKey: "space")?.message == Banner.pressSpaceText)
        #expect(Banner(lost).text(now: 1, resumeKey: "space")?.countdown == " (the output device was lost)")
    }
}

extension BannerTests {
    @Test("a suspended session shows the banner at once and counts down after it continues")
    func suspendedSession() {
        #expect(Banner(SessionSnapshot(playing: true, suspended: true)).text(now: 1, resumeKey: "space")?.message
                == "audio paused, will resume after the suspension")
        let continued = held(by: .suspension, wasSuspended: true, ended: true, pending: .scheduled(deadline: 4))
        #expect(Banner(continued).text(now: 3.5, resumeKey: "space")?.countdown == " — resuming in 0.5 s")
    }
}

extension BannerTests {
    @Test("when the player no longer expects to resume (the user paused meanwhile), the promise goes; a request for space stays")
    func userPausedDuringTheInterruption() {
        #expect(Banner(held()).text(now: 1, resumeKey: "space")?.message == Banner.willResumeText)
        // The user's pause cancels the automatic resume.
        let paused = SessionSnapshot(interruption: .init(source: Self.alarm, willResume: false))
        #expect(Banner(paused).text(now: 1, resumeKey: "space") == nil)
        var waiting = SessionSnapshot(interruption: .init(source: Self.call, willResume: false, ended: true))
        waiting.waitingForUser = .endedWithoutShouldResume(Self.call)
        #expect(Banner(waiting).text(now: 4, resumeKey: "space")?.message == Banner.pressSpaceText)
    }
}
