import AudioSession
import Testing

@Suite struct SmartRewindTests {
    let rewind = SmartRewind(maxRewindSeconds: 30)

    @Test(arguments: [
        // (stopped for, time in chapter, expected rewind)
        (3.0, 600.0, 2.0),            // a short alarm: the 2 s floor
        (1.0, 600.0, 1.0),            // never more than the time that passed
        (3600.0, 600.0, 30.0),        // an hour: the full maximum
        (7200.0, 600.0, 30.0),        // longer is capped at the hour
        (1800.0, 600.0, 28.125),      // half an hour: ease(0.5) = 0.9375 of 30 s
        (600.0, 600.0, 15.5324074074), // ten minutes: ease(1/6) * 30
        (3600.0, 12.0, 12.0),         // never before the chapter's start
    ])
    func rewindFollowsTheBookPlayerFormula(_ t: Double, _ inChapter: Double, _ expected: Double) {
        #expect(abs(rewind.rewind(stoppedFor: t, timeInChapter: inChapter) - expected) < 1e-6)
    }

    @Test func zeroMaximumDisablesRewind() {
        #expect(SmartRewind(maxRewindSeconds: 0).rewind(stoppedFor: 3600, timeInChapter: 600) == 0)
    }

    @Test func easeIsQuarticEaseOut() {
        #expect(SmartRewind.ease(0) == 0)
        #expect(SmartRewind.ease(1) == 1)
        #expect(abs(SmartRewind.ease(0.5) - 0.9375) < 1e-12)
    }
}
