import Foundation
import Testing
import TestSupport

/// For every feed the tests generate (iTunes tags
/// under any prefix, CDATA, entities, HTML, Atom, Podcasting 2.0 chapters,
/// relative URLs, missing and repeated GUIDs, missing titles, media:content,
/// serial order, date forms), the episodes `interlude podcast list NAME
/// --json` gives after `podcast add` over HTTP equal gPodder's podcastparser's:
/// title, date, GUID, enclosure URL and length, in its order.
@Suite(.serialized) struct PodcastFeedTests {
    @Test(arguments: [27, 28, 29])
    func episodesEqualPodcastparsers(seed: Int) throws {
        let root = ScratchFiles.makeDirectory("feeds")
        try FileManager.default.createDirectory(atPath: root + "/feeds", withIntermediateDirectories: true)
        try GeneratedFeeds.generate(into: root + "/feeds", seed: seed)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let home = PodcastHome()
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/feeds").filter { $0.hasSuffix(".xml") }.sorted()
        #expect(names.count == 6)
        for name in names {
            let url = server.url("feeds/" + name)
            let expected = try GeneratedFeeds.oracle(file: root + "/feeds/" + name, url: url)
            let expectedEpisodes = expected["episodes"] as? [[String: Any]] ?? []
            #expect(!expectedEpisodes.isEmpty, "podcastparser read no episode of \(name)")
            guard let id = try home.add(url) else {
                Issue.record("podcast add \(url) failed: \(try home.run(["list"]).summary)")
                continue
            }
            let listed = try home.listJSON(id)
            #expect(listed.count == expectedEpisodes.count, "\(name): \(listed.count) episodes, podcastparser \(expectedEpisodes.count)")
            for (index, (mine, theirs)) in zip(listed, expectedEpisodes).enumerated() {
                for field in ["title", "guid", "url"] {
                    #expect(mine[field] as? String == theirs[field] as? String,
                            "\(name) episode \(index) \(field): \(mine[field] ?? "nil") against \(theirs[field] ?? "nil")")
                }
                for field in ["published", "length"] {
                    #expect((mine[field] as? NSNumber)?.int64Value == (theirs[field] as? NSNumber)?.int64Value,
                            "\(name) episode \(index) \(field): \(mine[field] ?? "nil") against \(theirs[field] ?? "nil")")
                }
            }
            let podcasts = try home.listJSON()
            let podcast = podcasts.first { $0["id"] as? String == id }
            #expect(podcast?["title"] as? String == expected["title"] as? String)
            // itunes:new-feed-url moves the subscription (feed-moved.xml names one).
            let movedTo = expected["new_url"] as? String
            #expect(podcast?["url"] as? String == (movedTo ?? url), "\(name)")
        }
    }
}
