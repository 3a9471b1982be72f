@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// A pause aimed at a stream frame (a sleep timer's end of chapter) reaches
/// silence on that frame, however late the turn of the loop that asks for it:
/// rendered by the WAV sink and compared with `mpg123 -w`.
@Suite struct AimedPauseTests {
    /// The loop decides at 0.5 s that the media must be silent at 1.5 s (a
    /// 0.5 s fade before it), but the pump that carries the request comes
    /// 0.3 s late and then renders in steps of 1.5 s.
    @Test func anAimedPauseStopsOnItsFrameThoughThePumpCarryingItIsLate() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 3, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let path = "\(ScratchFiles.makeDirectory("aimed-pause"))/out.wav"
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: path))
        try engine.open()
        func render(to frame: Int) throws {
            while engine.deviceFramesWritten < frame { _ = try engine.pump(maxFrames: frame - engine.deviceFramesWritten) }
        }
        let decided = 22050, late = 13230, aim = 66150, fade = 22050
        try render(to: decided + late)
        engine.pauseMedia(fadeFrames: fade, endingAtStreamFrame: aim)
        while !engine.isMediaStopped { _ = try engine.pump(maxFrames: 66150) }
        #expect(engine.stopPosition == aim)
        _ = engine.finish()

        let output = try WAVFile.read(path)
        let channels = 2
        func differing(_ frames: Range<Int>) -> Int {
            (frames.lowerBound * channels..<frames.upperBound * channels).filter { output.samples[$0] != source.samples[$0] }.count
        }
        // Untouched until the fade, then down by 1/fade a frame to silence on the aimed frame.
        #expect(differing(0..<aim - fade) == 0)
        var offEnvelope = 0
        for frame in aim - fade..<aim {
            let gain = 1 - Float(frame - (aim - fade) + 1) / Float(fade)
            for channel in 0..<channels {
                let index = frame * channels + channel
                let expected = Int(GainRamp.sample(GainRamp.scale(source.samples[index], by: gain)))
                if abs(Int(output.samples[index]) - expected) > 2 { offEnvelope += 1 }
            }
        }
        #expect(offEnvelope == 0, "\(offEnvelope) samples off the fade's envelope")
        #expect(output.samples[(aim - 1) * channels..<output.samples.count].allSatisfy { $0 == 0 })
    }

    /// At another speed the aim is a source frame (book time): the writer's
    /// frame for it comes from the position map.
    @Test(arguments: [1.5, 0.75])
    func atAnotherSpeedTheAimIsASourceFrame(_ speed: Double) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 4, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: "\(ScratchFiles.makeDirectory("aimed-speed"))/out.wav"))
        try engine.open()
        try engine.setSpeed(try #require(PlaybackSpeed(speed)))
        while engine.deviceFramesWritten < 22050 { _ = try engine.pump(maxFrames: 4410) }
        let aim = engine.heardPosition + 44100
        engine.pauseMedia(fadeFrames: 8820, endingAtStreamFrame: aim)
        while !engine.isMediaStopped { _ = try engine.pump(maxFrames: 30000) }
        let stop = try #require(engine.stopPosition)
        // Output frames stand for 0.75 or 1.5 source frames: within one of the aim.
        #expect(abs(stop - aim) <= 1, "stopped at \(stop), aimed at \(aim)")
    }

    // An aim taken back before its pause: `MediaPauseTests.aims`.
    @Test func aFrameAlreadyHeardIsNoAimAndThePauseFadesFromTheFrameHeard() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let engine = PlaybackEngine(paths: [mp3], output: .wav(path: "\(ScratchFiles.makeDirectory("aimed-heard"))/out.wav"))
        try engine.open()
        while engine.deviceFramesWritten < 22050 { _ = try engine.pump(maxFrames: 22050 - engine.deviceFramesWritten) }
        // Heard already: an ordinary pause, from the frame heard.
        engine.pauseMedia(fadeFrames: 441, endingAtStreamFrame: 22050)
        while !engine.isMediaStopped { _ = try engine.pump(maxFrames: 4410) }
        #expect(engine.stopPosition == 22050 + 441)
    }
}
