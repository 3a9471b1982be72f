import AudioEngine
import Foundation
import Testing
import TestSupport

/// Jumps within the queue (next, previous, a chosen track, a seek), rendered
/// through the WAV sink and compared sample for sample with the sources.
@Suite struct QueueJumpTests {
    let first: String
    let second: String
    let firstAudio: PCMAudio
    let secondAudio: PCMAudio

    init() throws {
        first = try Fixtures.mp3(.sweep, seconds: 4)
        second = try Fixtures.mp3(.music, seconds: 4)
        firstAudio = try WAVFile.read(Fixtures.decodedByMPG123(first))
        secondAudio = try WAVFile.read(Fixtures.decodedByMPG123(second))
    }

    final class Render {
        let path = ScratchFiles.makeDirectory("queue-jump") + "/out.wav"
        let engine: PlaybackEngine
        var events: [PlaybackEvent] = []

        init(_ paths: [String], keepsOutput: Bool = false) throws {
            engine = PlaybackEngine(paths: paths, output: .wav(path: path))
            engine.keepsOutputAtQueueEnd = keepsOutput
            try engine.open()
        }

        func pump(until condition: () -> Bool, limit: Int = 10_000) throws {
            var turns = 0
            while !condition() && !engine.isFinished && turns < limit {
                events += try engine.pump(maxFrames: 441)
                turns += 1
            }
        }

        func finish() throws -> PCMAudio {
            if !engine.isFinished { events += engine.finish() }
            return try WAVFile.read(path)
        }

        var trackEvents: [String] {
            events.compactMap { event in
                switch event {
                case .trackStarted(let index, _): "start \(index)"
                case .trackEnded(let index, _): "end \(index)"
                default: nil
                }
            }
        }
    }

    @Test func jumpingToTheNextTrackMidwayPlaysItFromTheAskedOffsetWithoutAGap() throws {
        let render = try Render([first, second])
        let rate = render.engine.format.rate
        try render.pump { render.engine.heardPosition >= 2 * rate }
        let fade = 441
        render.engine.jump(toQueueIndex: 1, offsetFrames: rate, fadeFrames: fade)
        try render.pump { false }
        let output = try render.finish()

        #expect(render.trackEvents == ["start 0", "end 0", "start 1", "end 1"])
        // Up to where the jump was asked for: the first file, exactly.
        #expect(SignalAnalysis.firstDifference(expected: firstAudio.frames(0..<2 * rate),
                                               actual: output.frames(0..<2 * rate)) == nil)
        // After the fade-in: the second file from one second in, exactly, to its end.
        let tail = secondAudio.frameCount - rate - fade
        #expect(SignalAnalysis.firstDifference(expected: secondAudio.frames(rate + fade..<secondAudio.frameCount),
                                               actual: output.frames(output.frameCount - tail..<output.frameCount)) == nil)
        // Between them only the fade out and in: no gap of silence.
        let joint = output.frameCount - (secondAudio.frameCount - rate)
        #expect(joint >= 2 * rate && joint <= 2 * rate + fade + 441)
        #expect((SignalAnalysis.longestSilentRun(output)?.count ?? 0) < rate / 200)
    }

    @Test func seekingBackWithinATrackReplaysItFromThere() throws {
        let render = try Render([first])
        let rate = render.engine.format.rate
        try render.pump { render.engine.heardPosition >= 3 * rate }
        render.engine.jump(toQueueIndex: 0, offsetFrames: rate / 2, fadeFrames: 441)
        try render.pump { false }
        let output = try render.finish()

        let tail = firstAudio.frameCount - rate / 2 - 441
        #expect(SignalAnalysis.firstDifference(expected: firstAudio.frames(rate / 2 + 441..<firstAudio.frameCount),
                                               actual: output.frames(output.frameCount - tail..<output.frameCount)) == nil)
        #expect(output.frameCount - (firstAudio.frameCount - rate / 2) >= 3 * rate)
    }

    @Test func anEmptyQueueWaitsSilentlyThenPlaysWhatIsAddedAndStopsAtItsEnd() throws {
        let render = try Render([], keepsOutput: true)
        try render.pump(until: { render.engine.isMediaStopped }, limit: 100)
        #expect(render.engine.isMediaStopped)
        render.engine.enqueue([first])
        render.engine.jump(toQueueIndex: 0, offsetFrames: 0, fadeFrames: 1)
        try render.pump { render.engine.isAtQueueEnd }
        #expect(render.engine.isAtQueueEnd)
        #expect(!render.engine.isFinished)
        #expect(render.trackEvents == ["start 0", "end 0"])
        #expect(render.events.contains { if case .mediaStopped = $0 { true } else { false } })
        #expect(!render.events.contains { if case .starved = $0 { true } else { false } })
        let output = try render.finish()
        let start = try #require(SignalAnalysis.signalBounds(output)).lowerBound
        let lead = SignalAnalysis.signalBounds(firstAudio)?.lowerBound ?? 0
        let begin = start - lead
        #expect(SignalAnalysis.firstDifference(expected: firstAudio,
                                               actual: output.frames(begin..<begin + firstAudio.frameCount)) == nil)
    }

    @Test func startingAtAnOffsetOfALaterEntryPlaysFromThere() throws {
        let render = try Render([first, second])
        let rate = render.engine.format.rate
        #expect(render.engine.start(atQueueIndex: 1, offsetFrames: 2 * rate))
        try render.pump { false }
        let output = try render.finish()
        #expect(render.trackEvents == ["start 1", "end 1"])
        #expect(SignalAnalysis.firstDifference(expected: secondAudio.frames(2 * rate..<secondAudio.frameCount),
                                               actual: output) == nil)
    }

    @Test func filesEnqueuedWhileTheLastTrackPlaysFollowItGaplessly() throws {
        let render = try Render([first])
        let rate = render.engine.format.rate
        try render.pump { render.engine.heardPosition >= rate }
        render.engine.enqueue([second])
        try render.pump { false }
        let output = try render.finish()
        #expect(render.trackEvents == ["start 0", "end 0", "start 1", "end 1"])
        #expect(SignalAnalysis.firstDifference(expected: firstAudio.appending(secondAudio), actual: output) == nil)
    }
}
