import AudioSession
import InterludeCore
import Testing

/// The media's pause on the virtual clock: the phases a pause and a resume
/// go through, the one due resume they hand over, and how long the media was
/// stopped (smart rewind's input), in milliseconds of test time.
struct MediaPauseTests {
    static func clock() -> VirtualClock { VirtualClock(wall: WallInstant(secondsSince1970: 1_800_000_000)) }

    @Test("a pause fades, stops; a resume asked for while stopped is due once, with the time stopped")
    func pauseThenResume() {
        let clock = Self.clock()
        let pause = MediaPause(clock: clock)
        #expect(pause.phase == .playing)
        #expect(pause.pauseRequested() == .fade(aimedAt: nil))
        #expect(pause.phase == .fading)
        clock.advance(by: .milliseconds(30))
        pause.mediaStopped()
        #expect(pause.phase == .stopped(since: clock.monotonicNow))
        // Asked again while stopped: nothing to tell the media.
        #expect(pause.pauseRequested() == .none)
        #expect(pause.takeResume(stopFrameKnown: true) == nil, "no resume was asked for")
        clock.advance(by: .seconds(90))
        pause.resumeRequested()
        #expect(pause.takeResume(stopFrameKnown: false) == nil, "the engine does not know its stop frame yet")
        #expect(pause.takeResume(stopFrameKnown: true) == .stopFrame(stoppedFor: .seconds(90), nothingHeardYet: false))
        #expect(pause.phase == .playing)
        #expect(pause.takeResume(stopFrameKnown: true) == nil, "handed over once")
    }

    @Test("a resume during the fade takes it back unless a jump waits; then it waits for the stop and goes to the jump")
    func resumeDuringTheFade() {
        let clock = Self.clock()
        let pause = MediaPause(clock: clock)
        _ = pause.pauseRequested()
        #expect(pause.fadeCanBeTakenBack)
        pause.fadeTakenBack()
        #expect(pause.phase == .playing && !pause.resumeWaitsForStop)

        _ = pause.pauseRequested()
        #expect(pause.jumpsAtOnce, "fading with no resume waiting: a jump still goes at once")
        pause.jumpAtResume(toQueueIndex: 2, offsetFrames: 441)
        #expect(!pause.fadeCanBeTakenBack)
        pause.resumeRequested()
        #expect(!pause.jumpsAtOnce)
        #expect(pause.takeResume(stopFrameKnown: true) == nil, "still fading")
        clock.advance(by: .milliseconds(25))
        pause.mediaStopped()
        #expect(pause.takeResume(stopFrameKnown: true) == .jump(.init(queueIndex: 2, offsetFrames: 441)))
        #expect(pause.pendingJump == nil && pause.phase == .playing)
    }

    @Test("a pause asked for calls off a resume that waited for the stop")
    func pauseCallsOffAWaitingResume() {
        let pause = MediaPause(clock: Self.clock())
        _ = pause.pauseRequested()
        pause.resumeRequested()
        #expect(pause.pauseRequested() == .fade(aimedAt: nil))
        pause.mediaStopped()
        #expect(pause.takeResume(stopFrameKnown: true) == nil)
        #expect(!pause.jumpsAtOnce, "stopped: a jump waits for the resume")
    }

    @Test("nothing heard yet (held before the first frame, or the first output opened at play): the first resume has no rewind, later ones do")
    func nothingHeardYet() {
        let clock = Self.clock()
        let held = MediaPause(clock: clock)
        held.holdBeforeFirstFrame()
        #expect(held.phase == .fading && held.nothingHeardYet)
        held.mediaStopped()
        clock.advance(by: .seconds(5))
        held.resumeRequested()
        #expect(held.takeResume(stopFrameKnown: true) == .stopFrame(stoppedFor: .seconds(5), nothingHeardYet: true))
        _ = held.pauseRequested()
        held.mediaStopped()
        clock.advance(by: .seconds(2))
        held.resumeRequested()
        #expect(held.takeResume(stopFrameKnown: true) == .stopFrame(stoppedFor: .seconds(2), nothingHeardYet: false))

        let opened = MediaPause(clock: clock)
        opened.firstOutputOpened()
        #expect(opened.isStopped && opened.nothingHeardYet)
        opened.resumeRequested()
        #expect(opened.takeResume(stopFrameKnown: true) == .stopFrame(stoppedFor: .zero, nothingHeardYet: true))
    }

    @Test("an aim is taken by the next pause only; one no pause took (stopped already) is forgotten when taken back")
    func aims() {
        let pause = MediaPause(clock: Self.clock())
        pause.aimNextPause(endingAtStreamFrame: 88200)
        #expect(pause.pauseRequested() == .fade(aimedAt: 88200))
        #expect(pause.nextPauseAim == nil)
        pause.mediaStopped()
        pause.aimNextPause(endingAtStreamFrame: 132300)
        #expect(pause.pauseRequested() == .none)
        pause.cancelPauseAim()
        pause.resumeRequested()
        _ = pause.takeResume(stopFrameKnown: true)
        #expect(pause.pauseRequested() == .fade(aimedAt: nil), "a later pause inherits no aim")
    }
}
