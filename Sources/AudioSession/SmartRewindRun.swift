/// Smart rewind over interruptions in a row (Voice #264, audiobookshelf-app
/// #182): each resume going back by the formula for its own short time away,
/// twenty calls of a few seconds with a few seconds of listening between them
/// would walk the listener back through the book. Instead, from the furthest
/// frame heard since the listener last caught up, the position never goes
/// back further than the formula gives for all the time away since then; a
/// resume never goes forward past the frame where it stopped either.
///
/// Frames are stream frames at `rate`; the caller forgets the run when the
/// listener jumps elsewhere (`reset`).
public struct SmartRewindRun: Sendable, Equatable {
    public let rewind: SmartRewind
    public let rate: Int
    /// The furthest frame heard in this run, and the seconds away in it.
    public private(set) var furthest: Int?
    public private(set) var secondsAway = 0.0

    public init(rewind: SmartRewind, rate: Int) {
        self.rewind = rewind
        self.rate = max(1, rate)
    }

    /// Where to resume after a stop at `stop` that lasted `stoppedFor` seconds,
    /// not before `chapterStart`.
    public mutating func target(stop: Int, stoppedFor: Double, chapterStart: Int) -> Int {
        if furthest.map({ stop >= $0 }) ?? true {
            // Caught up with everything heard before: a new run starts here.
            furthest = stop
            secondsAway = 0
        }
        secondsAway += max(0, stoppedFor)
        let furthest = furthest ?? stop
        let own = rewind.rewind(stoppedFor: stoppedFor, timeInChapter: seconds(stop - chapterStart))
        let overall = rewind.rewind(stoppedFor: secondsAway, timeInChapter: seconds(furthest - chapterStart))
        let target = max(chapterStart, stop - frames(own), furthest - frames(overall))
        return min(stop, target)
    }

    /// A jump: what was heard before no longer bounds the next rewind.
    public mutating func reset() {
        furthest = nil
        secondsAway = 0
    }

    private func seconds(_ frames: Int) -> Double { Double(max(0, frames)) / Double(rate) }
    private func frames(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
}
