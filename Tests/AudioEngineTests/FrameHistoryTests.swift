@testable import AudioDecoding
import Testing

/// The stream decoder's kept frames: a fixed ring that gives back exactly the
/// frames handed out, the newest `capacityFrames` of them, across its wrap.
struct FrameHistoryTests {
    /// Stereo frames `first..<first + count`, each sample its frame number (and its negation).
    private func frames(_ first: Int, _ count: Int) -> [Int16] {
        (first..<first + count).flatMap { [Int16($0), Int16(-$0)] }
    }

    private func read(_ history: FrameHistory, from frame: Int, frames count: Int) -> [Int16]? {
        var output = [Int16](repeating: 0, count: count * 2)
        let copied = output.withUnsafeMutableBufferPointer { history.copy(from: frame, frames: count, into: $0.baseAddress!) }
        return copied ? output : nil
    }

    private func append(_ history: inout FrameHistory, _ samples: [Int16]) {
        samples.withUnsafeBufferPointer { history.append($0.baseAddress!, frames: samples.count / 2) }
    }

    @Test func keepsTheNewestFramesAcrossTheWrap() {
        var history = FrameHistory(channels: 2, capacityFrames: 100)
        var next = 0
        // Odd sizes, so that writes and reads straddle the ring's end many times.
        for size in [37, 1, 64, 99, 13, 100, 7, 55] {
            append(&history, frames(next, size))
            next += size
            #expect(history.end == next)
            #expect(history.start == max(0, next - 100))
            #expect(read(history, from: history.start, frames: history.count) == frames(history.start, history.count))
            #expect(read(history, from: next - 3, frames: 3) == frames(next - 3, 3))
        }
        #expect(read(history, from: history.start - 1, frames: 2) == nil)
        #expect(read(history, from: next - 2, frames: 3) == nil)
    }

    @Test func aBlockLargerThanTheRingKeepsItsTail() {
        var history = FrameHistory(channels: 2, capacityFrames: 50, end: 1000)
        append(&history, frames(1000, 20))
        append(&history, frames(1020, 130))
        #expect(history.start == 1100 && history.end == 1150)
        #expect(read(history, from: 1100, frames: 50) == frames(1100, 50))
    }

    @Test func truncateForgetsFromTheFrameOn() {
        var history = FrameHistory(channels: 2, capacityFrames: 40)
        append(&history, frames(0, 70))
        history.truncate(to: 60)
        #expect(history.start == 30 && history.end == 60)
        append(&history, frames(60, 5))
        #expect(read(history, from: 30, frames: 35) == frames(30, 35))
        // At or before the oldest held, or past the newest: nothing held, from there on.
        history.truncate(to: 30)
        #expect(history.count == 0 && history.end == 30)
        append(&history, frames(30, 10))
        history.truncate(to: 500)
        #expect(history.count == 0 && history.end == 500)
        append(&history, frames(500, 45))
        #expect(read(history, from: 505, frames: 40) == frames(505, 40))
    }

    @Test func resetMovesTheNumberingAndKeepsNothing() {
        var history = FrameHistory(channels: 2, capacityFrames: 10)
        append(&history, frames(0, 8))
        history.reset(at: 4000)
        #expect(history.start == 4000 && history.count == 0)
        #expect(read(history, from: 4000, frames: 0) == [])
        #expect(read(history, from: 3999, frames: 1) == nil)
        append(&history, frames(4000, 12))
        #expect(read(history, from: 4002, frames: 10) == frames(4002, 10))
    }
}
