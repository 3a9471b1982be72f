import Foundation
import Testing
import TestSupport

/// Playback through ALSA's `pulse` device into a private PulseAudio null sink,
/// captured from its monitor with parec: the real-time path a listener hears.
@Suite(.serialized) struct RealTimePlaybackTests {
    @Test func tenSecondsPlayInRealTimeWithoutGapsAndMatchTheSource() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 10, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let server = try PulseServer.shared()
        let sink = try server.makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), timeout: 60)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.underrunCount == 0)

        guard let bounds = SignalAnalysis.signalBounds(capture) else {
            Issue.record("the capture is silent")
            return
        }
        let played = capture.frames(bounds)
        let playedSeconds = played.durationSeconds
        let sourceBounds = SignalAnalysis.signalBounds(source) ?? 0..<source.frameCount
        let sourceSeconds = Double(sourceBounds.count) / Double(source.sampleRate)
        #expect(abs(playedSeconds - sourceSeconds) < 0.1, "played \(playedSeconds) s of \(sourceSeconds) s")

        let fiveMilliseconds = SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate)
        let gaps = SignalAnalysis.silentRuns(played, minimumFrames: fiveMilliseconds)
        #expect(gaps.isEmpty, "digital silence inside the signal: \(gaps)")

        let alignment = SignalAnalysis.align(reference: source, signal: played)
        #expect(alignment.correlation >= 0.99, "\(alignment)")
    }
}

/// Without the right to real-time scheduling the writer runs at normal priority,
/// and says so once.
@Suite(.serialized) struct RealtimeRefusedTests {
    @Test func refusedRealtimeSchedulingIsReportedOnceAndPlaybackGoesOn() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        // Drop CAP_SYS_NICE from the bounding set: as root, that is what refuses SCHED_FIFO.
        let arguments = ["--bounding-set=-sys_nice", InterludeBinary.path(), "play", mp3, "--device", "pulse",
                         "--events", "json"]
        let result = try ProcessRunner.run("setpriv", arguments, environment: sink.environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let warnings = result.stderrText.split(separator: "\n").filter { $0.contains("real-time scheduling") }
        #expect(warnings.count == 1, "\(result.stderrText)")
        #expect(EventLog(stdout: result.stdoutText).named("trackEnded").count == 1)
    }

    @Test func realtimeSchedulingGrantedGivesNoWarning() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), timeout: 30)
        #expect(result.process.succeeded)
        #expect(!result.process.stderrText.contains("real-time scheduling"))
    }
}

/// The headless player's memory: `interlude play` maps no ncurses. The full-screen
/// player loads ncursesw with dlopen (CNcursesw's loader); linked instead, its
/// two libraries cost headless playback about 0.25 MB resident.
@Suite(.serialized) struct HeadlessFootprintTests {
    @Test func headlessPlaybackMapsNoCurses() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let process = try InterludeBinary.start(["play", mp3, "--device", "pulse", "--events", "json"],
                                                environment: sink.environment)
        defer { _ = process.stop() }
        let started = process.waitForEvent(named: "trackStarted", timeout: 30)
        try #require(started != nil, "no trackStarted: \(process.eventsSoFar().events)")
        // Read to the end: /proc files report a size of 0, which String(contentsOfFile:) trusts.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(process.pid)/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try handle.close()
        // The ALSA pulse plugin is mapped by now: the maps are those of playback.
        #expect(maps.contains("libasound"))
        let curses = maps.split(separator: "\n").filter { $0.contains("libncurses") || $0.contains("libtinfo") }
        #expect(curses.isEmpty, "headless playback maps curses: \(curses)")
    }
}
