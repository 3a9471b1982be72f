import Alarms
import AudioSession
import FoundationEssentials
import InterludeCore
import Testing

/// Acceptance 7 and the alarm half of 2: coalescing, joining, snooze, timeout.
struct RingingTests {
    // 2025-06-16 is a Monday; 04:00Z is 06:00 in Berlin (CEST).
    static let start = "2025-06-16T04:00:00Z"

    @Test func twoAlarmsDueTogetherGiveOneInterruption() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let first = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        let second = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0)) { $0.label = "pills" }

        harness.clock.advance(by: .seconds(3599))
        #expect(harness.began.isEmpty, "not before 07:00")
        harness.clock.advance(by: .seconds(1))
        #expect(harness.ringingBegan() == [[first.id, second.id]])
        #expect(harness.began.count == 1)
        #expect(harness.began.first?.reason == .default)
        #expect(harness.began.first?.wasSuspended == false)
        #expect(harness.actions == [.pause(fade: .milliseconds(30))])

        harness.scheduler.dismiss()
        #expect(harness.ended.count == 1)
        #expect(harness.ended.first?.options == .shouldResume)
        #expect(harness.actions.last == .resume(.automatic))
        #expect(harness.player.automaticResumeAttempts == 1)
    }

    /// Ringing starts the alarm's sound before its session interrupts the
    /// player: the player's pause, which goes to the output at once, finds the
    /// sound there already.
    @Test func theSoundStartsBeforeTheSessionPausesThePlayer() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        var sounded: [(ids: [AlarmID], actionsBefore: Int)] = []
        harness.scheduler.onSound = { ids in sounded.append((ids, harness.actions.count)) }
        harness.clock.advance(by: .seconds(3600))
        #expect(sounded.map(\.ids) == [[alarm.id]])
        #expect(sounded.map(\.actionsBefore) == [0], "the player paused before the sound started")
        #expect(harness.actions == [.pause(fade: .milliseconds(30))])
    }

    /// The due alarm rings first, from the fire its plan computed: the
    /// player's pause comes before the fire is marked handled (and before the
    /// next fire is computed, the file saved and the next timer armed), and
    /// that bookkeeping follows in the same turn.
    @Test func theAlarmRingsBeforeItsBookkeeping() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: Self.start, stateDirectory: directory)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily))
        let fire = try #require(harness.scheduler.nextFire(of: alarm.id))
        var handledAtPause: [Int64] = []
        harness.onAction = { action in
            if case .pause = action {
                handledAtPause += harness.scheduler.alarms.map(\.handledThrough)
            }
        }
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.ringingBegan() == [[alarm.id]])
        #expect(handledAtPause == [alarm.handledThrough], "the fire was marked handled before the pause")
        #expect(harness.scheduler.alarms.map(\.handledThrough) == [fire])
        #expect(harness.scheduler.nextFire(of: alarm.id) == fire + 86_400)
        let saved = AlarmStore(stateDirectory: directory).load(now: harness.clock.wallNow).contents.alarms
        #expect(saved.map(\.handledThrough) == [fire], "saved in the same turn")
    }

    @Test func secondAlarmWhileRingingJoinsTheSameInterruption() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let first = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        let second = harness.scheduler.add(schedule: .relative(firesAt: harness.inSeconds(3600 + 20)))

        harness.clock.advance(by: .seconds(3600 + 30))
        #expect(harness.events.contains(.ringingJoined(second.id)))
        #expect(harness.scheduler.ringing?.alarmIDs == [first.id, second.id])
        #expect(harness.began.count == 1)
        #expect(harness.ended.isEmpty, "no pause/resume flapping")
        // The joined alarm extends the ring: the timeout counts from when it joined.
        harness.clock.advance(by: .seconds(45))
        #expect(harness.ended.isEmpty)
        harness.clock.advance(by: .seconds(5))
        #expect(harness.ended.count == 1)
    }

    @Test func snoozeEndsWithShouldResumeAndBeginsAgainAfterTheSnooze() throws {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0)) { $0.snoozeMinutes = 5 }
        harness.clock.advance(by: .seconds(3600 + 10))
        let snoozedAt = harness.clock.monotonicNow
        harness.scheduler.snooze()

        #expect(harness.ended.count == 1)
        #expect(harness.ended.first?.options == .shouldResume)
        #expect(harness.player.isPlaying)
        harness.clock.advance(by: .seconds(299))
        #expect(harness.began.count == 1)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.began.count == 2)
        #expect(harness.interruptions.last?.time == snoozedAt + .seconds(300))
        #expect(!harness.player.isPlaying)
    }

    @Test func ringTimeoutEndsTheInterruptionWithShouldResume() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        harness.clock.advance(by: .seconds(3600))
        let rangAt = harness.clock.monotonicNow
        harness.clock.advance(by: .seconds(59))
        #expect(harness.ended.isEmpty)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.events.last == .ringingEnded(.timedOut))
        #expect(harness.ended.first?.options == .shouldResume)
        #expect(harness.interruptions.last?.time == rangAt + .seconds(60))
        #expect(harness.player.isPlaying)
        #expect(harness.scheduler.alarms.first { $0.id == alarm.id }?.isEnabled == false, "a one-time alarm is done")
    }

    @Test func repeatingAlarmRingsAgainNextDayAndStaysEnabled() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily))
        harness.clock.advance(by: .seconds(3600))
        harness.scheduler.dismiss()
        harness.clock.advance(by: .seconds(86_400 - 1))
        #expect(harness.ringingBegan().count == 1)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.ringingBegan().count == 2)
        #expect(harness.scheduler.alarms.first { $0.id == alarm.id }?.isEnabled == true)
    }

    @Test func relativeAlarmIgnoresWallClockSteps() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        harness.scheduler.add(schedule: .relative(firesAt: harness.inSeconds(90)))
        harness.clock.advance(by: .seconds(30))
        harness.clock.stepWallClock(by: .seconds(-7200))
        harness.scheduler.wallClockDidChange()
        harness.clock.advance(by: .seconds(59))
        #expect(harness.began.isEmpty)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.began.count == 1)
    }

    @Test func relativeAlarmRingsOnItsExactMonotonicDeadlineWhenTheWallClockIsMidSecond() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        // Mid-second: a deadline kept in whole wall seconds would ring 0.7 s early.
        harness.clock.advance(by: .milliseconds(700))
        harness.scheduler.add(after: .seconds(4))
        harness.clock.advance(by: .milliseconds(3999))
        #expect(harness.began.isEmpty)
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.began.count == 1)
    }

    @Test func subSecondRelativeAlarmDoesNotRingAtOnceWhenItsWholeSecondIsAlreadyPast() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        // At X.2 s, half a second ahead is X.7 s: its whole second X has already begun.
        harness.clock.advance(by: .milliseconds(200))
        harness.scheduler.add(after: .milliseconds(500))
        #expect(harness.began.isEmpty)
        harness.clock.advance(by: .milliseconds(499))
        #expect(harness.began.isEmpty)
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.began.count == 1)
    }

    /// Editing an alarm's time keeps the alarm: its id, label and snooze
    /// length stay, it rings at the new time and not at the old one.
    @Test func rescheduledAlarmKeepsItselfAndRingsAtTheNewTimeOnly() {
        let harness = AlarmHarness(startUTC: Self.start)  // 06:00 in Berlin
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0)) { $0.label = "wake"; $0.snoozeMinutes = 7 }
        #expect(harness.scheduler.reschedule(alarm.id, to: AlarmHarness.clockTime(6, 30)))
        #expect(harness.scheduler.alarms.map(\.id) == [alarm.id])
        let edited = harness.scheduler.alarms.first
        #expect(edited?.label == "wake" && edited?.snoozeMinutes == 7)
        harness.clock.advance(by: .seconds(1799))
        #expect(harness.began.isEmpty)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.ringingBegan() == [[alarm.id]])
        harness.scheduler.dismiss()
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.ringingBegan().count == 1, "rang at the old time too")

        // It rang once, so it is off; a new time turns it on again. To a relative
        // time: exactly that long from now, on the monotonic clock.
        #expect(harness.scheduler.alarms.first?.isEnabled == false)
        #expect(harness.scheduler.reschedule(alarm.id, to: .relative(firesAt: harness.inSeconds(90))))
        harness.clock.advance(by: .seconds(89))
        #expect(harness.ringingBegan().count == 1)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.ringingBegan().count == 2)
        #expect(harness.scheduler.alarms.count == 1)
        #expect(!harness.scheduler.reschedule(AlarmID(rawValue: 99), to: AlarmHarness.clockTime(8, 0)))
    }

    @Test func disabledAlarmDoesNotRing() {
        let harness = AlarmHarness(startUTC: Self.start)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        harness.scheduler.setEnabled(alarm.id, false)
        harness.clock.advance(by: .seconds(7200))
        #expect(harness.began.isEmpty)
        #expect(harness.scheduler.nextFire(of: alarm.id) == nil)
    }
}
