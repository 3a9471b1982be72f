import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Preemption through ALSA -> the PulseAudio null sink, captured with parec:
/// what a listener hears in real time.
@Suite(.serialized) struct PreemptionCaptureTests {
    static let rate = 44100

    @Test func anAlarmReplacesTheMusicWithoutOverlapAndTheMusicContinuesWhereItStopped() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 12, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), extraArguments: ["--alarm-in", "4", "--alarm-ring", "2"],
                                              timeout: 60)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        let paused = try #require(result.events.named("paused").first?.number("position"))
        let resumed = try #require(result.events.named("resumed").first?.number("position"))
        #expect(resumed == paused)

        // Where the music sits in the capture: align its first second with the source.
        // The reference must lie wholly inside the capture's first seconds (lead-in silence first).
        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate * 3),
                                        signal: capture.frames(0..<min(capture.frameCount, Self.rate * 7)), minimumOverlap: 0.99)
        #expect(head.correlation > 0.99, "\(head)")
        let musicStart = head.lag  // capture frame of source frame 0
        let stop = Int((paused * Double(Self.rate)).rounded())
        let musicEnd = musicStart + stop  // capture frame where the faded music ends

        // The alarm tone follows within 100 ms, and the music is silent under it:
        // the capture right after the stop is the 880 Hz pattern, not the sweep.
        let afterStop = capture.frames(musicEnd..<(musicEnd + Self.rate / 10))
        #expect(result.events.underrunCount == 0, "underruns shift the capture: \(result.events.named("underrun"))")
        #expect(SignalAnalysis.rms(afterStop) > 0.05,
                "no alarm within 100 ms of the music's end (music at \(musicStart), stop \(stop), \(head), capture \(capture.frameCount))")
        let musicUnderAlarm = SignalAnalysis.correlation(reference: source.frames(stop..<(stop + Self.rate)),
                                                         signal: capture.frames(musicEnd..<(musicEnd + Self.rate)), lag: 0)
        #expect(abs(musicUnderAlarm) < 0.2, "music overlaps the alarm (correlation \(musicUnderAlarm))")

        // After the alarm, the music resumes from the stop sample: align the part
        // after it with the source from the stop on, within 10 ms.
        let alarmLength = 2 * Self.rate
        let resumeSearch = capture.frames((musicEnd + alarmLength)..<min(capture.frameCount, musicEnd + alarmLength + 3 * Self.rate))
        let reference = source.frames((stop + Self.rate / 10)..<(stop + 2 * Self.rate))
        let tail = SignalAnalysis.align(reference: reference, signal: resumeSearch, minimumOverlap: 0.3)
        #expect(tail.correlation > 0.98, "\(tail)")
        // The capture frame where source frame `stop` is heard again.
        let returned = musicEnd + alarmLength + tail.lag - Self.rate / 10
        #expect(returned > musicEnd + Self.rate, "music came back before the alarm rang out")
        // The 50 ms from there are the source from the stop (under the fade-in) ...
        let window = Self.rate / 20
        let fade = Self.rate * 30 / 1000
        let resumedHead = SignalAnalysis.correlation(reference: source.frames((stop + fade)..<(stop + fade + window)),
                                                     signal: capture.frames((returned + fade)..<(returned + fade + window)),
                                                     lag: 0)
        #expect(resumedHead > 0.9, "resumed audio is not the source from the stop (\(resumedHead))")
        // ... and the 50 ms before are not the music before the stop (nothing repeats) nor
        // the music after it (nothing overlaps the alarm's end).
        let before = capture.frames((returned - window)..<returned)
        let repeated = SignalAnalysis.correlation(reference: source.frames((stop - window)..<stop), signal: before, lag: 0)
        #expect(abs(repeated) < 0.3, "audio before the stop repeats (\(repeated))")
        // Within 10 ms: the best match of the resumed head lies at the stop sample.
        let fine = SignalAnalysis.align(reference: source.frames((stop - Self.rate / 2)..<(stop + Self.rate / 2)),
                                        signal: capture.frames((returned - Self.rate / 4)..<(returned + Self.rate)),
                                        minimumOverlap: 0.5)
        let resumedAt = stop - Self.rate / 2 + (Self.rate / 4 - fine.lag)
        #expect(abs(resumedAt - stop) <= Self.rate / 100, "resumed at source frame \(resumedAt), stopped at \(stop)")
    }

    @Test func aNotificationDucksTheMusicBy14DecibelsInTheCapture() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 8, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), extraArguments: ["--notify-at", "3"], timeout: 60)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate * 2),
                                        signal: capture.frames(0..<min(capture.frameCount, Self.rate * 5)), minimumOverlap: 0.99)
        #expect(result.events.named("ducked").count == 1 && result.events.named("unducked").count == 1)
        #expect(result.events.named("paused").isEmpty, "music ducks, it does not pause")
        let offset = head.lag
        // The level of the capture against the source, 20 ms at a time, over the whole
        // file. Windows during the chime's beeps are louder, the ramps are in between;
        // the quietest windows are the ducked music alone.
        let step = Self.rate / 50
        var ratios: [Double] = []
        for start in stride(from: 0, to: source.frameCount - step, by: step) where start + offset + step <= capture.frameCount {
            let heard = SignalAnalysis.rms(capture, frames: (start + offset)..<(start + offset + step))
            let original = SignalAnalysis.rms(source, frames: start..<(start + step))
            guard original > 0.01 else { continue }
            ratios.append(SignalAnalysis.dBFS(heard) - SignalAnalysis.dBFS(original))
        }
        let quietest = Array(ratios.sorted().prefix(10))
        #expect(quietest.count == 10)
        let plateau = quietest[quietest.count / 2]
        #expect(abs(plateau - (-14)) < 1, "ducked by \(plateau) dB (quietest windows: \(quietest))")
        // Only a short stretch is ducked: the chime's second plus the ramps.
        let ducked = ratios.filter { $0 < -1 }.count
        #expect(ducked < 2 * 50, "\(ducked) windows of 20 ms below full level")
        // Back to full level after: the last second plays at the source's level.
        let lastSecond = ratios.suffix(50)
        #expect(lastSecond.allSatisfy { abs($0) < 0.5 }, "level at the end: \(Array(lastSecond))")
    }

    /// The device holds 300 ms of music when the alarm is due; the pause drops it
    /// and fades from the frame being heard, so the music falls silent a fade (plus
    /// what the sound server still plays after a drop) after the due frame, not a
    /// buffer later. A silent alarm sound leaves the music's end plain to see.
    @Test func theMusicFallsSilentAFadeAfterTheAlarmIsDueNotABufferLater() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 8, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let silence = try Fixtures.mp3(.tone(frequency: 0), seconds: 1, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink),
                                              extraArguments: ["--alarm-in", "3", "--alarm-ring", "1", "--alarm-sound", silence],
                                              timeout: 60)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.underrunCount == 0, "underruns shift the capture: \(result.events.named("underrun"))")
        let due = Int((try #require(result.events.named("pauseRequested").first?.number("position")) * Double(Self.rate)).rounded())
        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate * 2),
                                        signal: capture.frames(0..<min(capture.frameCount, Self.rate * 6)), minimumOverlap: 0.99)
        #expect(head.correlation > 0.99, "\(head)")
        // The capture frame where the listener was when the alarm fell due, and the
        // first 100 ms of silence after it (the music comes back after the second of
        // silent alarm): where the music ended.
        let dueInCapture = head.lag + due
        let after = capture.frames(dueInCapture..<min(capture.frameCount, dueInCapture + 3 * Self.rate))
        let quiet = SignalAnalysis.silentRuns(after, threshold: 64, minimumFrames: Self.rate / 10).first
        let end = try #require(quiet?.lowerBound, "no silence between the due frame and the music's return")
        // What still sounded: the 30 ms fade, what the server plays after a drop (up
        // to its sink's 25 ms latency), and 15 ms for the writer to act. Fading at the
        // writer's position instead leaves the device's whole buffer (300 ms) to play first.
        let fade = Self.rate * 30 / 1000
        let leftover = Self.rate * 25 / 1000
        #expect(end <= fade + leftover + Self.rate * 15 / 1000,
                "music went on for \(end * 1000 / Self.rate) ms after the alarm was due")
        // And the music was playing until the alarm fell due: the 100 ms before the due
        // frame are the source's (found within 30 ms: the heard frame that PulseAudio's
        // delay gives wanders that much against what its sink has rendered).
        let slack = Self.rate * 30 / 1000
        let window = Self.rate / 10
        let before = SignalAnalysis.align(reference: source.frames((due - window)..<due),
                                          signal: capture.frames((dueInCapture - window - slack)..<(dueInCapture + slack)),
                                          minimumOverlap: 0.95)
        #expect(before.correlation > 0.95, "the capture before the due frame is not the music (\(before))")
    }
}

/// The sound server goes away during playback, and comes back.
@Suite(.serialized) struct DeviceLossTests {
    @Test func losingTheSoundServerPausesWithAMessageUsesNoCPUAndAUserResumePlaysOn() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 8, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        var server = try PulseServer.start()
        defer { server.stop() }
        let directory = ScratchFiles.makeDirectory("deviceloss")
        let fifo = "\(directory)/commands"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Hold both ends so the player's open does not block and never sees EOF.
        let keepOpen = open(fifo, O_RDWR)
        defer { close(keepOpen) }
        let player = try InterludeBinary.start(["play", mp3, "--device", "pulse", "--events", "json"],
                                               environment: server.environment, stdinPath: fifo)
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        #expect(player.waitForEvent(named: "trackStarted", timeout: 10) != nil)
        usleep(1_500_000)
        server.stop()
        let lost = player.waitForEvent(timeout: 10) { $0.event == "error" && ($0.message ?? "").contains("pulse") }
        #expect(lost != nil, "no device-lost message: \(player.eventsSoFar().events)")
        let began = player.waitForEvent(timeout: 5) { $0.event == "interruption" && $0.fields["reason"]?.description == "routeDisconnected" }
        #expect(began != nil)
        #expect(player.isRunning)

        // While paused and waiting: it sleeps (no busy loop).
        let before = cpuSeconds(of: player.pid)
        usleep(3_000_000)
        let used = cpuSeconds(of: player.pid) - before
        #expect(used < 0.03, "used \(used) s of CPU in 3 s while waiting")
        #expect(player.eventsSoFar().named("resumed").isEmpty, "resumed by itself after the device was lost")

        // The server comes back on the same socket; the user resumes.
        server = try PulseServer.start(runtimeDirectory: server.runtimeDirectory)
        _ = "play\n".withCString { write(keepOpen, $0, strlen($0)) }
        #expect(player.waitForEvent(named: "resumed", timeout: 10) != nil, "\(player.eventsSoFar().events)")
        #expect(player.waitForEvent(named: "finished", timeout: 20) != nil, "\(player.eventsSoFar().events)")
    }

    func cpuSeconds(of pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line; 12 and 13 after the ")".
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
