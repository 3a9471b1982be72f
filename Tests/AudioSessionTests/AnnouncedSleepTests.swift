import AudioSession
import InterludeCore
import Testing

/// The system announces its sleep (logind's
/// `PrepareForSleep(true)`) and its wake-up (`false`); the clock jump stays
/// the fallback and never doubles what the announcement did.
struct AnnouncedSleepTests {
    @Test func announcedSleepDeactivatesAtOnceAndTheLateBeganAfterWakeCarriesWasSuspended() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.systemWillSleep()
        #expect(!harness.arbiter.isActive(harness.player.session.id), "deactivated before the machine sleeps")
        #expect(harness.interruptionNotifications.isEmpty, "the began is late: delivered on wake-up")

        // A sleep too short for the clock-jump detection, or none at all: only the announcement says so.
        harness.clock.advance(by: .milliseconds(200))
        harness.arbiter.systemDidWake()
        let began = try #require(harness.interruptionNotifications.first)
        #expect(began.kind == .began && began.reason == .appWasSuspended && began.wasSuspended && began.source == .suspension)
        harness.clock.runDueTimers()
        let endedAt = harness.clock.monotonicNow
        let ended = try #require(harness.interruptionNotifications.last)
        #expect(ended.kind == .ended && ended.options == .shouldResume && ended.wasSuspended)
        #expect(harness.actionList.contains(.resumeScheduled(after: .seconds(1))))
        harness.clock.advance(by: .seconds(10))
        #expect(harness.automaticResumes == [endedAt + .seconds(1)], "the single delayed attempt")
    }

    @Test func clockJumpAfterAnnouncedSleepIsNotASecondSuspension() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.systemWillSleep()
        harness.clock.sleepMachine(for: .seconds(3600))
        harness.arbiter.systemDidWake()
        #expect(harness.arbiter.checkForSystemSleep() == false, "the announced sleep's jump is taken as seen")
        harness.clock.runDueTimers()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.interruptionNotifications.filter { $0.kind == .began }.count == 1)
        #expect(harness.automaticResumes.count == 1)
    }

    @Test func clockJumpSeenBeforeTheWakeAnnouncementEndsTheSleepOnce() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.systemWillSleep()
        harness.clock.sleepMachine(for: .seconds(600))
        // The loop woke on its timer before the bus delivered PrepareForSleep(false).
        #expect(harness.arbiter.checkForSystemSleep())
        #expect(!harness.arbiter.isSleepAnnounced)
        harness.clock.runDueTimers()
        harness.arbiter.systemDidWake()
        harness.clock.runDueTimers()
        harness.clock.advance(by: .seconds(10))
        let began = harness.interruptionNotifications.filter { $0.kind == .began }
        #expect(began.count == 1 && began[0].wasSuspended)
        #expect(harness.automaticResumes.count == 1)
    }

    @Test func repeatedAnnouncementsAreOneSleep() throws {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.systemWillSleep()
        harness.arbiter.systemWillSleep()
        harness.arbiter.systemDidWake()
        harness.arbiter.systemDidWake()
        harness.clock.runDueTimers()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.interruptionNotifications.map(\.kind) == [.began, .ended])
        #expect(harness.automaticResumes.count == 1)
    }

    @Test func wakeWithoutAnnouncedSleepDoesNothing() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.arbiter.systemDidWake()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.notifications.isEmpty)
        #expect(harness.arbiter.isActive(harness.player.session.id))
    }

    @Test func userPausedBeforeTheSleepMeansNoResumeAfterIt() {
        let harness = PlayerHarness()
        harness.startPlaying()
        harness.player.pause()
        harness.arbiter.systemWillSleep()
        harness.arbiter.systemDidWake()
        harness.clock.runDueTimers()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.automaticResumes.isEmpty)
    }
}
