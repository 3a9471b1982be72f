import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A station's title change reaches the screen, the
/// events, MPRIS (`playerctl metadata title`) and the `on-event` hook within
/// 2 s of the server's change. A local Icecast MP3 mount (128 kbit/s, an ICY
/// block every 16,000 bytes, so about one a second) and two players on it at
/// once: a headless one with `--events json`, the hook and MPRIS on a private
/// session bus, and the full-screen one in tmux. For each of `changes` titles
/// set through Icecast's admin call, the time from the call's return until
/// each front end shows it, polled every 20 ms (which the figures include).
extension Bench {
    func titleLatency(_ sink: NullSink) throws {
        guard ready("station titles", tools: ["icecast2", "ffmpeg", "dbus-daemon", "playerctl", "tmux"]) else { return }
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.sweep, seconds: 60), format: .mp3, name: "Bench Radio")
        try server.setTitle("Title 0", mount: "radio.mp3")
        let url = server.url("radio.mp3")

        let bus = try ProcessRunner.run("dbus-daemon", ["--session", "--print-address", "--fork", "--print-pid"], timeout: 15).check()
        let lines = bus.stdoutText.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let daemon = pid_t(lines[1]) else { throw ProcessError.notReady("dbus-daemon said \(lines)") }
        defer { kill(daemon, SIGTERM) }
        let address = lines[0]

        let directory = ScratchFiles.makeDirectory("title-bench")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        let hookLog = directory + "/hook.log"
        try "on-event = echo \"$INTERLUDE_EVENT|$INTERLUDE_TITLE\" >> \(hookLog)\n"
            .write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let runtime = ScratchFiles.makeDirectory("title-run")
        chmod(runtime, 0o700)
        var environment = sink.environment
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_STATE_HOME"] = directory + "/state"
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let headless = try BackgroundProcess.start(interlude, ["play", url, "--device", "pulse", "--events", "json"],
                                                   environment: environment)
        defer { _ = headless.stop() }
        let screen = try TmuxPlayer(sink: sink, command: [interlude, url, "--foreground"]) { $0.contains("Title 0") }

        func eventsShow(_ title: String) -> Bool {
            String(decoding: headless.currentStdout(), as: UTF8.self).contains("\"title\":\"\(title)\"")
        }
        func hookShows(_ title: String) -> Bool {
            ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").contains("streamTitle|\(title)\n")
        }
        func mprisShows(_ title: String) -> Bool {
            let result = try? ProcessRunner.run("playerctl", ["-p", "interlude", "metadata", "title"],
                                                environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: 5)
            return result?.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == title
        }
        func screenShows(_ title: String) -> Bool { screen.screen().contains(title) }
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline, !(eventsShow("Title 0") && mprisShows("Title 0")) { usleep(100_000) }
        guard eventsShow("Title 0") else { throw ProcessError.notReady("the headless player never showed the first title") }

        let frontEnds: [(String, (String) -> Bool)] = [("events (--events json)", eventsShow), ("on-event hook", hookShows),
                                                       ("MPRIS (playerctl metadata title)", mprisShows), ("screen (tmux)", screenShows)]
        var latencies = [[Double]](repeating: [], count: frontEnds.count)
        let changes = options.quick ? 3 : 8
        progress("station titles: \(changes) changes on a local Icecast mount, to 4 front ends")
        for change in 1...changes {
            let title = "Title \(change)"
            try server.setTitle(title, mount: "radio.mp3")
            let start = monotonicSeconds()
            var pending = Set(frontEnds.indices)
            while !pending.isEmpty, monotonicSeconds() < start + 10 {
                for index in pending.sorted() where frontEnds[index].1(title) {
                    latencies[index].append(monotonicSeconds() - start)
                    pending.remove(index)
                }
                usleep(20_000)
            }
            for index in pending { latencies[index].append(.infinity) }
            // The next change well after this one reached every front end.
            usleep(1_500_000)
        }
        for (index, frontEnd) in frontEnds.enumerated() {
            let values = latencies[index]
            let worst = values.max() ?? .infinity
            report.rows.append(ResultRow(
                measure: "station title change to \(frontEnd.0), s (median; worst of \(values.count))",
                subject: "\(formatted(median(values), 2)); \(formatted(worst, 2))", peer: "",
                ratio: nil, target: "<= 2 s each", passed: worst <= 2))
        }
        report.notes.append("station titles: Icecast sends an ICY block every 16,000 bytes of a 128 kbit/s mount (about 1 s); "
                            + "each front end polled every 20 ms from the admin call's return")
    }
}
