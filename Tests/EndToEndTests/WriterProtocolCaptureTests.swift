import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The one writer protocol (`writerLoop`) over both real-time devices: the same
/// script of an alarm, pauses, resumes and a seek through ALSA's plugin
/// (`alsa:pulse`) and through the native output (`pulse`), to the private
/// server's null sink, captured with parec. At every stop the frame the player
/// says it stopped at (`paused position=...`) is the frame the capture shows
/// the listener heard last: what each device reports as queued and heard (its
/// delay, its read index) decides where the pause's fade starts, so a device
/// that reports it wrong skips or repeats that much under the fade.
@Suite(.serialized) struct WriterProtocolCaptureTests {
    static let rate = 44100

    @Test("the same script of an alarm, pauses, resumes and a seek stops, on each device, at the frame the capture shows was heard last",
          arguments: ["alsa:pulse", "pulse"])
    func everyStopIsAtTheFrameHeardLast(device: String) throws {
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let silence = try Fixtures.mp3(.tone(frequency: 0), seconds: 1, sampleRate: Self.rate, channels: 2,
                                       encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(music))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        // A silent alarm: every stop, the alarm's included, is the music's fade and then silence.
        let player = try PulseOutputTests.Player([music, "--device", device, "--fade", "30ms", "--alarm-in", "3s",
                                                  "--alarm-ring", "1", "--alarm-sound", silence], sink: sink)
        #expect(player.waitFor("trackStarted"))
        // The alarm pauses the music and, rung out, resumes it.
        #expect(player.waitFor("paused"), "\(player.process.eventsSoFar().events)")
        #expect(player.waitFor("resumed"), "\(player.process.eventsSoFar().events)")
        usleep(1_300_000)
        player.type("pause")
        #expect(player.waitFor("paused", moreThan: 1))
        usleep(600_000)
        player.type("play")
        #expect(player.waitFor("resumed", moreThan: 1))
        usleep(1_200_000)
        let seek = try player.remote(["seek", "+6"])
        #expect(seek.succeeded, "\(seek.summary)")
        #expect(player.waitFor("jump"), "\(player.process.eventsSoFar().events)")
        usleep(1_400_000)
        player.type("pause")
        #expect(player.waitFor("paused", moreThan: 2))
        usleep(600_000)
        player.type("play")
        #expect(player.waitFor("resumed", moreThan: 2))
        usleep(1_000_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        usleep(200_000)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        let stops = log.named("paused").compactMap { $0.number("position") }
        try #require(stops.count == 3, "\(log.events)")
        #expect(log.named("resumed").compactMap { $0.number("position") } == stops)

        // Each silence after music ends where the listener stopped hearing it. The
        // music before the fade (100 to 450 ms before the silence, before the pause
        // reached the device) says which source frame the capture played where;
        // counted on from there, the last frame heard is the silence's start.
        let silences = SignalAnalysis.silentRuns(capture, threshold: 0, minimumFrames: Self.rate / 10)
        let before = Self.rate * 450 / 1000
        let margin = Self.rate * 100 / 1000
        var found: [String] = []
        var used: Set<Int> = []
        for (index, stop) in stops.enumerated() {
            let stopFrame = Int((stop * Double(Self.rate)).rounded())
            let searchStart = max(0, stopFrame - Self.rate * 3 / 2)
            let search = source.frames(searchStart..<min(source.frameCount, stopFrame + Self.rate * 3 / 10))
            var best: (silence: Int, lastHeard: Int, correlation: Double)?
            for (silenceIndex, silence) in silences.enumerated() where silence.lowerBound >= before && !used.contains(silenceIndex) {
                let heard = capture.frames((silence.lowerBound - before)..<(silence.lowerBound - margin))
                let alignment = SignalAnalysis.align(reference: heard, signal: search, minimumOverlap: 0.99)
                if alignment.correlation > (best?.correlation ?? 0.95) {
                    best = (silenceIndex, searchStart + alignment.lag + before, alignment.correlation)
                }
            }
            let match = try #require(best, "stop \(index) at \(stop) s: no silence after the music up to it (\(silences))")
            used.insert(match.silence)
            let error = match.lastHeard - stopFrame
            found.append("stop \(index): \(error * 1000 / Self.rate) ms")
            // Through the server the heard frame is known within one fade (30 ms):
            // what it still plays after a drop (ALSA's plugin: 2.5-25 ms, 12 assumed;
            // the native stream: its sink's 5 ms) and its delay's wander.
            #expect(abs(error) <= Self.rate * 30 / 1000,
                    "\(device), stop \(index): the player stopped at \(stop) s, the listener last heard \(Double(match.lastHeard) / Double(Self.rate)) s (\(error * 1000 / Self.rate) ms); underruns \(log.underrunCount)")
        }
        print("\(device): \(found.joined(separator: ", "))")
    }
}
