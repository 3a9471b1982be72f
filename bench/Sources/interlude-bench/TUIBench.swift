import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The CPU the full-screen player uses over 10 s
/// paused (target under 0.05 s) and over 60 s playing (10 s with --quick),
/// beside the headless player in the same state. Both run in a tmux pane on
/// the private PulseAudio server; CPU is read from /proc/PID/stat (user +
/// system, in clock ticks) at the start and end of the window, after the
/// player has drawn its screen, so start-up is not counted.
extension Bench {
    func tuiCost(_ sink: NullSink) throws {
        let playSeconds = options.playSeconds
        let pausedSeconds = 10.0
        let file = try Fixtures.mp3(.sweep, seconds: playSeconds + 15, encoding: .cbr(kbps: 128))
        progress("tui: \(Int(pausedSeconds)) s paused and \(Int(playSeconds)) s playing, full-screen and headless "
                 + "(about \(Int(2 * (pausedSeconds + playSeconds) + 15)) s)")

        // Paused: the full-screen player with space, the headless one with its
        // standard-input command, each a moment after it started playing.
        let tuiPaused = try TmuxPlayer(sink: sink, command: [interlude, file, "--device", "pulse", "--foreground"],
                                       ready: { $0.contains("▶ playing") })
        try tuiPaused.tmux(["send-keys", "Space"])
        try tuiPaused.wait { $0.contains("‖ paused") }
        usleep(500_000)
        let tuiPausedCPU = try tuiPaused.cpu(over: pausedSeconds)
        let headlessPaused = try TmuxPlayer(sink: sink, command: [interlude, "play", file, "--device", "pulse"],
                                            ready: { $0.contains("0:0") })
        try headlessPaused.type("pause\n")
        usleep(500_000)
        let headlessPausedCPU = try headlessPaused.cpu(over: pausedSeconds)

        let tuiPlaying = try TmuxPlayer(sink: sink, command: [interlude, file, "--device", "pulse", "--foreground"],
                                        ready: { $0.contains("▶ playing") })
        let recorder = try sink.startRecorder()
        let tuiPlayingCPU = try tuiPlaying.cpu(over: playSeconds)
        _ = try? recorder.stop()
        let headlessPlaying = try TmuxPlayer(sink: sink, command: [interlude, "play", file, "--device", "pulse"],
                                             ready: { $0.contains("0:0") })
        let headlessRecorder = try sink.startRecorder()
        let headlessPlayingCPU = try headlessPlaying.cpu(over: playSeconds)
        _ = try? headlessRecorder.stop()

        // On a file sink the queue renders at once; afterwards nothing may spin.
        let short = try Fixtures.mp3(.sweep, seconds: 2, encoding: .cbr(kbps: 128))
        let tuiNull = try TmuxPlayer(sink: sink, command: [interlude, short, "--output", "null", "--foreground"],
                                     ready: { $0.contains("trackEnded") })
        let tuiNullCPU = try tuiNull.cpu(over: 5)

        report.rows.append(ResultRow(
            measure: "tui after the queue ended on --output null, 5 s, CPU user+sys s",
            subject: formatted(tuiNullCPU, 3), peer: "", ratio: nil, target: "< 0.05 s", passed: tuiNullCPU < 0.05))
        report.rows.append(ResultRow(
            measure: "tui paused \(Int(pausedSeconds)) s, CPU user+sys s",
            subject: formatted(tuiPausedCPU, 3), peer: "\(formatted(headlessPausedCPU, 3)) headless paused",
            ratio: tuiPausedCPU / max(headlessPausedCPU, 0.01), target: "< 0.05 s", passed: tuiPausedCPU < 0.05))
        report.rows.append(ResultRow(
            measure: "tui playing \(Int(playSeconds)) s, CPU user+sys s",
            subject: formatted(tuiPlayingCPU, 3), peer: "\(formatted(headlessPlayingCPU, 3)) headless playing",
            ratio: tuiPlayingCPU / max(headlessPlayingCPU, 0.01), target: "", passed: nil))
        report.notes.append("tui: CPU read from /proc/PID/stat at \(sysconf(Int32(_SC_CLK_TCK))) ticks a second, "
                            + "after the screen is drawn; both players through the same pulse null sink")
    }
}

/// One player in its own tmux server, at 120x40.
final class TmuxPlayer {
    let socket: String

    init(sink: NullSink, command: [String], environment extra: [String: String] = [:], ready: (String) -> Bool) throws {
        socket = ScratchFiles.makeDirectory("tmux") + "/tmux.sock"
        var environment = sink.environment
        environment["LANG"] = "C.UTF-8"
        environment["XDG_CONFIG_HOME"] = ScratchFiles.makeDirectory("tui-config")
        for (name, value) in extra { environment[name] = value }
        let line = "env " + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
            .joined(separator: " ") + " " + command.map(Self.quoted).joined(separator: " ")
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", line])
        try wait(ready)
    }

    /// Polls the screen until `condition` holds (20 s at most).
    func wait(_ condition: (String) -> Bool) throws {
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline, !condition(screen()) { usleep(100_000) }
        guard condition(screen()) else { throw ProcessError.notReady("the player did not draw: \(screen())") }
    }

    deinit { _ = try? ProcessRunner.run("tmux", ["-u", "-S", socket, "kill-server"], timeout: 10) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", ["-u", "-S", socket] + arguments, environment: ["LANG": "C.UTF-8"], timeout: 10).check()
    }

    func screen() -> String { (try? tmux(["capture-pane", "-p"]).stdoutText) ?? "" }

    func type(_ text: String) throws {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { try tmux(["send-keys", "Enter"]) }
            if !line.isEmpty { try tmux(["send-keys", "-l", String(line)]) }
        }
    }

    /// CPU seconds (user + system) the pane's process uses over the next `seconds`.
    func cpu(over seconds: Double) throws -> Double {
        let pid = try tmux(["display-message", "-p", "#{pane_pid}"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try Self.cpuTicks(pid)
        usleep(useconds_t(seconds * 1_000_000))
        let after = try Self.cpuTicks(pid)
        return Double(after - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime from /proc/PID/stat (fields 14 and 15, after the parenthesised name).
    static func cpuTicks(_ pid: String) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw ProcessError.notReady("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so utime (field 14) is fields[11].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw ProcessError.notReady("unreadable /proc/\(pid)/stat")
        }
        return user + system
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
