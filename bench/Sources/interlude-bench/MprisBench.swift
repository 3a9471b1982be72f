import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The player's CPU while playing with MPRIS on a
/// session bus and `playerctl --follow` attached, next to the same play with
/// no bus at all. Runs alternate, so drifting load affects both alike.
extension Bench {
    func mprisCost(_ sink: NullSink) throws {
        guard ready("MPRIS CPU", tools: ["dbus-daemon", "playerctl"]) else { return }
        let seconds = options.playSeconds
        let file = try Fixtures.mp3(.sweep, seconds: seconds, encoding: .cbr(kbps: 128))
        let started = try ProcessRunner.run("dbus-daemon", ["--session", "--print-address", "--fork", "--print-pid"], timeout: 15).check()
        let lines = started.stdoutText.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let daemon = pid_t(lines[1]) else { throw ProcessError.notReady("dbus-daemon said \(lines)") }
        defer { kill(daemon, SIGTERM) }
        let address = lines[0]
        progress("MPRIS: \(Int(seconds)) s with and without a bus and playerctl --follow (about \(Int(seconds * 2.2)) s a run)")

        // A runtime directory of our own: no `bus` socket in it, and the control socket's place.
        let runtime = ScratchFiles.makeDirectory("mpris-run")
        chmod(runtime, 0o700)
        var withBus: [PlayMeasurement] = []
        var without: [PlayMeasurement] = []
        let runs = max(options.playRuns, 5)
        for _ in 0..<runs {
            // No bus at all: DBUS_SESSION_BUS_ADDRESS empty and no $XDG_RUNTIME_DIR/bus.
            without.append(try play([interlude, "play", file, "--device", "pulse"], sink: sink, expected: seconds,
                                    extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime]))
            let follow = try BackgroundProcess.start("playerctl", ["-p", "interlude", "metadata", "--follow"],
                                                     environment: ["DBUS_SESSION_BUS_ADDRESS": address], stdout: .discard)
            defer { _ = follow.stop() }
            withBus.append(try play([interlude, "play", file, "--device", "pulse"], sink: sink, expected: seconds,
                                    extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": runtime]))
        }
        let on = medianRun(withBus).process.usage
        let off = medianRun(without).process.usage
        let ratio = on.cpuSeconds / max(off.cpuSeconds, 1e-6)
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s, MPRIS + playerctl --follow, CPU user+sys s (median of \(runs))",
            subject: formatted(on.cpuSeconds, 3), peer: "\(formatted(off.cpuSeconds, 3)) no bus",
            ratio: ratio, target: "<= 1.05 x no bus", passed: ratio <= 1.05))
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s, MPRIS + playerctl --follow, peak RSS MB (median of \(runs))",
            subject: formatted(on.maxRSSMegabytes, 1), peer: "\(formatted(off.maxRSSMegabytes, 1)) no bus",
            ratio: on.maxRSSMegabytes / max(off.maxRSSMegabytes, 1e-6), target: "", passed: nil))
    }
}
