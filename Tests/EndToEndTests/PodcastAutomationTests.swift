import Foundation
import Testing
import TestSupport

/// `podcast-auto-download = N` downloads each podcast's
/// newest N episodes after a refresh, through the loopback feed server;
/// without it a refresh downloads nothing.
@Suite(.serialized) struct PodcastAutomationTests {
    static func feed(_ server: FeedServer, episodes: ClosedRange<Int>) -> String {
        let items = episodes.map { number in
            """
            <item><title>Episode \(number)</title><guid isPermaLink="false">auto-\(number)</guid>
            <pubDate>Mon, \(String(format: "%02d", number)) Jan 2024 10:00:00 +0000</pubDate>
            <enclosure url="\(server.url("media/\(number).mp3"))" length="5" type="audio/mpeg"/></item>

            """
        }
        return "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Auto Show</title>\n" + items.joined() + "</channel></rss>\n"
    }

    /// `podcast list NAME --json`'s download state of each episode, by title.
    static func downloads(_ home: PodcastHome, environment: [String: String]) throws -> [String: String] {
        let result = try InterludeBinary.run(["podcast", "list", "Auto Show", "--json"], environment: environment, timeout: 120)
        let episodes = (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]) ?? []
        return Dictionary(episodes.map { ($0["title"] as? String ?? "", $0["download"] as? String ?? "none") }, uniquingKeysWith: { $1 })
    }

    /// A show served from a folder named after `name`: subscribed while it had
    /// episodes 1-3, then given episode 4, so the next refresh finds one new.
    static func subscribedShow(_ name: String) throws -> (server: FeedServer, home: PodcastHome) {
        let root = ScratchFiles.makeDirectory(name)
        try FileManager.default.createDirectory(atPath: root + "/media", withIntermediateDirectories: true)
        for number in 1...4 { try "MEDIA".write(toFile: root + "/media/\(number).mp3", atomically: true, encoding: .utf8) }
        let server = try FeedServer.start(root: root)
        do {
            try feed(server, episodes: 1...3).write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
            let home = PodcastHome()
            _ = try #require(try home.add(server.url("feed.xml")))
            try feed(server, episodes: 1...4).write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
            return (server, home)
        } catch {
            server.stop()
            throw error
        }
    }

    @Test(arguments: [false, true])
    func aRefreshDownloadsTheNewestEpisodesWhenAsked(configured: Bool) throws {
        let (server, home) = try Self.subscribedShow("auto-feed")
        defer { server.stop() }
        let config = ScratchFiles.makeDirectory("auto-config")
        try FileManager.default.createDirectory(atPath: config + "/interlude", withIntermediateDirectories: true)
        try (configured ? "podcast-auto-download = 2\n" : "").write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        let environment = home.environment.merging(["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": ScratchFiles.makeDirectory("auto-state")]) { $1 }

        let refresh = try InterludeBinary.run(["podcast", "refresh"], environment: environment, timeout: 120)
        #expect(refresh.succeeded, "\(refresh.summary)")
        let states = try Self.downloads(home, environment: environment)
        if configured {
            #expect(states == ["Episode 4": "downloaded", "Episode 3": "downloaded", "Episode 2": "none", "Episode 1": "none"],
                    "\(states) \(refresh.summary)")
            #expect(refresh.stdoutText.contains("downloaded Episode 4"), "\(refresh.stdoutText)")
        } else {
            #expect(states.values.allSatisfy { $0 == "none" } && states.count == 4, "\(states)")
        }
    }

    /// The full-screen player's refresh (here the one at start, the feed a
    /// day old) downloads the newest episodes in the background, through
    /// the pane's download path.
    @Test func thePlayersRefreshDownloadsTheNewestEpisodesInTheBackground() throws {
        let (server, home) = try Self.subscribedShow("auto-player-feed")
        defer { server.stop() }
        // The subscription as a refresh a day ago would have left it.
        let file = home.data + "/interlude/podcasts.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        json["podcasts"] = (json["podcasts"] as? [[String: Any]] ?? []).map { podcast in
            var podcast = podcast
            podcast["refreshed"] = (podcast["refreshed"] as? Int ?? 0) - 86_400
            return podcast
        }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))

        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 140, rows: 40, arguments: ["\(music)/Tones/1 Morning.mp3"],
                                     environment: home.environment) { config in
            try "podcast-refresh-age = 12h\npodcast-auto-download = 2\n"
                .write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        // The refresh's summary line gives way to the downloads' at once: the files say it.
        var states: [String: String] = [:]
        for _ in 0..<300 {
            states = try Self.downloads(home, environment: home.environment)
            if states["Episode 3"] == "downloaded" && states["Episode 4"] == "downloaded" { break }
            usleep(100_000)
        }
        #expect(states == ["Episode 4": "downloaded", "Episode 3": "downloaded", "Episode 2": "none", "Episode 1": "none"],
                "\(states) \(session.screen())")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }
}
