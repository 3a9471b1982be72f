import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Reading a 5,000-episode, 10 MB feed, beside
/// podcastparser reading the same file in one run (each the median of 5
/// parses in one process, the bytes already read: `interlude bench feed`
/// and `podcast_feeds.py time`), at least 10x faster; and the peak RSS of
/// `interlude podcast refresh` over 50 subscriptions on the loopback feed
/// server, every feed changed since the last refresh (so each is fetched and
/// read anew), at most 30 MB.
extension Bench {
    func podcastCost() throws {
        guard interludeAvailable, !options.standIn else {
            report.notRun.append("podcasts: needs the release interlude")
            return
        }
        let script = InterludeBinary.packageRoot + "/Tests/Fixtures/podcast_feeds.py"
        let python = ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"]
        let folder = ScratchFiles.makeDirectory("podcast-bench")
        let big = folder + "/big.xml"
        try ProcessRunner.run("python3", [script, "big", big, "5000"], timeout: 120).check()
        let size = (try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int) ?? 0
        progress("podcasts: parsing a \(size / 1_000_000) MB feed of 5,000 episodes, interlude and podcastparser")

        let ours = try ProcessRunner.run(interlude, ["bench", "feed", big, "--runs", "5"], timeout: 300).check()
        guard let oursSeconds = ours.stdoutText.split(separator: " ").first.flatMap({ Double($0) }) else {
            throw ProcessError.notReady("interlude bench feed said: \(ours.stdoutText)")
        }
        let theirs = try ProcessRunner.run("python3", [script, "time", big, "https://example.com/feed.xml", "5"],
                                           environment: python, timeout: 300).check()
        let parsed = try JSONSerialization.jsonObject(with: theirs.stdout) as? [String: Any]
        guard let theirsSeconds = parsed?["median"] as? Double else {
            throw ProcessError.notReady("podcast_feeds.py time said: \(theirs.stdoutText)")
        }
        let speedup = theirsSeconds / max(oursSeconds, 1e-6)
        report.rows.append(ResultRow(
            measure: "parse a \(size / 1_000_000) MB, 5,000-episode feed, CPU s (median of 5)",
            subject: formatted(oursSeconds, 3), peer: "\(formatted(theirsSeconds, 3)) podcastparser",
            ratio: speedup, target: ">= 10 x faster", passed: speedup >= 10))

        // 50 subscriptions, each feed then changed: the refresh fetches and reads every one.
        let root = ScratchFiles.makeDirectory("podcast-bench-feeds")
        func writeFeeds(episodes: Int) throws {
            for index in 0..<50 {
                var items = ""
                for number in 0..<episodes {
                    items += "<item><title>Show \(index) episode \(number)</title><guid>show-\(index)-\(number)</guid>"
                        + "<pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><description>Notes \(number)</description>"
                        + "<enclosure url=\"media/\(index)-\(number).mp3\" length=\"1000\" type=\"audio/mpeg\"/></item>\n"
                }
                try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Show \(index)</title>\n"
                     + items + "</channel></rss>\n").write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
            }
        }
        try writeFeeds(episodes: 200)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        var opml = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>bench</title></head><body>\n"
        for index in 0..<50 { opml += "<outline type=\"rss\" text=\"Show \(index)\" xmlUrl=\"\(server.url("show-\(index).xml"))\"/>\n" }
        opml += "</body></opml>\n"
        let opmlPath = folder + "/subscriptions.opml"
        try opml.write(toFile: opmlPath, atomically: true, encoding: .utf8)
        let data = ScratchFiles.makeDirectory("podcast-bench-data")
        try ProcessRunner.run(interlude, ["podcast", "import", opmlPath], environment: ["XDG_DATA_HOME": data], timeout: 300).check()
        try writeFeeds(episodes: 210)
        // Through `measure` (bench/c/measure.c): a child spawned from here would start at this process's RSS.
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        let refresh = try ProcessRunner.run(measureTool, [statsPath, interlude, "podcast", "refresh"],
                                            environment: ["XDG_DATA_HOME": data], timeout: 300)
        guard refresh.succeeded, refresh.stdoutText.contains("Show 49: 10 new episodes") else { throw ProcessError.failed(refresh) }
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard let kilobytes = stats.first.flatMap({ Int($0) }) else {
            throw ProcessError.notReady("\(measureTool) left no statistics for the refresh")
        }
        let rss = Double(kilobytes) / 1024
        report.rows.append(ResultRow(
            measure: "podcast refresh of 50 feeds (200 -> 210 episodes each, all fetched), peak RSS MB",
            subject: formatted(rss, 1), peer: "", ratio: nil, target: "<= 30 MB", passed: rss <= 30))
        report.notes.append("podcasts: the feed parse is FeedDocument over bytes in memory (interlude bench feed) beside "
                            + "podcastparser.parse in CPython (time.process_time), each the median of 5 in one process")
    }
}

/// Keys served under 50 ms while a refresh
/// of 50 feeds runs. The full-screen player in tmux, the podcasts pane
/// shown; `U` starts the refresh of 50 changed feeds (200 -> 210 episodes,
/// so each is fetched, parsed and merged), five of them held by the server
/// until the keys are measured, so the refresh is under way for every
/// sample. Each sample is enter (a podcast's episodes) or `P` (back), timed
/// from `tmux send-keys` to the first `capture-pane` that shows its effect:
/// an upper bound, tmux's own round trips included. The peer is the same
/// keys with no refresh running.
extension Bench {
    func podcastKeyLatency(_ sink: NullSink) throws {
        guard interludeAvailable, !options.standIn else {
            report.notRun.append("podcast keys: needs the release interlude")
            return
        }
        let samples = 20
        progress("podcasts: \(samples) keys during a refresh of 50 feeds and \(samples) without, in tmux")
        let root = ScratchFiles.makeDirectory("podcast-keys-feeds")
        let held = Set(45..<50)
        func path(_ index: Int) -> String { (held.contains(index) ? "held/" : "") + "show-\(index).xml" }
        func writeFeeds(episodes: Int) throws {
            for index in 0..<50 {
                var items = ""
                for number in 0..<episodes {
                    items += "<item><title>Show \(index) episode \(number)</title><guid>show-\(index)-\(number)</guid>"
                        + "<pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><description>Notes \(number)</description>"
                        + "<enclosure url=\"media/\(index)-\(number).mp3\" length=\"1000\" type=\"audio/mpeg\"/></item>\n"
                }
                try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Show \(index)</title>\n"
                     + items + "</channel></rss>\n").write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
            }
        }
        try writeFeeds(episodes: 200)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        var opml = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>bench</title></head><body>\n"
        for index in 0..<50 { opml += "<outline type=\"rss\" text=\"Show \(index)\" xmlUrl=\"\(server.url(path(index)))\"/>\n" }
        opml += "</body></opml>\n"
        let opmlPath = ScratchFiles.makeDirectory("podcast-keys") + "/subscriptions.opml"
        try opml.write(toFile: opmlPath, atomically: true, encoding: .utf8)
        let data = ScratchFiles.makeDirectory("podcast-keys-data")
        try ProcessRunner.run(interlude, ["podcast", "import", opmlPath], environment: ["XDG_DATA_HOME": data], timeout: 300).check()
        try writeFeeds(episodes: 210)
        let config = ScratchFiles.makeDirectory("podcast-keys-config")
        try FileManager.default.createDirectory(atPath: config + "/interlude", withIntermediateDirectories: true)
        try "podcast-refresh-age = off\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        let file = try Fixtures.mp3(.sweep, seconds: 120, encoding: .cbr(kbps: 128))
        let player = try TmuxPlayer(sink: sink, command: [interlude, file, "--device", "pulse", "--foreground"],
                                    environment: ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": data + "/state"],
                                    ready: { $0.contains("▶ playing") })
        try player.tmux(["send-keys", "P"])
        try player.wait { $0.contains("P Podcasts (50)") }

        /// Samples taken while fewer than the 45 feeds not held were done (fetches and parses running beside the keys).
        var amidParsing = 0
        /// Milliseconds from each key to its effect: enter opens Show 0, P goes back.
        func keys(whileRefreshing: Bool) throws -> [Double] {
            var times: [Double] = []
            for sample in 0..<samples {
                let opens = sample % 2 == 0
                let start = monotonicSeconds()
                try player.tmux(["send-keys", opens ? "Enter" : "P"])
                while true {
                    let screen = player.screen()
                    if opens ? screen.contains("P Podcasts: Show 0 (") : screen.contains("P Podcasts (50)") {
                        guard !whileRefreshing || screen.contains("refreshing") else {
                            throw ProcessError.notReady("the refresh ended before the keys were measured")
                        }
                        if whileRefreshing, !screen.contains("refreshing 45/50") { amidParsing += 1 }
                        break
                    }
                    guard monotonicSeconds() - start < 10 else { throw ProcessError.notReady("no key's effect: \(screen)") }
                }
                times.append((monotonicSeconds() - start) * 1000)
            }
            return times
        }
        server.hold()
        try player.tmux(["send-keys", "U"])
        // From the refresh's first frame: the first samples fall while the other 45 feeds are fetched and parsed.
        try player.wait { $0.contains("refreshing ") }
        let during = try keys(whileRefreshing: true)
        server.release()
        try player.wait { $0.contains("refreshed 50 podcasts") }
        let idle = try keys(whileRefreshing: false)
        try player.tmux(["send-keys", "q"])

        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let worst = during.max() ?? 0
        report.rows.append(ResultRow(
            measure: "key to screen during a refresh of 50 feeds (tmux, \(samples) keys), ms median (max \(formatted(worst, 1)))",
            subject: formatted(median(during), 1), peer: "\(formatted(median(idle), 1)) no refresh (max \(formatted(idle.max() ?? 0, 1)))",
            ratio: median(during) / max(median(idle), 0.1), target: "every key < 50 ms", passed: worst < 50))
        report.notes.append("podcast keys: send-keys to the first capture-pane showing the key's effect, tmux's round trips "
                            + "included (an upper bound); five feeds held by the server so the refresh runs for every sample; "
                            + "\(amidParsing) of the \(samples) while the other 45 were still being fetched and parsed")
    }
}
