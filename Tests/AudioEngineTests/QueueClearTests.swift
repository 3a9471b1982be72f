import AudioEngine
import Foundation
import Testing
import TestSupport

/// Clearing the queue after the feeder has begun the next track
/// for the gapless join. Rendered through the WAV sink (the frame clock), so
/// the moment the next track is already in the media ring is exact.
@Suite struct QueueClearTests {
    /// Pumps until the engine finishes (or 20,000 turns in all); the events on the way.
    static func playToTheEnd(_ engine: PlaybackEngine, turns: inout Int) throws -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        while !engine.isFinished && turns < 20_000 {
            events += try engine.pump(maxFrames: 441)
            turns += 1
        }
        if !engine.isFinished { events += engine.finish() }
        return events
    }

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
        events += try Self.playToTheEnd(engine, turns: &turns)
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

    /// The window the end-to-end run once lost: a resume has refilled the ring
    /// past the end of the current track and handed the start to the writer,
    /// which has not mixed since (`mediaRun` set, `mediaStopped` still set). A
    /// frame-clock pump of zero frames leaves the engine exactly there.
    @Test func clearingAfterAResumeHandedToTheWriterButNotYetStartedDropsTheDecodedNextTrack() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 3)
        let second = try Fixtures.mp3(.music, seconds: 3)
        let path = ScratchFiles.makeDirectory("queue-clear") + "/out.wav"
        let engine = PlaybackEngine(paths: [first, second], output: .wav(path: path))
        try engine.open()
        var events = try engine.pump(maxFrames: 441)
        engine.pauseMedia(fadeFrames: 441)
        var turns = 0
        while !engine.isMediaStopped && turns < 1_000 {
            events += try engine.pump(maxFrames: 441)
            turns += 1
        }
        #expect(engine.isMediaStopped)
        let length = try #require(engine.feeder.tracks.first?.expectedFrames)
        // A tenth of a second before the end: the resume's fill reaches into the second file.
        engine.jump(toQueueIndex: 0, offsetFrames: length - 4410, fadeFrames: 441)
        while engine.pendingJump != nil && turns < 2_000 {
            events += try engine.pump(maxFrames: 0)
            turns += 1
        }
        #expect(Array(engine.feeder.tracks.map(\.index).suffix(2)) == [0, 1], "the resume decoded into the next track")
        #expect(engine.isMediaStopped && engine.isResumePending, "handed to the writer, not started")

        engine.feeder.replaceQueue(after: 0, with: [])
        #expect(engine.forgetDecodedAhead(fadeFrames: 441))
        events += try Self.playToTheEnd(engine, turns: &turns)
        let starts = events.compactMap { if case .trackStarted(let index, _) = $0 { index } else { nil } }
        #expect(!starts.isEmpty && starts.allSatisfy { $0 == 0 }, "the cleared track never starts: \(starts)")
        let ends = events.compactMap { if case .trackEnded(let index, _) = $0 { index } else { nil } }
        #expect(ends.last == 0, "the first track ends the run: \(ends)")
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
