import Foundation
import TestSupport

/// Issue 13, acceptance 8: what the sound-server subscription costs while
/// nothing happens on the desktop. Headless play through the private server,
/// with desktop interruptions on (the default: connected and subscribed to
/// sink-input events) and off (`desktop-interruptions = off` in a config file
/// of its own), runs taking turns so drifting load affects both alike;
/// medians of at least three runs each. The peak RSS is what loading libpulse
/// adds beside what the ALSA pulse plugin already maps.
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
        let ratio = onCPU / max(offCPU, 1e-6)
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, desktop interruptions on, CPU user+sys s (median of \(runs))",
            subject: formatted(onCPU, 3), peer: "\(formatted(offCPU, 3)) off", ratio: ratio,
            target: "<= 1.05 x off", passed: ratio <= 1.05))
        let onRSS = median(onRuns.map(\.process.usage.maxRSSMegabytes))
        let offRSS = median(offRuns.map(\.process.usage.maxRSSMegabytes))
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, desktop interruptions on, peak RSS MB (median of \(runs))",
            subject: formatted(onRSS, 1), peer: "\(formatted(offRSS, 1)) off", ratio: onRSS / max(offRSS, 1e-6),
            target: "<= 12 MB", passed: onRSS <= 12))
    }
}
