import AudioEngine
import Foundation
import Testing
import TestSupport

/// Issue 14: clearing the queue after the feeder has begun the next track
/// for the gapless join. Rendered through the WAV sink (the frame clock), so
/// the moment the next track is already in the media ring is exact.
@Suite struct QueueClearTests {
    @Test func clearingAfterTheNextTrackIsDecodedEndsWithTheCurrentOneNothingSkippedOrRepeated() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 3)
        let second = try Fixtures.mp3(.music, seconds: 3)
        let firstAudio = try WAVFile.read(Fixtures.decodedByMPG123(first))
        let path = ScratchFiles.makeDirectory("queue-clear") + "/out.wav"
        let engine = PlaybackEngine(paths: [first, second], output: .wav(path: path))
        try engine.open()
        var events: [PlaybackEvent] = []
        // Until the feeder has opened the second file: its frames are in the ring, not heard yet.
        var turns = 0
        while engine.feeder.tracks.count < 2 && turns < 10_000 {
            events += try engine.pump(maxFrames: 441)
            turns += 1
        }
        #expect(engine.feeder.tracks.map(\.index) == [0, 1], "the next track is decoded ahead")
        let heardTrack = try #require(engine.heardTrack)
        #expect(heardTrack.track.index == 0)

        let clearedAt = engine.heardPosition
        engine.feeder.replaceQueue(after: 0, with: [])
        #expect(engine.forgetDecodedAhead(fadeFrames: 441))
        while !engine.isFinished && turns < 20_000 {
            events += try engine.pump(maxFrames: 441)
            turns += 1
        }
        if !engine.isFinished { events += engine.finish() }
        let output = try WAVFile.read(path)

        let starts = events.compactMap { if case .trackStarted(let index, _) = $0 { index } else { nil } }
        #expect(starts == [0], "the cleared track never starts: \(starts)")
        // The first track to its end, each frame once: the dip of two fades is the only difference.
        #expect(output.frameCount >= firstAudio.frameCount && output.frameCount <= firstAudio.frameCount + 2 * 441,
                "\(output.frameCount) frames for \(firstAudio.frameCount)")
        // Before the clear and after the fade back in, the first track exactly.
        #expect(SignalAnalysis.firstDifference(expected: firstAudio.frames(0..<clearedAt), actual: output.frames(0..<clearedAt)) == nil)
        let tail = firstAudio.frameCount - clearedAt - 3 * 441
        #expect(tail > 0)
        #expect(SignalAnalysis.firstDifference(expected: firstAudio.frames(firstAudio.frameCount - tail..<firstAudio.frameCount),
                                               actual: output.frames(output.frameCount - tail..<output.frameCount)) == nil,
                "cleared at \(clearedAt), \(output.frameCount) frames for \(firstAudio.frameCount)")
    }

    @Test func clearingWithNothingDecodedAheadChangesNothingInThePlayback() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 3)
        let path = ScratchFiles.makeDirectory("queue-clear") + "/out.wav"
        let engine = PlaybackEngine(paths: [first, first], output: .wav(path: path))
        try engine.open()
        _ = try engine.pump(maxFrames: 441)
        engine.feeder.replaceQueue(after: 0, with: [])
        #expect(!engine.forgetDecodedAhead(fadeFrames: 441), "the next track was not begun: no dip")
        engine.stop()
    }
}
