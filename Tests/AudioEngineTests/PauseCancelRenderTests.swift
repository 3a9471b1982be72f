@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// A pause taken back before its fade reached silence (play during a sleep
/// timer's fade): rendered by the WAV sink and compared with `mpg123 -w`.
@Suite struct PauseCancelRenderTests {
    @Test func aCancelledFadeTurnsBackUpWhereItIsWithNothingSkippedOrRepeated() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let path = "\(ScratchFiles.makeDirectory("pause-cancel"))/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        try engine.open()
        func render(to frame: Int) throws {
            while engine.deviceFramesWritten < frame { _ = try engine.pump(maxFrames: frame - engine.deviceFramesWritten) }
        }
        // A one-second fade from 0.5 s, taken back a quarter of the way down.
        let pauseAt = 22050, fade = 44100, cancelAt = 33075, fadeIn = 4410
        try render(to: pauseAt)
        engine.pauseMedia(fadeFrames: fade)
        try render(to: cancelAt)
        #expect(!engine.isMediaStopped)
        #expect(engine.cancelPause(fadeFrames: fadeIn))
        while !engine.isFinished { _ = try engine.pump() }
        #expect(!engine.isMediaStopped)

        // Every frame of the source once, in order: only the gain differs.
        let output = try WAVFile.read(path)
        #expect(output.frameCount == source.frameCount)
        let channels = 2
        func differing(_ frames: Range<Int>) -> Int {
            (frames.lowerBound * channels..<frames.upperBound * channels).filter { output.samples[$0] != source.samples[$0] }.count
        }
        #expect(differing(0..<pauseAt) == 0)
        // Down by 1/44100 a frame to 0.75 at the cancel, back up by 1/4410 a frame.
        let lowest = 1 - Float(cancelAt - pauseAt) / Float(fade)
        let back = cancelAt + Int(((1 - lowest) * Float(fadeIn)).rounded(.up)) + 1
        #expect(differing(back..<source.frameCount) == 0, "the level is not back to the source's after the fade-in")
        var offEnvelope = 0
        for frame in pauseAt..<back {
            let gain = frame < cancelAt ? 1 - Float(frame - pauseAt + 1) / Float(fade)
                : min(1, lowest + Float(frame - cancelAt + 1) / Float(fadeIn))
            for channel in 0..<channels {
                let index = frame * channels + channel
                let expected = Int(GainRamp.sample(GainRamp.scale(source.samples[index], by: gain)))
                if abs(Int(output.samples[index]) - expected) > 2 { offEnvelope += 1 }
            }
        }
        #expect(offEnvelope == 0, "\(offEnvelope) samples off the fade's envelope")
    }

    @Test func aPauseThatHasStoppedCannotBeTakenBack() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let path = "\(ScratchFiles.makeDirectory("pause-stopped"))/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        try engine.open()
        while engine.deviceFramesWritten < 4410 { _ = try engine.pump(maxFrames: 4410) }
        engine.pauseMedia(fadeFrames: 441)
        while !engine.isMediaStopped { _ = try engine.pump(maxFrames: 441) }
        #expect(!engine.cancelPause(fadeFrames: 441))
        // Not pausing at all: nothing to take back either.
        engine.resumeMedia(from: engine.stopPosition ?? 0, fadeFrames: 441)
        while engine.isMediaStopped || engine.isResumePending { _ = try engine.pump(maxFrames: 441) }
        #expect(!engine.cancelPause(fadeFrames: 441))
    }
}
