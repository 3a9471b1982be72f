import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The control socket's `status.engine`, which every TUI test's state word is
/// checked against (`TUIEngineAgreement`), told apart from the model and
/// judged by what the player's null sink hears: it must be the truth.
@Suite(.serialized) struct EngineReportTests {
    @Test("status.engine says what the sink hears: media running while music sounds, stopped while silent or while an alarm's tone sounds alone")
    func engineReportMatchesTheSink() throws {
        let runtime = try Remote.makeRuntimeDirectory()
        let mp3 = try Fixtures.mp3(.sweep, seconds: 60, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let player = try BackgroundProcess.start(InterludeBinary.path(), ["play", mp3, "--device", "pulse"],
                                                 environment: environment, stdout: .discard)
        defer { _ = player.stop() }
        #expect(Remote.waitForPlayer(runtime), "no player at \(runtime)")

        /// Waits for the engine's report to reach `media` and `voice`, then records what the sink hears.
        func heard(media: String, voice: String, after command: [String]?, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
            if let command { try Remote.run(runtime, command).check() }
            var engine: [String: Any] = [:]
            let reached = try Remote.waitUntil(10) {
                engine = try Remote.status(runtime)["engine"] as? [String: Any] ?? [:]
                return engine["media"] as? String == media && engine["voice"] as? String == voice
            }
            #expect(reached, "engine: \(engine)", sourceLocation: sourceLocation)
            // A moment for the device's queue to carry the change to the sink.
            usleep(300_000)
            let recorder = try sink.startRecorder()
            usleep(400_000)
            let level = SignalAnalysis.dBFS(SignalAnalysis.rms(try recorder.stop()))
            let after = try Remote.status(runtime)["engine"] as? [String: Any] ?? [:]
            #expect(after["media"] as? String == media && after["voice"] as? String == voice, "moved on while recording: \(after)",
                    sourceLocation: sourceLocation)
            return level
        }

        #expect(try heard(media: "running", voice: "silent", after: nil) > -40)
        #expect(try heard(media: "stopped", voice: "silent", after: ["pause"]) < -80)
        #expect(try heard(media: "running", voice: "silent", after: ["play"]) > -40)
        // The alarm's tone alone: sound, with the media stopped (the model says interrupted).
        #expect(try heard(media: "stopped", voice: "alone", after: ["alarm", "fire"]) > -40)
        #expect(try Remote.status(runtime)["state"] as? String == "interrupted")
        #expect(try heard(media: "running", voice: "silent", after: ["dismiss"]) > -40)
        // A simulated device loss pauses through the session; the device itself stays (outputLost false).
        #expect(try heard(media: "stopped", voice: "silent", after: ["device-loss"]) < -80)
        #expect((try Remote.status(runtime)["engine"] as? [String: Any])?["outputLost"] as? Bool == false)
        #expect(try heard(media: "running", voice: "silent", after: ["play"]) > -40)
        _ = try Remote.run(runtime, ["quit"])
        #expect(player.wait(timeout: 15).exitStatus == 0)
    }

    @Test("the rule the TUI tests apply: playing only while the engine's media runs on a live output, never paused while an alarm's tone sounds alone")
    func agreementRule() {
        func engine(_ media: String, voice: String = "silent", lost: Bool = false) -> EngineState {
            EngineState(media: media, voice: voice, outputLost: lost, modelState: "-")
        }
        #expect(EngineState.disagreement(word: "playing", engine: engine("running")) == nil)
        #expect(EngineState.disagreement(word: "playing", engine: engine("stopped")) != nil)
        #expect(EngineState.disagreement(word: "playing", engine: engine("running", lost: true)) != nil)
        #expect(EngineState.disagreement(word: "playing", engine: engine("running", voice: "mixed")) == nil)
        for word in ["paused", "interrupted", "stopped"] {
            #expect(EngineState.disagreement(word: word, engine: engine("stopped")) == nil)
            #expect(EngineState.disagreement(word: word, engine: engine("running")) != nil)
            #expect(EngineState.disagreement(word: word, engine: engine("running", lost: true)) == nil)
        }
        #expect(EngineState.disagreement(word: "interrupted", engine: engine("stopped", voice: "alone")) == nil)
        #expect(EngineState.disagreement(word: "paused", engine: engine("stopped", voice: "alone")) != nil)
        #expect(!engine("fading").isSettled && !engine("starting").isSettled && engine("running").isSettled)
    }
}
