@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// The track-gain marks across the two threads (in `make test-tsan`, whose
/// filter this suite's name matches): the engine's thread writes a mark for
/// each file it opens while the ALSA writer thread, on the private PulseAudio
/// server, takes them on; a pause's drop rewinds across them.
@Suite(.serialized) struct TrackGainWriterThreadTests {
    @Test func marksCrossFromTheEngineToARealWriterThread() throws {
        let server = try PulseServer.shared()
        if let address = server.environment["PULSE_SERVER"] { setenv("PULSE_SERVER", address, 1) }
        let paths = try (0..<6).map { try Fixtures.mp3(.tone(frequency: 300 + 40 * Double($0)), seconds: 0.4) }
        let engine = PlaybackEngine(paths: paths) { format throws(OutputError) in
            do throws(AlsaError) {
                return try AlsaOutput(device: "pulse", format: format, latencyMilliseconds: 60)
            } catch {
                throw .device(error)
            }
        }
        try engine.open()
        // Alternate gains by file, so every join changes the gain.
        engine.setTrackGain { path, _ in (paths.firstIndex(of: path) ?? 0) % 2 == 0 ? 0.5 : 0.8 }
        var events: [PlaybackEvent] = []
        var paused = false
        var resumed = false
        let deadline = Date().addingTimeInterval(60)
        while !engine.isFinished && !engine.isOutputLost && Date() < deadline {
            events += try engine.pump()
            // A pause in the third file, and a resume from where it stopped.
            if !paused, engine.heardPosition >= engine.format.rate * 9 / 10 {
                engine.pauseMedia(fadeFrames: 441)
                paused = true
            }
            if paused, !resumed, engine.isMediaStopped, let stop = engine.stopPosition {
                engine.resumeMedia(from: stop, fadeFrames: 441)
                resumed = true
            }
            let wait = engine.suggestedWaitMilliseconds
            if wait > 0 { usleep(useconds_t(min(wait, 20) * 1000)) }
        }
        #expect(engine.isFinished && !engine.isOutputLost && resumed, "\(events)")
        // The last file's gain is the one the writer ended with.
        #expect(engine.appliedTrackGain == 0.8)
        let started = events.filter { if case .trackStarted = $0 { true } else { false } }.count
        #expect(started == 6, "\(events)")
    }
}
