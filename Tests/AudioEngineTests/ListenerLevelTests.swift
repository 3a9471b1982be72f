@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// After a duck and its release, a pause with an alarm
/// voice and the resume, the output is back exactly at the listener's volume:
/// rendered by the WAV sink, the samples after the fade-in equal the source's
/// (as `mpg123 -w` decodes it) scaled by that volume, sample for sample.
@Suite struct ListenerLevelTests {
    @Test("after a duck, its release, an alarm's pause and the resume, the render is the source at the listener's volume, exactly", arguments: [1.0, 0.5])
    func levelReturnsExactlyToTheListenersVolume(volume: Double) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 3, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let path = "\(ScratchFiles.makeDirectory("level"))/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        engine.setVolume(volume)
        try engine.open()
        func pump(to frame: Int) throws {
            while engine.deviceFramesWritten < frame { _ = try engine.pump(maxFrames: frame - engine.deviceFramesWritten) }
        }
        func pump(until condition: () -> Bool) throws {
            var turns = 0
            while !condition() && turns < 100_000 { _ = try engine.pump(maxFrames: 441); turns += 1 }
            #expect(condition(), "never happened")
        }
        // A notification's duck to -14 dB over 100 ms, released after half a second.
        try pump(to: 13230)
        engine.setDuck(gain: 0.2, rampFrames: 4410)
        try pump(to: 35280)
        engine.setDuck(gain: 1, rampFrames: 4410)
        try pump(to: 52920)
        // An alarm: pause with a 30 ms fade, the voice alone, its end, the resume.
        engine.pauseMedia(fadeFrames: 1323)
        try pump(until: { engine.isMediaStopped })
        let stop = try #require(engine.stopPosition)
        engine.startVoice(ToneVoice(), exclusive: true, fadeFrames: 220)
        try pump(to: engine.deviceFramesWritten + 13230)
        engine.stopVoice(fadeFrames: 441)
        try pump(until: { !engine.isVoiceSounding })
        engine.resumeMedia(from: stop, fadeFrames: 1323)
        try pump(until: { engine.isFinished })
        let output = try WAVFile.read(path)

        func expected(_ index: Int) -> Int16 {
            volume == 1 ? source.samples[index] : GainRamp.sample(GainRamp.scale(source.samples[index], by: Float(volume)))
        }
        let channels = 2
        // Between the duck's release (and its ramp) and the pause: the same frames as the source.
        let released = (39690 * channels)..<(52920 * channels)
        let offBefore = released.filter { output.samples[$0] != expected($0) }.count
        #expect(offBefore == 0, "\(offBefore) samples off the listener's volume after the duck's release")
        // After the resume's fade-in, to the end: the source from the stop frame on, frame for frame.
        let tail = source.frameCount - stop - 1323
        #expect(tail > 44100)
        let outputStart = (output.frameCount - tail) * channels
        let sourceStart = (stop + 1323) * channels
        let offAfter = (0..<(tail * channels)).filter { output.samples[outputStart + $0] != expected(sourceStart + $0) }.count
        #expect(offAfter == 0, "\(offAfter) samples off the listener's volume after the resume")
    }
}
