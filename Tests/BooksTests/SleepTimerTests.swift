import Books
import InterludeCore
import Testing

/// The sleep timer on a virtual clock: every callback is recorded with the
/// clock's time, so the tests read exact instants.
final class SleepTimerHarness {
    let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_764_460_800))
    let timer: SleepTimer
    private(set) var log: [String] = []

    init(fade: Duration = SleepTimer.defaultFade) {
        timer = SleepTimer(clock: clock, fade: fade)
        timer.onFadeOut = { [unowned self] length in log.append("fade \(seconds(length)) at \(now)") }
        timer.onExpired = { [unowned self] in log.append("expired at \(now)") }
    }

    var now: String { seconds(clock.monotonicNow.sinceOrigin) }

    func seconds(_ duration: Duration) -> String {
        let (whole, atto) = duration.components
        let millis = atto / 1_000_000_000_000_000
        return millis == 0 ? "\(whole)s" : "\(whole).\(String(millis).leftPadded(3))s"
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

struct SleepTimerTests {
    @Test func minutesFadeForTheLastTenSecondsAndExpireOnTime() {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(5))
        #expect(harness.timer.remaining == .seconds(300))
        harness.clock.advance(by: .seconds(289))
        #expect(harness.log.isEmpty)
        #expect(harness.timer.phase == .running)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.log == ["fade 10s at 290s"])
        #expect(harness.timer.phase == .fading)
        #expect(harness.timer.remaining == .seconds(10))
        harness.clock.advance(by: .seconds(20))
        #expect(harness.log == ["fade 10s at 290s", "expired at 300s"])
        #expect(harness.timer.phase == .expired)
        #expect(harness.timer.remaining == nil)
        #expect(harness.clock.pendingTimerCount == 0)
    }

    @Test("every offered length", arguments: SleepTimer.Setting.choices.compactMap { setting -> Int? in
        if case .minutes(let minutes) = setting { minutes } else { nil }
    })
    func everyOfferedLength(minutes: Int) {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(minutes))
        harness.clock.advance(by: .seconds(60 * minutes + 1))
        #expect(harness.log == ["fade 10s at \(60 * minutes - 10)s", "expired at \(60 * minutes)s"])
    }

    @Test func choicesAreTheUsualOnesAndTheEndOfTheChapter() {
        #expect(SleepTimer.Setting.choices == [.minutes(5), .minutes(10), .minutes(15), .minutes(30), .minutes(45), .minutes(60), .endOfChapter])
        #expect(SleepTimer.Setting(argument: "chapter") == .endOfChapter)
        #expect(SleepTimer.Setting(argument: "15") == .minutes(15))
        #expect(SleepTimer.Setting(argument: "0") == nil)
        #expect(SleepTimer.Setting(argument: "soon") == nil)
    }

    @Test func countsOnlyWhilePlaying() {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(5))
        harness.clock.advance(by: .seconds(100))
        harness.timer.playbackPaused()
        #expect(harness.timer.phase == .paused)
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.log.isEmpty)
        #expect(harness.timer.remaining == .seconds(200))
        harness.timer.playbackResumed()
        harness.clock.advance(by: .seconds(200))
        #expect(harness.log == ["fade 10s at 3890s", "expired at 3900s"])
    }

    @Test func startedWhilePausedWaitsForPlay() {
        let harness = SleepTimerHarness()
        harness.timer.start(.endOfChapter, chapterRemaining: .seconds(42), playing: false)
        harness.clock.advance(by: .seconds(100))
        #expect(harness.log.isEmpty)
        harness.timer.playbackResumed(chapterRemaining: .milliseconds(41_500))
        harness.clock.advance(by: .seconds(60))
        #expect(harness.log == ["fade 10s at 131.500s", "expired at 141.500s"])
    }

    @Test func endOfChapterFollowsTheChapterAcrossSeeks() {
        let harness = SleepTimerHarness()
        harness.timer.start(.endOfChapter, chapterRemaining: .milliseconds(42_250))
        harness.clock.advance(by: .seconds(5))
        // A skip back of 30 s: 67.25 s left in the chapter now.
        harness.timer.positionChanged(chapterRemaining: .milliseconds(67_250))
        harness.clock.advance(by: .seconds(100))
        #expect(harness.log == ["fade 10s at 62.250s", "expired at 72.250s"])
    }

    @Test func lessThanTheFadeLeftFadesOverWhatIsLeft() {
        let harness = SleepTimerHarness()
        harness.timer.start(.endOfChapter, chapterRemaining: .seconds(4))
        harness.clock.advance(by: .zero)
        #expect(harness.log == ["fade 4s at 0s"])
        harness.clock.advance(by: .seconds(4))
        #expect(harness.log == ["fade 4s at 0s", "expired at 4s"])
    }

    @Test func fadeIsNotStoppedByThePauseItCausesButAResumeTurnsTheTimerOff() {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(5))
        harness.clock.advance(by: .seconds(292))
        // The player pauses with the fade: the timer carries on to its end.
        harness.timer.playbackPaused()
        #expect(harness.timer.phase == .fading)
        harness.clock.advance(by: .seconds(8))
        #expect(harness.log.last == "expired at 300s")
        harness.timer.playbackResumed()
        #expect(harness.timer.phase == .off)
        #expect(harness.timer.setting == nil)

        let woken = SleepTimerHarness()
        woken.timer.start(.minutes(5))
        woken.clock.advance(by: .seconds(295))
        woken.timer.playbackResumed()
        woken.clock.advance(by: .seconds(60))
        #expect(woken.log == ["fade 10s at 290s"])
        #expect(woken.timer.phase == .off)
    }

    @Test func cancelStopsEverythingAndPositionChangesLeaveMinutesAlone() {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(10))
        harness.timer.positionChanged(chapterRemaining: .seconds(1))
        #expect(harness.timer.remaining == .seconds(600))
        harness.timer.cancel()
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.log.isEmpty)
        #expect(harness.clock.pendingTimerCount == 0)
        #expect(harness.timer.phase == .off)
    }

    @Test func restartingReplacesThePreviousSetting() {
        let harness = SleepTimerHarness()
        harness.timer.start(.minutes(60))
        harness.clock.advance(by: .seconds(10))
        harness.timer.start(.minutes(5))
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.log == ["fade 10s at 300s", "expired at 310s"])
    }
}
