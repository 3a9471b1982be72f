import Foundation
import Testing
import TestSupport

/// Podcasts in the full-screen player: the podcasts pane (P), its refresh
/// (U) and its downloads (W) and marks (M), against the loopback feed server.
///
/// Acceptance 3 without a clock: the server holds its answers to five of the
/// 51 feeds (`/held/`) until the test has pressed keys and seen what they did
/// on the screen while the pane still says the refresh is under way; only then
/// are the answers released. Keys and playback served meanwhile is shown by
/// their effects, not by how fast they came (the bench's row measures that).
@Suite(.serialized) struct PodcastPaneTests {
    @Test("the podcasts pane subscribes to a feed typed at its prompt (O), unsubscribes once y confirms it (Ctrl-X), imports an OPML file (I), and shows a podcast interlude podcast add subscribed to from another process, without U")
    func subscribeUnsubscribeAndImportFromThePaneWhichFollowsTheCommandLine() throws {
        let root = ScratchFiles.makeDirectory("pane-subscribe-feeds")
        for index in 1...3 {
            try PodcastRefreshTests.feed(index, episodes: 3).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        let opmlPath = ScratchFiles.makeDirectory("pane-subscribe-opml") + "/subscriptions.opml"
        try """
            <?xml version="1.0"?>
            <opml version="2.0"><head><title>t</title></head><body>
            <outline type="rss" text="Show 2" xmlUrl="\(server.url("show-2.xml"))"/>
            </body></opml>

            """.write(toFile: opmlPath, atomically: true, encoding: .utf8)
        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 120)
        let session = try TUISession(columns: 140, rows: 45, arguments: ["\(music)/Tones/1 Morning.mp3"],
                                     environment: home.environment) { config in
            try "podcast-refresh-age = off\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor("Morning").met, "\(session.screen())")
        try session.press("P")
        #expect(session.waitFor { $0.contains("P Podcasts (0)") && $0.contains("O subscribes to a feed") }.met, "\(session.screen())")
        func subscribed() throws -> [String] { try home.listJSON().compactMap { $0["title"] as? String }.sorted() }

        // Subscribe: the URL typed at the prompt, the feed fetched off the loop.
        try session.press("O")
        #expect(session.waitFor("subscribe to the feed at URL:").met, "\(session.screen())")
        try session.type(server.url("show-1.xml"))
        try session.press("Enter")
        let added = session.waitFor(20) { $0.contains("P Podcasts (1)") && $0.contains("Show 1  (3 episodes)") }
        #expect(added.met && added.screen.contains("added Show 1 (3 episodes)"), "\(added.screen)")
        #expect(try subscribed() == ["Show 1"])

        // Unsubscribe: asked first; anything but y keeps it.
        try session.press("C-x")
        #expect(session.waitFor("unsubscribe from Show 1? (y to confirm)").met, "\(session.screen())")
        try session.type("n")
        try session.press("Enter")
        #expect(session.waitFor("still subscribed to Show 1").met, "\(session.screen())")
        #expect(try subscribed() == ["Show 1"])
        try session.press("C-x")
        #expect(session.waitFor("unsubscribe from Show 1? (y to confirm)").met, "\(session.screen())")
        try session.type("y")
        try session.press("Enter")
        let removed = session.waitFor(20) { $0.contains("P Podcasts (0)") && !$0.contains("Show 1  (") }
        #expect(removed.met && removed.screen.contains("removed Show 1"), "\(removed.screen)")
        #expect(try subscribed() == [])

        // Import: the path typed at the prompt, then the new feed fetched.
        try session.press("I")
        #expect(session.waitFor("import the podcasts of the OPML file:").met, "\(session.screen())")
        try session.type(opmlPath)
        try session.press("Enter")
        let imported = session.waitFor(20) { $0.contains("P Podcasts (1)") && $0.contains("Show 2  (3 episodes") }
        #expect(imported.met, "\(imported.screen)")
        #expect(try subscribed() == ["Show 2"])

        // Another process subscribes: the pane shows it without U.
        let other = try home.run(["add", server.url("show-3.xml")])
        #expect(other.succeeded, "\(other.summary)")
        let followed = session.waitFor(20) { $0.contains("P Podcasts (2)") && $0.contains("Show 3  (3 episodes") }
        #expect(followed.met, "\(followed.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    static let count = 51
    static let held = Set(46..<51)
    static let changed = [4, 17, 33]

    /// The feed's path on the server: the five held ones under `/held/`.
    static func path(_ index: Int) -> String { (held.contains(index) ? "held/" : "") + "show-\(index).xml" }

    @Test func refreshFromThePaneKeepsKeysAndPlaybackServedWhileTheFeedsAreHeld() throws {
        let root = ScratchFiles.makeDirectory("pane-feeds")
        for index in 0..<Self.count {
            try PodcastRefreshTests.feed(index, episodes: 3).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        var opml = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>t</title></head><body>\n"
        for index in 0..<Self.count {
            opml += "<outline type=\"rss\" text=\"Show \(index)\" xmlUrl=\"\(server.url(Self.path(index)))\"/>\n"
        }
        opml += "</body></opml>\n"
        let opmlPath = ScratchFiles.makeDirectory("pane-opml") + "/subscriptions.opml"
        try opml.write(toFile: opmlPath, atomically: true, encoding: .utf8)
        let imported = try home.run(["import", opmlPath])
        #expect(imported.succeeded, "\(imported.summary)")

        // Three feeds gain two episodes each; one is gone (404).
        for index in Self.changed {
            try PodcastRefreshTests.feed(index, episodes: 5).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        try FileManager.default.removeItem(atPath: "\(root)/show-50.xml")

        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 120)
        let session = try TUISession(columns: 140, rows: 45, arguments: ["\(music)/Tones/1 Morning.mp3"],
                                     environment: home.environment) { config in
            // Not at start: this test refreshes by the key.
            try "podcast-refresh-age = off\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor("Morning").met, "\(session.screen())")
        try session.press("P")
        #expect(session.waitFor { $0.contains("P Podcasts (51)") && $0.contains("Show 17  (3 episodes)") }.met, "\(session.screen())")

        server.hold()
        let before = server.requests.count
        try session.press("U")
        let progress = session.waitFor { $0.contains("refreshing 46/51") }
        #expect(progress.met, "\(progress.screen)")
        // The 46 answered are in the server's log; the 5 held are not answered yet.
        #expect(server.requests.count - before == 46)

        // Keys while the five are held: enter opens a podcast, P goes back, 5 shows the log.
        try session.press("Enter")
        let opened = session.waitFor { $0.contains("P Podcasts: Show 0 (3)") && $0.contains("Show 0 episode 2") }
        #expect(opened.met && opened.screen.contains("refreshing 46/51"), "\(opened.screen)")
        try session.press("P")
        let back = session.waitFor { $0.contains("P Podcasts (51)") }
        #expect(back.met && back.screen.contains("refreshing 46/51"), "\(back.screen)")
        // Playback goes on: the elapsed time moves while the answers are held.
        let first = TUISession.elapsed(session.screen())
        let moved = session.waitFor { TUISession.elapsed($0).map { seconds in first.map { seconds > $0 } ?? false } ?? false }
        #expect(moved.met && moved.screen.contains("refreshing 46/51"), "\(moved.screen)")
        #expect(server.requests.count - before == 46, "nothing held was answered before the release")

        server.release()
        let done = session.waitFor(30) { $0.contains("refreshed 50 podcasts: 6 new episodes in 3 podcasts, 47 unchanged, 1 failed") }
        #expect(done.met, "\(done.screen)")
        #expect(!done.screen.contains("refreshing"), "\(done.screen)")

        let requests = Array(server.requests.dropFirst(before))
        #expect(requests.count == Self.count)
        #expect(requests.filter { $0.status == 304 }.count == 47, "\(requests.map { "\($0.path) \($0.status)" })")
        #expect(Set(requests.filter { $0.status == 200 }.map(\.path)) == Set(Self.changed.map { "/show-\($0).xml" }))
        #expect(requests.filter { $0.status == 404 }.map(\.path) == ["/held/show-50.xml"])

        // The pane: the new episodes counted and marked; the gone feed's problem on its row.
        #expect(session.waitFor("Show 17  (5 episodes, 2 new)").met, "\(session.screen())")
        try session.press("G")
        let last = session.waitFor("Show 50  (3 episodes)  [the server answered HTTP 404]")
        #expect(last.met, "\(last.screen)")
        try session.press("g")
        // One line in the event log for the feed that failed.
        try session.press("5")
        let log = session.waitFor { $0.contains("5 Event log") && $0.contains("show-50.xml") }
        #expect(log.met, "\(log.screen)")
        // The line wraps in the pane: its URL on the first row, the status on the next.
        #expect(TUISession.logLines(log.screen, containing: "show-50.xml").count == 1, "\(log.screen)")
        #expect(TUISession.logLines(log.screen, containing: "the server answered HTTP 404").count == 1, "\(log.screen)")
        #expect(TUISession.logLines(log.screen, containing: "error message=").count == 1, "\(log.screen)")

        try session.press("P")
        for _ in 0..<17 { try session.press("Down") }
        try session.press("Enter")
        let episodes = session.waitFor { $0.contains("P Podcasts: Show 17 (5)") }
        #expect(episodes.met, "\(episodes.screen)")
        let rows = episodes.screen.components(separatedBy: "\n")
        #expect(rows.filter { $0.contains("[new]") }.count == 2, "\(episodes.screen)")
        #expect(rows.contains { $0.contains("Show 17 episode 4") && $0.contains("[new]") }, "\(episodes.screen)")
        #expect(rows.contains { $0.contains("Show 17 episode 0") && !$0.contains("[new]") }, "\(episodes.screen)")

        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    /// W downloads the selected episode in the background (the row says how far
    /// while the server holds the media), M marks it played and unplayed, and
    /// enter plays it from the download.
    @Test func downloadAndMarkFromThePane() throws {
        let root = ScratchFiles.makeDirectory("pane-media")
        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let media = "\(music)/Tones/1 Morning.mp3"
        try FileManager.default.createDirectory(atPath: "\(root)/media", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: media, toPath: "\(root)/media/one.mp3")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: media)[.size] as? Int)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
        <title>Tone Talk</title>
        <item><title>First tone</title><guid isPermaLink="false">tone-1</guid>
        <pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><itunes:duration>1:00</itunes:duration>
        <enclosure url="held/media/one.mp3" length="\(size)" type="audio/mpeg"/></item>
        </channel></rss>

        """.write(toFile: "\(root)/tones.xml", atomically: true, encoding: .utf8)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        #expect(try home.add(server.url("tones.xml")) != nil)

        let session = try TUISession(columns: 140, rows: 40, arguments: [media], environment: home.environment) { config in
            try "podcast-refresh-age = off\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor("Morning").met, "\(session.screen())")
        try session.press("P")
        #expect(session.waitFor("Tone Talk  (1 episode)").met, "\(session.screen())")
        try session.press("Enter")
        #expect(session.waitFor { $0.contains("P Podcasts: Tone Talk (1)") && $0.contains("First tone  1:00") }.met,
               "\(session.screen())")

        server.hold()
        try session.press("W")
        let downloading = session.waitFor { $0.contains("First tone  1:00  [downloading") && $0.contains("podcasts: downloading") }
        #expect(downloading.met, "\(downloading.screen)")
        server.release()
        let downloaded = session.waitFor(30) { $0.contains("First tone  1:00  [downloaded]") && $0.contains("downloaded First tone") }
        #expect(downloaded.met, "\(downloaded.screen)")
        #expect(server.requests.filter { $0.path == "/held/media/one.mp3" }.map(\.status) == [200])

        try session.press("M")
        #expect(session.waitFor("First tone  1:00  [played]  [downloaded]").met, "\(session.screen())")
        // `podcast list` reads the same place: the books' state the player wrote (the session's state folder).
        let listed = try InterludeBinary.run(["podcast", "list", "Tone Talk", "--json"],
                                             environment: home.environment.merging(["XDG_STATE_HOME": session.directory + "/state"]) { $1 })
        let rows = try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]
        #expect(rows?.first?["played"] as? Bool == true, "\(listed.summary)")
        try session.press("M")
        let unplayed = session.waitFor { $0.contains("First tone: marked unplayed") && $0.contains("First tone  1:00  [downloaded]") }
        #expect(unplayed.met, "\(unplayed.screen)")

        // Enter plays it from the download: no request for the media after it.
        let asked = server.requests.count
        try session.press("Enter")
        #expect(session.waitFor { $0.contains("opening First tone") }.met, "\(session.screen())")
        #expect(server.requests.count == asked)

        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    /// At start the feeds are refreshed when one was last refreshed longer ago
    /// than `podcast-refresh-age`: here every subscription is dated a day back.
    @Test func feedsOlderThanTheConfiguredAgeAreRefreshedAtStart() throws {
        let root = ScratchFiles.makeDirectory("start-feeds")
        for index in 0..<3 {
            try PodcastRefreshTests.feed(index, episodes: 2).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        for index in 0..<3 { #expect(try home.add(server.url("show-\(index).xml")) != nil) }
        try PodcastRefreshTests.feed(1, episodes: 4).write(toFile: "\(root)/show-1.xml", atomically: true, encoding: .utf8)
        // The subscriptions as a refresh a day ago would have left them.
        let file = home.data + "/interlude/podcasts.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let podcasts = try #require(json["podcasts"] as? [[String: Any]])
        json["podcasts"] = podcasts.map { podcast in
            var podcast = podcast
            podcast["refreshed"] = (podcast["refreshed"] as? Int ?? 0) - 86_400
            return podcast
        }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))
        let before = server.requests.count

        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 140, rows: 40, arguments: ["\(music)/Tones/1 Morning.mp3"],
                                     environment: home.environment) { config in
            try "podcast-refresh-age = 12h\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        let done = session.waitFor(30) { $0.contains("refreshed 3 podcasts: 2 new episodes in 1 podcast, 2 unchanged, 0 failed") }
        #expect(done.met, "\(done.screen)")
        let requests = Array(server.requests.dropFirst(before))
        #expect(requests.map(\.status).sorted() == [200, 304, 304], "\(requests)")
        try session.press("P")
        #expect(session.waitFor("Show 1  (4 episodes, 2 new)").met, "\(session.screen())")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    /// The socket has the pane's commands (the one table): `interlude remote
    /// podcast-refresh`, `podcast-mark` and `podcast-download` with words.
    @Test func theSocketRefreshesMarksAndDownloads() throws {
        let root = ScratchFiles.makeDirectory("socket-feeds")
        let music = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let media = "\(music)/Tones/1 Morning.mp3"
        try FileManager.default.createDirectory(atPath: "\(root)/media", withIntermediateDirectories: true)
        for number in 0..<3 { try FileManager.default.copyItem(atPath: media, toPath: "\(root)/media/1-\(number).mp3") }
        for index in 0..<2 {
            try PodcastRefreshTests.feed(index, episodes: 2).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        for index in 0..<2 { #expect(try home.add(server.url("show-\(index).xml")) != nil) }
        try PodcastRefreshTests.feed(1, episodes: 3).write(toFile: "\(root)/show-1.xml", atomically: true, encoding: .utf8)

        let session = try TUISession(columns: 140, rows: 40, arguments: [media], environment: home.environment) { config in
            try "podcast-refresh-age = off\n".write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor("Morning").met, "\(session.screen())")
        #expect(Remote.waitForPlayer(session.playerRuntimeDirectory))
        let refresh = try Remote.run(session.playerRuntimeDirectory, ["podcast-refresh"])
        #expect(refresh.succeeded && refresh.stdoutText.contains("refreshing 2 podcasts"), "\(refresh.summary)")
        #expect(session.waitFor("refreshed 2 podcasts: 1 new episode in 1 podcast, 1 unchanged, 0 failed").met, "\(session.screen())")

        // These feeds give no itunes:duration: an episode never played has no end to be put at, and says so in one line.
        let mark = try Remote.run(session.playerRuntimeDirectory, ["podcast-mark", "Show 1", "Show 1 episode 0", "played"])
        #expect(mark.succeeded, "\(mark.summary)")
        let unknown = session.waitFor { $0.contains("Show 1 episode 0: its length is not known until it is played") }
        #expect(unknown.met, "\(unknown.screen)")
        let refused = try Remote.run(session.playerRuntimeDirectory, ["podcast-mark", "Show 1", "Show 1 episode 0", "heard"])
        #expect(refused.exitStatus == 2 || refused.exitStatus == 1, "\(refused.summary)")
        #expect(refused.stderrText.contains("played or unplayed"), "\(refused.summary)")

        let download = try Remote.run(session.playerRuntimeDirectory, ["podcast-download", "Show 1"])
        #expect(download.succeeded && download.stdoutText.contains("downloading Show 1"), "\(download.summary)")
        try session.press("P")
        try session.press("Down")
        try session.press("Enter")
        let shown = session.waitFor { screen in
            screen.contains("P Podcasts: Show 1 (3)") && screen.components(separatedBy: "\n").contains {
                $0.contains("Show 1 episode 2") && $0.contains("[new]") && $0.contains("[downloaded]")
            } && screen.components(separatedBy: "\n").contains { $0.contains("Show 1 episode 0") && !$0.contains("[played]") }
        }
        #expect(shown.met, "\(shown.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }
}
