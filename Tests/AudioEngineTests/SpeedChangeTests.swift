import AudioEngine
import Foundation
import Testing
import TestSupport

/// A change of speed during playback, rendered through the WAV sink on the
/// engine's frame clock: it takes effect within the ring's length, the
/// position (book time) runs on without a jump, the waveform has no click,
/// and back at 1.0x libsonic leaves the path.
@Suite struct SpeedChangeTests {
    struct Sample { let device: Int; let heard: Int }

    @Test func changingSpeedWhilePlayingIsPromptContinuousAndKeepsBookTime() throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 10, sampleRate: 44100, channels: 1,
                                   encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let path = ScratchFiles.makeDirectory("speed-change") + "/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        try engine.open()
        let rate = engine.format.rate
        let ringFrames = 16384  // the file sinks' media ring
        var samples: [Sample] = []
        func pump(untilDevice frames: Int) throws {
            while engine.deviceFramesWritten < frames && !engine.isFinished {
                _ = try engine.pump(maxFrames: 441)
                samples.append(Sample(device: engine.deviceFramesWritten, heard: engine.heardPosition))
            }
        }
        /// Source frames per device frame between two device times.
        func speed(from start: Int, to end: Int) -> Double {
            let a = samples.first { $0.device >= start }!, b = samples.first { $0.device >= end }!
            return Double(b.heard - a.heard) / Double(b.device - a.device)
        }

        try pump(untilDevice: 2 * rate)
        #expect(!engine.feeder.isStretching)
        try engine.setSpeed(PlaybackSpeed(2.0)!)
        try pump(untilDevice: 4 * rate)
        try engine.setSpeed(PlaybackSpeed(1.0)!)
        try pump(untilDevice: 5 * rate)
        #expect(!engine.feeder.isStretching, "back at 1.0x, libsonic has left the path")
        try pump(untilDevice: .max)
        #expect(engine.isFinished)

        // Prompt: from a ring's length after each change, the position runs at the new speed.
        let settle = ringFrames + rate / 10
        let fast = speed(from: 2 * rate + settle, to: 4 * rate)
        #expect(abs(fast - 2) < 0.02, "\(fast) source frames per output frame at 2.0x")
        let normal = speed(from: 4 * rate + settle, to: 5 * rate)
        #expect(abs(normal - 1) < 0.01, "\(normal) at 1.0x again")

        // Continuous: never backwards, never more than the speed allows in one step.
        for (before, after) in zip(samples, samples.dropFirst()) {
            let step = after.heard - before.heard
            let allowed = 2 * (after.device - before.device) + rate / 100
            #expect(step >= 0 && step <= allowed, "position jumped by \(step) frames at device frame \(after.device)")
        }
        // Book time at the end: the whole file, to the frame.
        #expect(samples.last?.heard == source.frameCount, "\(samples.last?.heard ?? -1) of \(source.frameCount)")

        // No click: a 440 Hz tone at -6 dBFS never moves more than its own slope
        // allows from one sample to the next, across both changes.
        let output = try WAVFile.read(path)
        let slope = 0.5 * 32767 * 2 * Double.pi * 440 / Double(rate)
        var largest = 0
        for index in 1..<output.samples.count {
            largest = max(largest, abs(Int(output.samples[index]) - Int(output.samples[index - 1])))
        }
        #expect(Double(largest) < slope * 1.3, "largest step \(largest), the tone's own \(Int(slope))")
        // The output's length: 2 s + 2 s at double speed (4 s of file) + the rest at 1.0x.
        let expected = Double(source.frameCount) / Double(rate) - 2
        #expect(abs(output.durationSeconds - expected) < 0.05, "\(output.durationSeconds) s, expected \(expected) s")
    }
}
