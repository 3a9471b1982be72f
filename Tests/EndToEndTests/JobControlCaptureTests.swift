import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Job control heard through ALSA -> the PulseAudio null sink, captured with
/// parec: after a stop and a continue, the music goes on from the frame the
/// listener last heard, not from where the writer last measured it.
@Suite(.serialized) struct JobControlCaptureTests {
    static let rate = 44100

    /// SIGTSTP stops the writer at once and drops the device's queue; the media
    /// freezes at the heard frame. The writer measures that frame after each
    /// write and then waits a period (100 ms here) for room, so a freeze at its
    /// last measurement replayed up to a period after `fg`. Two stops, at
    /// unrelated phases of the period, so a stale measurement cannot pass by luck.
    @Test func afterStopAndContinueTheMusicGoesOnFromTheFrameLastHeard() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 10, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let player = try InterludeBinary.start(["play", mp3, "--device", "pulse", "--events", "json", "--resume-delay", "0.5"],
                                               environment: sink.environment)
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        #expect(player.waitForEvent(named: "trackStarted", timeout: 10) != nil)
        for (index, playFor) in [1_500_000, 1_730_000].enumerated() {
            usleep(UInt32(playFor))
            kill(player.pid, SIGTSTP)
            #expect(player.waitForEvent(timeout: 5) { _ in player.eventsSoFar().named("suspending").count > index } != nil)
            usleep(700_000)
            kill(player.pid, SIGCONT)
            #expect(player.waitForEvent(timeout: 5) { _ in player.eventsSoFar().named("resumed").count > index } != nil,
                    "\(player.eventsSoFar().events)")
        }
        let result = player.wait(timeout: 30)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.underrunCount == 0, "underruns shift the capture: \(log.named("underrun"))")
        let paused = log.named("paused").compactMap { $0.number("position") }
        let resumed = log.named("resumed").compactMap { $0.number("position") }
        #expect(paused.count == 2 && resumed == paused, "paused \(paused), resumed \(resumed)")

        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate),
                                        signal: capture.frames(0..<min(capture.frameCount, Self.rate * 5)), minimumOverlap: 0.99)
        #expect(head.correlation > 0.99, "\(head)")
        // The stops leave the capture silent (the server has nothing to play) until
        // the resumes: each silence starts where the listener stopped hearing.
        let played = capture.frames(head.lag..<capture.frameCount)
        let gaps = SignalAnalysis.silentRuns(played, threshold: 0, minimumFrames: Self.rate / 10)
        try #require(gaps.count >= 2, "\(gaps)")
        var music = 0  // the source frame at `played` frame 0 for the music before the next gap
        var start = 0  // the `played` frame where that music began
        for (gap, stop) in zip(gaps.prefix(2), paused) {
            // Up to the gap the music plays on without a break, so the last frame
            // heard is the gap's start counted from where this stretch began.
            let lastHeard = music + gap.lowerBound - start
            let stopFrame = Int((stop * Double(Self.rate)).rounded())
            // Within one fade (30 ms): how far the heard frame is known through the
            // sound server (what it still plays after a drop, and its delay's wander).
            let heardAgain = (lastHeard - stopFrame) * 1000 / Self.rate
            #expect(abs(lastHeard - stopFrame) <= Self.rate * 30 / 1000,
                    "the music stopped at \(Double(lastHeard) / Double(Self.rate)) s and goes on from \(stop) s (\(heardAgain) ms heard again)")
            // After the gap: the source from the stop frame, under the fade-in.
            let after = SignalAnalysis.align(reference: source.frames((stopFrame + Self.rate / 10)..<(stopFrame + Self.rate / 2)),
                                             signal: played.frames(gap.upperBound..<min(played.frameCount, gap.upperBound + Self.rate)),
                                             minimumOverlap: 0.9)
            #expect(after.correlation > 0.98, "\(after)")
            music = stopFrame
            start = gap.upperBound + after.lag - Self.rate / 10
        }
    }
}
