import Foundation
import TestSupport

/// What the sound-server subscription costs while
/// nothing happens on the desktop. Headless play through the private server,
/// with desktop interruptions on (the default: connected and subscribed to
/// sink-input events) and off (`desktop-interruptions = off` in a config file
/// of its own), runs taking turns so drifting load affects both alike;
/// medians of at least three whole runs and five windows each.
///
/// The target is on the steady state: CPU over a window that starts once the
/// player has played 3 s (connected and subscribed by then), summed over its
/// threads from /proc/PID/task/*/schedstat (nanoseconds; /proc/PID/stat's
/// 10 ms ticks are 5% of the window). The whole run's CPU, connection
/// included (a few milliseconds: client.conf, the cookie, the handshake), and
/// its peak RSS are reported beside it.
extension Bench {
    func desktopCost(_ sink: NullSink) throws {
        guard !options.standIn else {
            report.notes.append("desktop: no C reference to stand in for interlude; skipped")
            return
        }
        let seconds = options.playSeconds
        let runs = max(3, options.playRuns)
        let file = try Fixtures.mp3(.sweep, seconds: seconds, encoding: .cbr(kbps: 128))
        let on = ScratchFiles.makeDirectory("desktop-on")
        let off = ScratchFiles.makeDirectory("desktop-off")
        try FileManager.default.createDirectory(atPath: off + "/interlude", withIntermediateDirectories: true)
        try "desktop-interruptions = off\n".write(toFile: off + "/interlude/config", atomically: true, encoding: .utf8)
        progress("desktop: \(runs) x \(Int(seconds)) s with desktop interruptions on and off (about \(Int(Double(runs) * seconds * 2.2)) s)")

        var onRuns: [PlayMeasurement] = []
        var offRuns: [PlayMeasurement] = []
        let command = [interlude, "play", file, "--device", "pulse"]
        for _ in 0..<runs {
            onRuns.append(try play(command, sink: sink, expected: seconds, extraEnvironment: ["XDG_CONFIG_HOME": on]))
            offRuns.append(try play(command, sink: sink, expected: seconds, extraEnvironment: ["XDG_CONFIG_HOME": off]))
        }
        for (name, measured) in [("on", onRuns), ("off", offRuns)] {
            report.notes.append("desktop interruptions \(name): CPU "
                                + measured.map { formatted($0.process.usage.cpuSeconds, 3) }.joined(separator: ", ")
                                + " s; peak RSS " + measured.map { formatted($0.process.usage.maxRSSMegabytes, 1) }.joined(separator: ", ") + " MB")
        }
        let onCPU = median(onRuns.map(\.process.usage.cpuSeconds))
        let offCPU = median(offRuns.map(\.process.usage.cpuSeconds))
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, desktop interruptions on, whole run CPU user+sys s (median of \(runs))",
            subject: formatted(onCPU, 3), peer: "\(formatted(offCPU, 3)) off", ratio: onCPU / max(offCPU, 1e-6),
            target: "reported", passed: nil))
        let onRSS = median(onRuns.map(\.process.usage.maxRSSMegabytes))
        let offRSS = median(offRuns.map(\.process.usage.maxRSSMegabytes))
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, desktop interruptions on, peak RSS MB (median of \(runs))",
            subject: formatted(onRSS, 1), peer: "\(formatted(offRSS, 1)) off", ratio: onRSS / max(offRSS, 1e-6),
            target: "<= 12 MB", passed: onRSS <= 12))

        let window = options.quick ? 8.0 : 30.0
        let long = try Fixtures.mp3(.sweep, seconds: window + 10, encoding: .cbr(kbps: 128))
        // More windows than whole runs: they are short, and the difference sought is small.
        let windows = max(5, options.playRuns)
        progress("desktop: \(windows) x \(Int(window)) s steady-state windows, on and off")
        var onWindows: [Double] = []
        var offWindows: [Double] = []
        for _ in 0..<windows {
            onWindows.append(try steadyCPU(long, configHome: on, sink: sink, window: window))
            offWindows.append(try steadyCPU(long, configHome: off, sink: sink, window: window))
        }
        report.notes.append("desktop steady \(Int(window)) s windows, CPU s on: "
                            + onWindows.map { formatted($0, 4) }.joined(separator: ", ")
                            + "; off: " + offWindows.map { formatted($0, 4) }.joined(separator: ", "))
        let onSteady = median(onWindows)
        let offSteady = median(offWindows)
        let ratio = onSteady / max(offSteady, 1e-9)
        report.rows.append(ResultRow(
            measure: "playing, \(Int(window)) s after the first 3 s, desktop interruptions on, CPU s (median of \(windows))",
            subject: formatted(onSteady, 4), peer: "\(formatted(offSteady, 4)) off", ratio: ratio,
            target: "<= 1.05 x off", passed: ratio <= 1.05))
    }

    /// CPU of every thread of `interlude play` over `window` seconds, from 3 s
    /// after it started, with a recorder attached so the null sink paces it.
    private func steadyCPU(_ file: String, configHome: String, sink: NullSink, window: Double) throws -> Double {
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        var environment = sink.environment
        environment["XDG_CONFIG_HOME"] = configHome
        let player = try BackgroundProcess.start(interlude, ["play", file, "--device", "pulse"], environment: environment)
        defer { _ = player.stop() }
        usleep(3_000_000)
        let before = try Self.threadNanoseconds(player.pid)
        usleep(useconds_t(window * 1_000_000))
        let after = try Self.threadNanoseconds(player.pid)
        guard player.isRunning else { throw ProcessError.notReady("interlude play ended before the window did") }
        return Double(after - before) / 1e9
    }

    /// The sum over /proc/PID/task/*/schedstat's first field (time on a CPU, ns).
    static func threadNanoseconds(_ pid: pid_t) throws -> UInt64 {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            let text = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)
            guard let first = text.split(separator: " ").first, let nanoseconds = UInt64(first) else {
                throw ProcessError.notReady("unreadable /proc/\(pid)/task/\(task)/schedstat")
            }
            return total + nanoseconds
        }
    }
}
