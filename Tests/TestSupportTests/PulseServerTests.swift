import Foundation
import Testing
import TestSupport

/// Real time through the private PulseAudio server's null sink, captured with parec.
@Suite(.serialized) struct PulseServerTests {
    @Test func paplayThroughTheNullSinkIsCapturedInRealTime() throws {
        let server = try PulseServer.shared()
        let sink = try server.makeSink()
        defer { sink.remove() }
        let sourcePath = try Fixtures.wav(.sweep, seconds: 3)
        let source = try WAVFile.read(sourcePath)

        let recorder = try sink.startRecorder()
        let play = try ProcessRunner.run("paplay", [sourcePath], environment: sink.environment, timeout: 30)
        let capture = try recorder.stop()
        #expect(play.succeeded, "\(play.summary)")

        #expect(capture.sampleRate == 44100 && capture.channels == 2)
        let bounds = try #require(SignalAnalysis.signalBounds(capture))
        // The played signal lasts as long as the source: real-time, nothing dropped or added.
        let playedSeconds = Double(bounds.count) / 44100
        #expect(abs(playedSeconds - source.durationSeconds) < 0.1, "captured \(playedSeconds) s")
        #expect(SignalAnalysis.longestSilentRun(capture.frames(bounds)).map(\.count) ?? 0 < SignalAnalysis.frames(milliseconds: 5, sampleRate: 44100))
        let alignment = SignalAnalysis.align(reference: source, signal: capture)
        #expect(alignment.correlation >= 0.99, "\(alignment)")
        let played = capture.frames(alignment.lag..<(alignment.lag + source.frameCount))
        #expect(SignalAnalysis.firstDifference(expected: source, actual: played) == nil)
    }

    /// With the mpg123 program as the player: proves the chain
    /// (ALSA `pulse` device -> PULSE_SINK -> null sink -> parec -> analysis) that the
    /// engine's end-to-end test uses.
    @Test func mpg123ThroughALSAPulseMatchesItsOwnDecode() throws {
        let server = try PulseServer.shared()
        let sink = try server.makeSink()
        defer { sink.remove() }
        let mp3 = try Fixtures.mp3(.sweep, seconds: 10)
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(mp3))

        let recorder = try sink.startRecorder()
        // The reference plays in the scheduling class Interlude's writer asks for (SCHED_FIFO 20) when this
        // process may grant it: at normal priority, beside the suite's load (a load average of 12 on two cores),
        // mpg123 itself was once starved for 324 ms and the hole was the peer's, not the chain's.
        let command = ["mpg123", "-q", "-o", "alsa", "-a", "pulse", mp3]
        let realTime = try ProcessRunner.run("chrt", ["-f", "20", "true"], timeout: 10).succeeded
        let play = try ProcessRunner.run(realTime ? "chrt" : "mpg123", realTime ? ["-f", "20"] + command : Array(command.dropFirst()),
                                         environment: sink.environment, timeout: 60)
        let capture = try recorder.stop()
        #expect(play.succeeded, "\(play.summary)")

        let alignment = SignalAnalysis.align(reference: decoded, signal: capture)
        #expect(alignment.correlation >= 0.99, "\(alignment)")
        let played = capture.frames(alignment.lag..<(alignment.lag + decoded.frameCount))
        let bounds = try #require(SignalAnalysis.signalBounds(capture))
        #expect(abs(Double(bounds.count) / 44100 - decoded.durationSeconds) < 0.1)
        let gap = SignalAnalysis.longestSilentRun(played)?.count ?? 0
        #expect(gap <= SignalAnalysis.frames(milliseconds: 5, sampleRate: 44100), "a \(gap)-frame hole")
        // On a sink without rewinds the capture is the decode itself, sample for sample.
        let difference = SignalAnalysis.firstDifference(expected: decoded, actual: played)
        #expect(difference == nil, "\(difference.map { "\($0)" } ?? "")")
    }

    @Test func twoSinksDoNotHearEachOther() throws {
        let server = try PulseServer.shared()
        let playing = try server.makeSink()
        let quiet = try server.makeSink()
        defer { playing.remove(); quiet.remove() }
        let quietRecorder = try quiet.startRecorder()
        let playingRecorder = try playing.startRecorder()
        let play = try ProcessRunner.run("paplay", [Fixtures.wav(.tone(frequency: 440), seconds: 1)],
                                         environment: playing.environment, timeout: 30)
        #expect(play.succeeded, "\(play.summary)")
        let heard = try playingRecorder.stop()
        let silent = try quietRecorder.stop()
        #expect(SignalAnalysis.rms(heard) > 0.05)
        #expect(SignalAnalysis.signalBounds(silent) == nil)
    }

    @Test func ownServerStopsByItsPID() throws {
        let server = try PulseServer.start()
        let pid = server.pid
        #expect(try server.pactl(["info"]).succeeded)
        server.stop()
        #expect(!server.isRunning)
        #expect(kill(pid, 0) != 0)
    }
}
