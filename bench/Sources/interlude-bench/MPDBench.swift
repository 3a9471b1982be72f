import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// How long the player's MPD front end takes to
/// answer `status`, `playlistinfo` over a queue of 10,000 and `search` over
/// a library of 100,000 tracks, beside Debian's `mpd` over the same files in
/// the same run, requests alternating between the two so drifting load
/// falls on both alike. The library is `LibraryTreeGenerator`'s tree of tiny
/// tagged MP3s (the library bench's), which `mpd`'s `update` and the player's
/// `library scan` each read into their own database; the queue is 10,000 of
/// its files added in one command list to each. Each time is from the
/// request's first byte sent to its `OK` read, over a Unix socket, with
/// the client and both servers held to one CPU (below).
extension Bench {
    func mpdReplyTimes(_ sink: NullSink) throws {
        guard interludeAvailable, !options.standIn else {
            report.notRun.append("MPD replies: needs the release interlude")
            return
        }
        guard access("/usr/bin/mpd", X_OK) == 0 else {
            report.notRun.append("MPD replies: mpd is not installed (make deps installs it)")
            return
        }
        let size = options.quick ? 10_000 : 100_000
        let queueLength = 10_000
        let directory = ScratchFiles.makeDirectory("mpd-bench")
        defer { _ = try? ProcessRunner.run("rm", ["-rf", directory], timeout: 600) }
        let music = directory + "/music"
        progress("MPD: generating \(size) tagged MP3s")
        let entries = try LibraryTreeGenerator(root: music, fileCount: size).write(frameRun: try LibraryTreeGenerator.frameRun())

        // Debian's mpd over the tree, its database filled by `update`.
        let reference = directory + "/reference"
        try FileManager.default.createDirectory(atPath: reference + "/playlists", withIntermediateDirectories: true)
        try """
        music_directory "\(music)"
        playlist_directory "\(reference)/playlists"
        db_file "\(reference)/database"
        log_file "\(reference)/log"
        bind_to_address "\(reference)/socket"
        zeroconf_enabled "no"
        audio_output {
            type "null"
            name "null"
            mixer_type "software"
        }
        """.write(toFile: reference + "/mpd.conf", atomically: true, encoding: .utf8)
        let mpd = try BackgroundProcess.start("/usr/bin/mpd", ["--no-daemon", reference + "/mpd.conf"],
                                              environment: ["HOME": reference, "XDG_RUNTIME_DIR": reference])
        defer { _ = mpd.stop() }
        var theirs: RawControlConnection?
        _ = Self.waitUntil(30) { theirs = try? RawControlConnection.mpd(reference + "/socket"); return theirs != nil }
        guard let theirs else { throw ProcessError.notReady("mpd did not listen at \(reference)/socket") }
        progress("MPD: mpd's update of \(size) files")
        let updateStart = monotonicSeconds()
        _ = theirs.mpdRequest("update")
        _ = Self.waitUntil(1800) { !theirs.mpdRequest("status").contains("updating_db") }
        let updateSeconds = monotonicSeconds() - updateStart
        // Both play the same long file through the queue's 10,000 (the tree's
        // files are 0.2 s: `play` ends with its queue), so that each `status`
        // is a playing server's, with its song, time and audio fields: mpd
        // stopped was answering a shorter status, and waking for no audio.
        let long = try Fixtures.mp3(.tone(frequency: 440), seconds: 600)
        guard theirs.mpdRequest("add " + RawControlConnection.quoted("file://" + long)).hasSuffix("OK\n"),
              theirs.mpdRequest("play 0").hasSuffix("OK\n") else {
            throw ProcessError.notReady("mpd did not play \(long)")
        }

        // The player over the same tree: its library index, then `play` with the MPD socket under its runtime directory.
        let home = directory + "/home"
        let runtime = home + "/run"
        try FileManager.default.createDirectory(atPath: home + "/config/interlude", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "library = \(music)\n".write(toFile: home + "/config/interlude/config", atomically: true, encoding: .utf8)
        var environment = sink.environment
        for (key, value) in ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache",
                             "XDG_STATE_HOME": home + "/state", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": runtime] {
            environment[key] = value
        }
        progress("MPD: interlude's library scan of \(size) files")
        let scanStart = monotonicSeconds()
        try ProcessRunner.run(interlude, ["library", "scan"], environment: environment, timeout: 1800).check()
        let scanSeconds = monotonicSeconds() - scanStart
        let player = try BackgroundProcess.start(interlude, ["play", long, "--device", "pulse"], environment: environment)
        defer { _ = player.stop() }
        var ours: RawControlConnection?
        _ = Self.waitUntil(30) { ours = try? RawControlConnection.mpd(runtime + "/interlude/mpd"); return ours != nil }
        guard let ours else { throw ProcessError.notReady("no MPD socket at \(runtime)/interlude/mpd") }
        report.notes.append("MPD: \(size) files; mpd's update took \(formatted(updateSeconds, 1)) s, "
                            + "interlude's library scan \(formatted(scanSeconds, 1)) s")

        // The same queue of 10,000 in each (the long file plays ahead of them).
        let adds = entries.prefix(queueLength).map { "add " + RawControlConnection.quoted($0.path) }
        for client in [theirs, ours] {
            let reply = client.mpdRequest((["command_list_begin"] + adds + ["command_list_end"]).joined(separator: "\n"))
            guard reply.hasSuffix("OK\n") else { throw ProcessError.notReady("adding \(queueLength) songs: \(reply.suffix(200))") }
        }
        for (name, client) in [("mpd", theirs), ("interlude", ours)] where !client.mpdRequest("status").contains("state: play\n") {
            throw ProcessError.notReady("\(name) is not playing: \(client.mpdRequest("status"))")
        }
        // A word in about one title in a hundred (the generator's titles repeat its word list).
        let query = "search title " + RawControlConnection.quoted(entries[7].title.split(separator: " ").last.map(String.init) ?? "a")
        let runs = options.quick ? 50 : 200
        // The client and both servers on one CPU, so that a reply's time is
        // the server's work and its wake-up on the CPU it shares with the
        // client. Left to the scheduler, a server woken on the other CPU
        // pays a cross-CPU wake-up that dwarfs a `status` (about 70 us for
        // either server on this kind of 2-CPU virtual machine, against
        // 25-40 us on one), and which server lands there changes from run to
        // run: it measured the placement, not the servers.
        // The bench runs on its main thread, whose thread id is the process's.
        // Its own CPUs are given back after, as they were ("pid N's current affinity list: 0,1").
        let client = getpid()
        let affinity = try ProcessRunner.run("taskset", ["--cpu-list", "--pid", "\(client)"], timeout: 10).check()
        guard let ownCPUs = affinity.stdoutText.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines),
              !ownCPUs.isEmpty else { throw ProcessError.notReady("taskset said \(affinity.stdoutText)") }
        for (pid, threads) in [(mpd.pid, ["--all-tasks"]), (player.pid, ["--all-tasks"]), (client, [])] {
            try ProcessRunner.run("taskset", threads + ["--cpu-list", "--pid", "0", "\(pid)"], timeout: 10).check()
        }
        defer { _ = try? ProcessRunner.run("taskset", ["--cpu-list", "--pid", ownCPUs, "\(client)"], timeout: 10) }
        // `status` answers in tens of microseconds: ten times the runs, so that its p99 is not the second slowest of 200.
        for (name, request, runs) in [("status", "status", runs * 10), ("playlistinfo (\(queueLength) entries)", "playlistinfo", runs),
                                      ("search (\(size) tracks)", query, runs)] {
            progress("MPD: \(runs) x \(name) each")
            var mine: [Double] = [], reference: [Double] = []
            var sizes: (mine: Int, reference: Int) = (0, 0)
            for _ in 0..<runs {
                let (a, aBytes) = theirs.timed(request)
                let (b, bBytes) = ours.timed(request)
                // A refusal or a closed connection answers at once: its time is no reply's.
                for (name, bytes) in [("mpd", aBytes), ("interlude", bBytes)] where bytes == 0 {
                    throw ProcessError.notReady("\(name) gave no reply to \(request)")
                }
                reference.append(a)
                mine.append(b)
                sizes = (bBytes, aBytes)
            }
            for (label, pick) in [("median", 0.5), ("p99", 0.99)] {
                let subject = Self.quantile(mine, pick), peer = Self.quantile(reference, pick)
                report.rows.append(ResultRow(
                    measure: "MPD \(name): \(label) reply ms (\(runs) runs on one CPU, \(sizes.mine / 1024) KiB vs \(sizes.reference / 1024) KiB)",
                    subject: formatted(subject * 1000, 3), peer: "\(formatted(peer * 1000, 3)) mpd",
                    ratio: subject / max(peer, 1e-9), target: "<= 1.0 x mpd", passed: subject <= peer))
            }
        }
    }

    /// Polls `condition` every `interval` seconds (50 ms) until it holds or `timeout` seconds pass.
    @discardableResult
    static func waitUntil(_ timeout: Double, every interval: Double = 0.05, _ condition: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return condition()
    }

    static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}

/// The bench's MPD client: the tests' raw socket connection (TestSupport's one copy), its greeting read.
extension RawControlConnection {
    static func mpd(_ path: String) throws -> RawControlConnection {
        let connection = try RawControlConnection(path)
        guard connection.readLine()?.hasPrefix("OK MPD ") == true else { throw ProcessError.notReady("no greeting at \(path)") }
        return connection
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The reply to `line` up to its `OK` or `ACK`, as text.
    func mpdRequest(_ line: String) -> String {
        send(line)
        return readMPDReply().map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The seconds from the request's send to its reply's end, and the reply's size (0 for an ACK or a closed connection).
    func timed(_ line: String) -> (Double, Int) {
        let start = monotonicSeconds()
        send(line)
        let reply = readMPDReply()
        let seconds = monotonicSeconds() - start
        guard let reply, reply.suffix(3).elementsEqual("OK\n".utf8) else { return (seconds, 0) }
        return (seconds, reply.count)
    }
}
