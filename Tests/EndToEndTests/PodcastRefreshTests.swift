import Foundation
import Testing
import TestSupport

/// A podcast refresh (its timing is the bench's): a
/// refresh of 51 subscriptions from the loopback server, 3 of whose feeds
/// changed and one of which now fails: the 3 get their new episodes (marked
/// new), the other 47 are asked conditionally and answered 304 (the
/// server's log says so), and the failing feed gives one line.
@Suite(.serialized) struct PodcastRefreshTests {
    static func feed(_ index: Int, episodes: Int) -> String {
        var items = ""
        for number in 0..<episodes {
            items += """
            <item><title>Show \(index) episode \(number)</title><guid isPermaLink="false">show-\(index)-\(number)</guid>
            <pubDate>Mon, \(String(format: "%02d", 1 + number % 28)) Jan 2024 10:00:00 +0000</pubDate>
            <enclosure url="media/\(index)-\(number).mp3" length="\(1000 + number)" type="audio/mpeg"/></item>

            """
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
        <title>Show \(index)</title>
        \(items)</channel></rss>

        """
    }

    @Test func refreshAsksConditionallyAndStoresOnlyWhatChanged() throws {
        let root = ScratchFiles.makeDirectory("refresh-feeds")
        let count = 51
        for index in 0..<count {
            try Self.feed(index, episodes: 3).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        var opml = "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><head><title>t</title></head><body>\n"
        for index in 0..<count {
            opml += "<outline type=\"rss\" text=\"Show \(index)\" xmlUrl=\"\(server.url("show-\(index).xml"))\"/>\n"
        }
        opml += "</body></opml>\n"
        let opmlPath = ScratchFiles.makeDirectory("opml") + "/subscriptions.opml"
        try opml.write(toFile: opmlPath, atomically: true, encoding: .utf8)
        let imported = try home.run(["import", opmlPath])
        #expect(imported.succeeded, "\(imported.summary)")
        #expect(server.requests.filter { $0.status == 200 }.count == count)
        #expect(try home.listJSON().allSatisfy { $0["episodes"] as? Int == 3 && $0["new"] as? Int == 0 })

        // Three feeds gain two episodes each; one feed is gone (404).
        let changed = [4, 17, 33]
        for index in changed {
            try Self.feed(index, episodes: 5).write(toFile: "\(root)/show-\(index).xml", atomically: true, encoding: .utf8)
        }
        try FileManager.default.removeItem(atPath: "\(root)/show-50.xml")
        let before = server.requests.count

        let refresh = try home.run(["refresh", "--parallel", "6"])
        #expect(refresh.exitStatus == 1, "a failing feed makes the refresh fail: \(refresh.summary)")
        let requests = Array(server.requests.dropFirst(before))
        #expect(requests.count == count)
        #expect(requests.filter { $0.status == 304 }.count == 47, "\(requests.map { "\($0.path) \($0.status)" })")
        #expect(Set(requests.filter { $0.status == 200 }.map(\.path)) == Set(changed.map { "/show-\($0).xml" }))
        #expect(requests.filter { $0.status == 404 }.map(\.path) == ["/show-50.xml"])

        let errorLines = refresh.stderrText.split(separator: "\n")
        #expect(errorLines.count == 1, "\(refresh.stderrText)")
        #expect(errorLines.first?.contains(server.url("show-50.xml")) == true)
        #expect(errorLines.first?.contains("404") == true)
        for index in changed {
            #expect(refresh.stdoutText.contains("Show \(index): 2 new episodes"), "\(refresh.stdoutText)")
        }

        let podcasts = try home.listJSON()
        #expect(podcasts.count == count)
        for podcast in podcasts {
            let title = podcast["title"] as? String ?? ""
            let index = Int(title.split(separator: " ").last ?? "") ?? -1
            let isChanged = changed.contains(index)
            #expect(podcast["episodes"] as? Int == (isChanged ? 5 : 3), "\(title)")
            #expect(podcast["new"] as? Int == (isChanged ? 2 : 0), "\(title)")
            #expect((podcast["problem"] as? String)?.contains("404") ?? false == (index == 50), "\(title)")
        }
        // The new ones are the episodes the feed added, marked new.
        let changedID = try #require(podcasts.first { $0["title"] as? String == "Show 17" }?["id"] as? String)
        let episodes = try home.listJSON(changedID)
        #expect(Set(episodes.filter { $0["new"] as? Bool == true }.compactMap { $0["guid"] as? String }) == ["show-17-3", "show-17-4"])
    }

    /// A permanent redirect moves the subscription; a temporary one does not.
    @Test func permanentRedirectMovesTheSubscription() throws {
        let root = ScratchFiles.makeDirectory("redirect-feeds")
        try Self.feed(1, episodes: 2).write(toFile: "\(root)/one.xml", atomically: true, encoding: .utf8)
        try Self.feed(2, episodes: 2).write(toFile: "\(root)/two.xml", atomically: true, encoding: .utf8)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        let moved = try #require(try home.add(server.url("moved/one.xml")))
        let found = try #require(try home.add(server.url("found/two.xml")))
        let podcasts = try home.listJSON()
        #expect(podcasts.first { $0["id"] as? String == moved }?["url"] as? String == server.url("one.xml"))
        #expect(podcasts.first { $0["id"] as? String == found }?["url"] as? String == server.url("found/two.xml"))
        // Relative enclosures resolve against where the feed came from.
        #expect(try home.listJSON(moved).first?["url"] as? String == server.url("media/1-1.mp3"))
    }
}
