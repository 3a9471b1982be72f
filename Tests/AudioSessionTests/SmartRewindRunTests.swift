import AudioSession
import InterludeCore
import Testing

/// A failure other players shipped (Voice #264, #618; audiobookshelf-app
/// #182, #503): twenty short interruptions of a book in a row must not add up their smart
/// rewinds. Time passes on the virtual clock; positions are frames at 44.1 kHz.
struct SmartRewindRunTests {
    static let rate = 44100
    static func frames(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }

    /// Listens `listen` seconds from each resume, is interrupted for `away`
    /// seconds, twenty times; returns the resume targets and the furthest frame heard.
    static func twentyInterruptions(listen: Double, away: Double, start: Int = frames(600))
        -> (targets: [Int], furthest: Int, totalAway: Double) {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_800_000_000))
        var run = SmartRewindRun(rewind: SmartRewind(maxRewindSeconds: 30), rate: rate)
        var position = start
        var furthest = start
        var targets: [Int] = []
        var awayTotal = 0.0
        for _ in 0..<20 {
            clock.advance(by: Duration.milliseconds(Int(listen * 1000)))
            position += frames(listen)
            furthest = max(furthest, position)
            let stopped = clock.monotonicNow
            clock.advance(by: Duration.milliseconds(Int(away * 1000)))
            let stoppedFor = (clock.monotonicNow - stopped)
            let seconds = Double(stoppedFor.components.seconds) + Double(stoppedFor.components.attoseconds) / 1e18
            awayTotal += seconds
            position = run.target(stop: position, stoppedFor: seconds, chapterStart: 0)
            targets.append(position)
        }
        return (targets, furthest, awayTotal)
    }

    @Test("twenty 3 s interruptions with 1 s of listening between: never further back than the formula for all the time away; without the run it would be 20 s back")
    func shortInterruptionsDoNotAddUp() {
        let (targets, furthest, away) = Self.twentyInterruptions(listen: 1, away: 3)
        let formula = SmartRewind(maxRewindSeconds: 30).rewind(stoppedFor: away, timeInChapter: 600)
        for (index, target) in targets.enumerated() {
            #expect(target >= furthest - Self.frames(formula), "resume \(index) at \(target), furthest \(furthest)")
        }
        // The plain formula for each interruption alone (2 s back for each 1 s heard) ends 20 s back.
        var naive = Self.frames(600)
        for _ in 0..<20 { naive += Self.frames(1) - Self.frames(SmartRewind(maxRewindSeconds: 30).rewind(stoppedFor: 3, timeInChapter: 600)) }
        #expect(naive == Self.frames(580))
        #expect(targets.last! >= Self.frames(601) - Self.frames(formula), "\(targets)")
    }

    @Test("the first interruption rewinds what the formula gives; catching up starts a new run")
    func singleInterruptionIsTheFormula() {
        var run = SmartRewindRun(rewind: SmartRewind(maxRewindSeconds: 30), rate: Self.rate)
        let stop = Self.frames(1000)
        let away = 1800.0
        let expected = SmartRewind(maxRewindSeconds: 30).rewind(stoppedFor: away, timeInChapter: 1000)
        #expect(run.target(stop: stop, stoppedFor: away, chapterStart: 0) == stop - Self.frames(expected))
        // Heard past the old stop: a new run, the formula again for its own time away.
        let later = stop + Self.frames(60)
        #expect(run.target(stop: later, stoppedFor: 10, chapterStart: 0) == later - Self.frames(2))
        #expect(run.furthest == later)
    }

    @Test("a resume never goes forward past its stop, nor back before the chapter's start")
    func boundedByStopAndChapter() {
        var run = SmartRewindRun(rewind: SmartRewind(maxRewindSeconds: 30), rate: Self.rate)
        let first = run.target(stop: Self.frames(100), stoppedFor: 3, chapterStart: 0)
        #expect(first == Self.frames(98))
        // Stopped again 0.2 s later, 0.2 s away: furthest - formula(3.2 s) is past this stop.
        let second = run.target(stop: first + Self.frames(0.2), stoppedFor: 0.2, chapterStart: 0)
        #expect(second <= first + Self.frames(0.2))
        #expect(second >= first)
        run.reset()
        #expect(run.target(stop: Self.frames(51), stoppedFor: 3600, chapterStart: Self.frames(50)) == Self.frames(50))
    }
}
