import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Stacked interruptions with the real binary,
/// staged with `interlude play`'s scenario options and rendered on the frame
/// clock (exact times), and a play typed during a call in real time through
/// the PulseAudio null sink. (The session-level cases are
/// `FieldFailureModeTests`; a sleep-timer pause followed by an alarm is
/// `BookSleepTimerTests`; Ctrl-Z and fg are `JobControlTests`.)
@Suite struct FieldFailureScenarioTests {
    struct Run {
        let events: EventLog
        func times(_ name: String, _ type: String? = nil) -> [Double] {
            events.named(name).filter { type == nil || $0.fields["type"]?.description == type }.map(\.t)
        }
    }

    func render(_ flags: [String], seconds: Double = 8) throws -> Run {
        let file = try Fixtures.mp3(.sweep, seconds: seconds)
        let result = try InterludeBinary.play([file], output: .null, extraArguments: flags, timeout: 120)
        #expect(result.process.succeeded, "\(result.process.summary)")
        return Run(events: result.events)
    }

    @Test("a call with an alarm inside, the alarm ending first: one resume, when the call ends")
    func alarmInsideCallEndsFirst() throws {
        let run = try render(["--call-at", "1", "--call-end", "4", "--alarm-in", "2", "--alarm-ring", "1"])
        #expect(run.times("resumed") == [4], "\(run.events.events)")
        #expect(run.times("paused").count == 1)
        #expect(run.events.named("summary").first?.number("automaticResumes") == 1)
    }

    @Test("a call with an alarm inside, the call ending first: one resume, when the alarm ends")
    func callEndsInsideAlarm() throws {
        let run = try render(["--call-at", "1", "--call-end", "2.5", "--alarm-in", "2", "--alarm-ring", "2"])
        let ended = run.events.named("alarmEnded").map(\.t)
        #expect(ended.count == 1)
        #expect(run.times("resumed").count == 1, "\(run.events.events)")
        #expect(run.times("resumed").first.map { $0 >= ended[0] } == true, "resumed before the alarm ended: \(run.events.events)")
        #expect(run.times("resumed").allSatisfy { $0 >= 2.5 })
        #expect(run.events.named("summary").first?.number("automaticResumes") == 1)
    }

    @Test("an alarm during a notification's duck: unducked when the chime ends, one resume after the alarm")
    func alarmDuringDuck() throws {
        let run = try render(["--notify-at", "1", "--alarm-in", "1.1", "--alarm-ring", "1"])
        #expect(run.times("ducked").count == 1 && run.times("ducked").first == 1, "\(run.events.events)")
        let unducked = run.times("unducked")
        let chimeEnd = run.times("ducking", "ended")
        #expect(unducked.count == 1 && unducked == chimeEnd, "the duck ends with the chime: \(run.events.events)")
        #expect(run.times("resumed").count == 1)
        let alarmEnd = try #require(run.events.named("alarmEnded").first?.t)
        #expect(run.times("resumed").first.map { $0 >= alarmEnd } == true)
    }

    @Test("two notifications overlapping: ducked from the first, released once, when the second ends")
    func overlappingNotifications() throws {
        let run = try render(["--notify-at", "1", "--notify-at", "1.2"])
        let chimeEnds = run.times("ducking", "ended")
        #expect(chimeEnds.count == 2, "\(run.events.events)")
        #expect(run.times("unducked") == [chimeEnds.max() ?? -1], "\(run.events.events)")
        #expect(run.times("paused").isEmpty && run.times("resumed").isEmpty)
    }

    @Test("a play typed during a call says why; the call's end resumes once, and the next play is played")
    func playDuringACall() throws {
        let file = try Fixtures.mp3(.sweep, seconds: 20)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let fifo = ScratchFiles.makeDirectory("call-commands") + "/commands"
        #expect(mkfifo(fifo, 0o600) == 0)
        let commands = open(fifo, O_RDWR)
        defer { close(commands) }
        let player = try InterludeBinary.start(
            ["play", file, "--device", "pulse", "--latency", "100", "--events", "json", "--call-at", "1", "--call-end", "3"],
            environment: sink.environment, stdinPath: fifo)
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        func type(_ line: String) { _ = (line + "\n").withCString { write(commands, $0, strlen($0)) } }
        func waitFor(_ name: String, count: Int = 1, timeout: Double = 10) -> Bool {
            let deadline = monotonicSeconds() + timeout
            while monotonicSeconds() < deadline {
                if player.eventsSoFar().named(name).count >= count { return true }
                usleep(20_000)
            }
            return false
        }
        #expect(waitFor("callStarted"))
        type("play")
        #expect(waitFor("playRefused"), "\(player.eventsSoFar().events)")
        let reason = player.eventsSoFar().named("playRefused").first?.fields["reason"]?.description ?? ""
        #expect(reason.contains("call"), "\(reason)")
        #expect(waitFor("resumed"), "the call's end did not resume: \(player.eventsSoFar().events)")
        type("pause")
        #expect(waitFor("paused", count: 2))
        type("play")
        #expect(waitFor("resumed", count: 2), "the next play after the call was not played")
        #expect(player.eventsSoFar().named("playRefused").count == 1)
    }
}
