import AudioSession
import InterludeCore
import Testing

/// Acceptance 1: every row of design.md §3.1, for music and spoken audio.
/// The expectations are written out here by hand, independently of
/// `InterruptionPolicy.standard`, so a wrong table entry fails.
struct PolicyTableTests {
    enum Expected: Sendable, CustomStringConvertible {
        /// Paused with `began(default)`, resumed when the interrupter ends with `ended(shouldResume)`.
        case pausesThenResumes
        /// Ducked to x0.2 with no interruption notification, unducked when the interrupter ends.
        case ducksThenUnducks

        var description: String {
            switch self {
            case .pausesThenResumes: "pauses, then resumes"
            case .ducksThenUnducks: "ducks, then unducks"
            }
        }
    }

    static let rows: [(PriorityClass, SessionContent, Expected)] = [
        (.alarm, .music, .pausesThenResumes),
        (.alarm, .spokenAudio, .pausesThenResumes),
        (.call, .music, .pausesThenResumes),
        (.call, .spokenAudio, .pausesThenResumes),
        (.timer, .music, .pausesThenResumes),
        (.timer, .spokenAudio, .pausesThenResumes),
        (.navigation, .music, .ducksThenUnducks),
        (.navigation, .spokenAudio, .pausesThenResumes),
        (.notification, .music, .ducksThenUnducks),
        (.notification, .spokenAudio, .ducksThenUnducks),
    ]

    @Test("interrupter class acts on the playing player as the policy table says", arguments: rows)
    func interrupterActsOnPlayerAsPolicyTableSays(interrupterClass: PriorityClass, content: SessionContent, expected: Expected) throws {
        let harness = PlayerHarness(content: content)
        harness.startPlaying()
        let interrupter = harness.openInterrupter(interrupterClass)

        try interrupter.setActive(true)
        let began = harness.clock.monotonicNow
        switch expected {
        case .pausesThenResumes:
            #expect(harness.actionList == [.pause(fade: .milliseconds(30))])
            let notification = try #require(harness.interruptionNotifications.first)
            #expect(notification.kind == .began)
            #expect(notification.reason == .default)
            #expect(notification.options.isEmpty)
            #expect(notification.wasSuspended == false)
            #expect(notification.source == .session(interrupter.id, interrupterClass))
            #expect(notification.time == began)
            #expect(!harness.player.isPlaying)
        case .ducksThenUnducks:
            #expect(harness.actionList == [.duck(gain: 0.2, ramp: .milliseconds(500))])
            #expect(harness.interruptionNotifications.isEmpty)
            #expect(harness.player.isPlaying)
        }

        harness.forgetHistory()
        harness.clock.advance(by: .seconds(20))
        try interrupter.setActive(false, notifyOthersOnDeactivation: true)
        switch expected {
        case .pausesThenResumes:
            let ended = try #require(harness.interruptionNotifications.first)
            #expect(ended.kind == .ended)
            #expect(ended.options == .shouldResume)
            #expect(ended.reason == nil)
            #expect(harness.actionList == [.resume(.automatic)])
            #expect(harness.player.isPlaying)
        case .ducksThenUnducks:
            #expect(harness.actionList == [.unduck(ramp: .milliseconds(500))])
            #expect(harness.interruptionNotifications.isEmpty)
        }
    }

    @Test("losing the output device pauses music and spoken audio with routeDisconnected and never resumes by itself",
          arguments: SessionContent.allCases)
    func outputDeviceLossPausesWithoutAutomaticResume(content: SessionContent) throws {
        let harness = PlayerHarness(content: content)
        harness.startPlaying()

        harness.arbiter.outputDeviceLost()

        #expect(harness.actionList == [.pause(fade: .milliseconds(30))])
        let began = try #require(harness.interruptionNotifications.first)
        #expect(began.kind == .began)
        #expect(began.reason == .routeDisconnected)
        #expect(began.source == .outputDeviceLost)
        harness.clock.advance(by: .seconds(600))
        #expect(harness.automaticResumes.isEmpty)
        #expect(harness.player.play() == .started)
    }

    @Test("a lower or equal priority session mixes with the player instead of interrupting it")
    func equalPriorityMediaMixes() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        let other = harness.arbiter.openSession(SessionConfiguration(priorityClass: .media))
        try other.setActive(true)
        #expect(harness.actionList.isEmpty)
        #expect(harness.notifications.isEmpty)
    }

    @Test("the standard table has one row per priority class plus suspension and device loss")
    func standardTableCoversEveryInterrupter() {
        let interrupters = InterruptionPolicy.standard.rows.map(\.interrupter)
        #expect(Set(interrupters).count == interrupters.count)
        for priorityClass in PriorityClass.allCases {
            #expect(interrupters.contains(.session(priorityClass)))
        }
        #expect(interrupters.contains(.suspension))
        #expect(interrupters.contains(.outputDeviceLost))
    }
}
