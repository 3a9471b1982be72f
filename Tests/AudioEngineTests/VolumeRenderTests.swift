@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// The user volume through the whole pipeline, rendered by the WAV sink and
/// compared with `mpg123 -w` sample by sample.
@Suite struct VolumeRenderTests {
    @Test func setVolumeScalesTheMediaByTheExpectedDecibelsWithAnExactRamp() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let path = "\(ScratchFiles.makeDirectory("volume"))/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        engine.setVolume(0.5)
        try engine.open()
        #expect(engine.volume == 0.5)
        // Half a second at 0.5, then 0.25 for the rest.
        let change = 22050
        while engine.deviceFramesWritten < change {
            _ = try engine.pump(maxFrames: change - engine.deviceFramesWritten)
        }
        engine.setVolume(0.25)
        while !engine.isFinished { _ = try engine.pump() }
        let output = try WAVFile.read(path)
        #expect(output.frameCount == source.frameCount)

        let ramp = 44100 / 50
        let channels = 2
        func expected(_ index: Int, _ gain: Float) -> Int16 { GainRamp.sample(GainRamp.scale(source.samples[index], by: gain)) }
        let before = (0..<(change * channels)).filter { output.samples[$0] != expected($0, 0.5) }.count
        #expect(before == 0, "\(before) samples differ from the source at half gain")
        let afterStart = (change + ramp) * channels
        let after = (afterStart..<output.samples.count).filter { output.samples[$0] != expected($0, 0.25) }.count
        #expect(after == 0, "\(after) samples differ from the source at quarter gain")
        // The ramp: linear in between, frame by frame (no steps of a block, no zipper).
        var offRamp = 0
        for frame in change..<(change + ramp) {
            let gain = 0.5 - 0.25 * Float(frame - change + 1) / Float(ramp)
            for channel in 0..<channels {
                let index = frame * channels + channel
                if abs(Int(output.samples[index]) - Int(expected(index, gain))) > 1 { offRamp += 1 }
            }
        }
        #expect(offRamp == 0, "\(offRamp) samples off the linear ramp")
        // And by RMS: -6.02 dB, then -12.04 dB against the source.
        let firstLevel = SignalAnalysis.dBFS(SignalAnalysis.rms(output, frames: 0..<change))
            - SignalAnalysis.dBFS(SignalAnalysis.rms(source, frames: 0..<change))
        let secondRange = (change + ramp)..<source.frameCount
        let secondLevel = SignalAnalysis.dBFS(SignalAnalysis.rms(output, frames: secondRange))
            - SignalAnalysis.dBFS(SignalAnalysis.rms(source, frames: secondRange))
        #expect(abs(firstLevel - (-6.02)) < 0.05, "\(firstLevel) dB")
        #expect(abs(secondLevel - (-12.04)) < 0.05, "\(secondLevel) dB")
    }
}
