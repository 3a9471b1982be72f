import Testing
@testable import TUI

struct BannerTests {
    func event(_ time: Double, _ name: String, _ fields: [(String, LoggedEvent.Value)] = []) -> LoggedEvent {
        LoggedEvent(time: time, name: name, fields: fields.map { (key: $0.0, value: $0.1) })
    }

    func began(_ time: Double, source: String = "alarm", wasSuspended: Bool = false) -> LoggedEvent {
        event(time, "interruption", [("type", .string("began")), ("options", .raw("[]")), ("reason", .string("default")),
                                     ("wasSuspended", .bool(wasSuspended)), ("id", .number(1)), ("source", .string(source))])
    }

    func ended(_ time: Double, shouldResume: Bool, wasSuspended: Bool = false, source: String = "alarm") -> LoggedEvent {
        event(time, "interruption", [("type", .string("ended")),
                                     ("options", .raw(shouldResume ? "[\"shouldResume\"]" : "[]")),
                                     ("reason", .null), ("wasSuspended", .bool(wasSuspended)), ("id", .number(1)),
                                     ("source", .string(source))])
    }

    @Test("an alarm while playing shows the exact text until playback resumes")
    func alarmWhilePlaying() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted", [("path", .string("/a.mp3"))]))
        #expect(banner.text(now: 0) == nil)
        banner.handle(began(1))
        banner.handle(event(1, "pauseRequested"))
        #expect(banner.text(now: 2)?.message == "audio paused, will resume after alarm")
        banner.handle(ended(5, shouldResume: true))
        #expect(banner.text(now: 5)?.message == "audio paused, will resume after alarm")
        banner.handle(event(5, "resumeRequested"))
        banner.handle(event(5.1, "resumed"))
        #expect(banner.text(now: 6) == nil)
    }

    @Test("a suspended session's resume counts down, then the banner goes")
    func countdown() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(began(1, source: "suspension", wasSuspended: true))
        banner.handle(began(2, source: "alarm", wasSuspended: true))
        banner.handle(ended(4, shouldResume: true, wasSuspended: true))
        banner.handle(event(4, "resumeScheduled", [("delay", .number(1.5))]))
        #expect(banner.isCountingDown)
        let text = banner.text(now: 4.2)
        #expect(text?.message == "audio paused, will resume after alarm")
        #expect(text?.countdown == " — resuming in 1.3 s")
        #expect(banner.text(now: 5.0)?.countdown == " — resuming in 0.5 s")
        banner.handle(event(5.5, "resumed"))
        #expect(banner.text(now: 5.6) == nil)
    }

    @Test("ended without shouldResume asks for space, with the reason")
    func endedWithoutShouldResume() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(began(1, source: "call"))
        #expect(banner.text(now: 1)?.message == "audio paused, will resume after the call")
        banner.handle(ended(3, shouldResume: false, source: "call"))
        #expect(banner.text(now: 3)?.message == "audio paused — press space to resume")
        #expect(banner.text(now: 3)?.countdown == " (the call ended without shouldResume)")
    }

    @Test("a failed attempt asks for space with the failure's reason")
    func failedAttempt() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(began(1))
        banner.handle(ended(2, shouldResume: true, wasSuspended: true))
        banner.handle(event(2, "resumeScheduled", [("delay", .number(1))]))
        banner.handle(event(3, "resumeFailed", [("reason", .string("device busy"))]))
        #expect(banner.text(now: 3)?.message == Banner.pressSpaceText)
        #expect(banner.text(now: 3)?.countdown == " (device busy)")
        banner.handle(event(4, "resumeRequested"))
        banner.handle(event(4, "resumed"))
        #expect(banner.text(now: 4) == nil)
    }

    @Test("an interruption while paused expects no resume and shows nothing")
    func interruptionWhilePaused() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(event(1, "pauseRequested"))
        banner.handle(began(2))
        #expect(banner.text(now: 2) == nil)
    }

    @Test("a lost output device asks for space")
    func deviceLost() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(event(1, "interruption", [("type", .string("began")), ("reason", .string("routeDisconnected")),
                                                ("source", .string("outputDeviceLost"))]))
        #expect(banner.text(now: 1)?.message == Banner.pressSpaceText)
    }
}

extension BannerTests {
    @Test("a suspended session shows the banner at once and counts down after it continues")
    func suspendedSession() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(event(1, "suspended"))
        #expect(banner.text(now: 1)?.message == "audio paused, will resume after the suspension")
        banner.handle(event(3, "continued"))
        banner.handle(began(3, source: "suspension", wasSuspended: true))
        banner.handle(ended(3, shouldResume: true, wasSuspended: true, source: "suspension"))
        banner.handle(event(3, "resumeScheduled", [("delay", .number(1))]))
        #expect(banner.text(now: 3.5)?.countdown == " — resuming in 0.5 s")
    }
}

extension BannerTests {
    @Test("when the player no longer expects to resume (the user paused meanwhile), the promise goes; a request for space stays")
    func reconcile() {
        var banner = Banner()
        banner.handle(event(0, "trackStarted"))
        banner.handle(began(1))
        banner.reconcile(resumeExpected: true)
        #expect(banner.text(now: 1)?.message == Banner.willResumeText)
        banner.reconcile(resumeExpected: false)
        #expect(banner.text(now: 1) == nil)
        banner.handle(event(2, "trackStarted"))
        banner.handle(began(3, source: "call"))
        banner.handle(ended(4, shouldResume: false, source: "call"))
        banner.reconcile(resumeExpected: false)
        #expect(banner.text(now: 4)?.message == Banner.pressSpaceText)
    }
}
