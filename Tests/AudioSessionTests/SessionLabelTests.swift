import AudioSession
import InterludeCore
import Testing

/// A session may stand for another program (a desktop stream, by its
/// `application.name`): its label rides on the notifications it causes and
/// changes nothing the arbiter decides.
@Suite struct SessionLabelTests {
    @Test func aLabelledCallsBeganAndEndedCarryItsLabel() {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        let call = harness.arbiter.openSession(SessionConfiguration(priorityClass: .call, label: "paplay"))
        try? call.setActive(true)
        try? call.setActive(false, notifyOthersOnDeactivation: true)
        let notifications = harness.interruptionNotifications
        #expect(notifications.map(\.kind) == [.began, .ended])
        #expect(notifications.allSatisfy { $0.sourceLabel == "paplay" })
        #expect(notifications.allSatisfy { $0.source == .session(call.id, .call) })
        #expect(notifications.last?.options == .shouldResume)
        #expect(harness.automaticResumes.count == 1)
    }

    @Test func anUnlabelledSessionCarriesNoLabel() {
        let harness = PlayerHarness()
        harness.startPlaying()
        let alarm = harness.openInterrupter(.alarm)
        try? alarm.setActive(true)
        try? alarm.setActive(false, notifyOthersOnDeactivation: true)
        #expect(harness.interruptionNotifications.count == 2)
        #expect(harness.interruptionNotifications.allSatisfy { $0.sourceLabel == nil })
    }

    @Test func aLabelledDuckCarriesItsLabelOnBothEnds() {
        let harness = PlayerHarness(content: .music)
        harness.startPlaying()
        let chime = harness.arbiter.openSession(SessionConfiguration(category: .ambient, options: [.duckOthers],
                                                                     priorityClass: .notification, label: "notify-send"))
        try? chime.setActive(true)
        harness.arbiter.closeSession(chime.id)
        let ducks = harness.notifications.compactMap { if case .ducking(let n) = $0 { n } else { nil } }
        #expect(ducks.map(\.kind) == [.began, .ended])
        #expect(ducks.allSatisfy { $0.sourceLabel == "notify-send" })
    }

    /// Two programs' streams overlapping (a call, an alarm inside it), closed
    /// in either order a virtual second apart: one automatic resume, after the last.
    @Test("stacked labelled sessions resume once, after the last", arguments: [true, false])
    func stackedLabelledSessionsResumeOnceAfterTheLast(innerEndsFirst: Bool) {
        let harness = PlayerHarness(content: .spokenAudio)
        harness.startPlaying()
        let call = harness.arbiter.openSession(SessionConfiguration(priorityClass: .call, label: "browser"))
        try? call.setActive(true)
        harness.clock.advance(by: .seconds(1))
        let alarm = harness.arbiter.openSession(SessionConfiguration(priorityClass: .alarm, label: "clock"))
        try? alarm.setActive(true)
        harness.clock.advance(by: .seconds(1))
        let (first, second) = innerEndsFirst ? (alarm, call) : (call, alarm)
        try? first.setActive(false, notifyOthersOnDeactivation: true)
        harness.arbiter.closeSession(first.id)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.automaticResumes.isEmpty)
        let lastEnd = harness.clock.monotonicNow
        try? second.setActive(false, notifyOthersOnDeactivation: true)
        harness.arbiter.closeSession(second.id)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.automaticResumes == [lastEnd])
    }
}
