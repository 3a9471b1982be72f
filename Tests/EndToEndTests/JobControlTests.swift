import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Real job control: the player in a tmux pane, Ctrl-Z while it plays, an
/// alarm falling due while it is stopped, then `fg`.
@Suite(.serialized) struct JobControlTests {
    func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", arguments, timeout: 10)
    }

    func waitFor(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test func ctrlZThenFgGivesALateSuspendedBeganAndOneDelayedResume() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 6, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let server = try PulseServer.shared()
        let sink = try server.makeSink()
        defer { sink.remove() }
        let directory = ScratchFiles.makeDirectory("jobcontrol")
        let events = "\(directory)/events.jsonl"
        let socket = "\(directory)/tmux.sock"
        let environment = sink.environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let command = "env \(environment) \(InterludeBinary.path()) play \(mp3) --device pulse --events json "
            + "--alarm-in 3 --alarm-ring 1 --resume-delay 1.5 > \(events)"
        _ = try tmux(["-S", socket, "new-session", "-d", "-x", "120", "-y", "30", "bash", "--norc", "--noprofile"])
        defer { _ = try? tmux(["-S", socket, "kill-server"]) }
        _ = try tmux(["-S", socket, "send-keys", command, "Enter"])

        func log() -> EventLog { EventLog(stdout: (try? String(contentsOfFile: events, encoding: .utf8)) ?? "") }
        #expect(waitFor(10) { !log().named("trackStarted").isEmpty }, "the player did not start")
        usleep(1_000_000)
        _ = try tmux(["-S", socket, "send-keys", "C-z"])
        #expect(waitFor(5) { !log().named("suspending").isEmpty }, "Ctrl-Z was not handled")
        let pane = { (try? self.tmux(["-S", socket, "capture-pane", "-p"]).stdoutText) ?? "" }
        #expect(waitFor(5) { pane().contains("Stopped") }, "the job did not stop: \(pane())")
        // The alarm is due 3 s after the start; stay stopped past it.
        usleep(3_000_000)
        #expect(log().named("alarmRinging").isEmpty, "an alarm rang while the process was stopped")
        _ = try tmux(["-S", socket, "send-keys", "fg", "Enter"])
        #expect(waitFor(30) { !log().named("summary").isEmpty }, "the player did not finish after fg: \(log().events)")

        let all = log()
        let began = all.named("interruption").first { $0.fields["type"]?.description == "began" }
        #expect(began?.fields["wasSuspended"] == .bool(true))
        #expect(began?.fields["reason"]?.description == "appWasSuspended")
        #expect(all.named("alarmRinging").count == 1)
        let ended = all.named("interruption").last { $0.fields["type"]?.description == "ended" }
        #expect(ended?.fields["options"]?.description.contains("shouldResume") == true)
        let scheduled = all.named("resumeScheduled")
        #expect(scheduled.count == 1)
        #expect(scheduled.first?.number("delay") == 1.5)
        let resumed = all.named("resumed")
        #expect(resumed.count == 1, "\(all.events.map(\.description).joined(separator: "\n"))")
        if let resumed = resumed.first, let ended {
            #expect(resumed.t >= ended.t + 1.5 - 0.01, "resumed \(resumed.t) s, ended \(ended.t) s")
        }
        #expect(all.named("summary").first?.number("automaticResumes") == 1)
    }

    /// The missed-alarm policy through the real binary: stopped (Ctrl-Z) from before
    /// the alarm's time (3 s after the start) until 4 s past it. Within the
    /// grace window (the default 10 min) it rings and says how late and why;
    /// with `alarm-grace = 0` in the config file it does not ring and is
    /// reported missed, with the same reason.
    @Test("an alarm found late after Ctrl-Z: rang N s late, or missed past alarm-grace", arguments: [false, true])
    func alarmFoundLateAfterCtrlZ(zeroGrace: Bool) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 10, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let directory = ScratchFiles.makeDirectory("jobcontrol-late")
        try FileManager.default.createDirectory(atPath: "\(directory)/config/interlude", withIntermediateDirectories: true)
        try (zeroGrace ? "alarm-grace = 0\n" : "").write(toFile: "\(directory)/config/interlude/config", atomically: true, encoding: .utf8)
        let events = "\(directory)/events.jsonl"
        let socket = "\(directory)/tmux.sock"
        var variables = sink.environment
        variables["XDG_CONFIG_HOME"] = "\(directory)/config"
        let environment = variables.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let command = "env \(environment) \(InterludeBinary.path()) play \(mp3) --device pulse --events json "
            + "--alarm-in 3 --alarm-ring 1 > \(events)"
        _ = try tmux(["-S", socket, "new-session", "-d", "-x", "120", "-y", "30", "bash", "--norc", "--noprofile"])
        defer { _ = try? tmux(["-S", socket, "kill-server"]) }
        _ = try tmux(["-S", socket, "send-keys", command, "Enter"])

        func log() -> EventLog { EventLog(stdout: (try? String(contentsOfFile: events, encoding: .utf8)) ?? "") }
        #expect(waitFor(10) { !log().named("trackStarted").isEmpty }, "the player did not start")
        _ = try tmux(["-S", socket, "send-keys", "C-z"])
        #expect(waitFor(5) { !log().named("suspending").isEmpty }, "Ctrl-Z was not handled")
        let pane = { (try? self.tmux(["-S", socket, "capture-pane", "-p"]).stdoutText) ?? "" }
        #expect(waitFor(5) { pane().contains("Stopped") }, "the job did not stop: \(pane())")
        usleep(7_000_000)
        #expect(log().named("alarmRinging").isEmpty, "an alarm rang while the process was stopped")
        _ = try tmux(["-S", socket, "send-keys", "fg", "Enter"])
        #expect(waitFor(30) { !log().named("summary").isEmpty }, "the player did not finish after fg: \(log().events)")

        let all = log()
        let late = all.named("alarmLate").compactMap { $0.fields["message"]?.description }
        let errors = all.named("error").compactMap { $0.fields["message"]?.description }
        if zeroGrace {
            #expect(all.named("alarmRinging").isEmpty, "missed, yet it rang")
            #expect(late.isEmpty)
            let missed = errors.filter { $0.contains("missed alarm 1") }
            #expect(missed.count == 1 && missed[0].range(of: #"^missed alarm 1( .*)?: \d+ s late, the player was stopped$"#,
                                                          options: .regularExpression) != nil, "\(errors)")
        } else {
            #expect(all.named("alarmRinging").count == 1)
            #expect(late.count == 1 && late[0].range(of: #"^alarm 1 rang \d+ s late: the player was stopped$"#,
                                                       options: .regularExpression) != nil, "\(late)")
            #expect(!errors.contains { $0.contains("missed") }, "\(errors)")
        }
    }
}
