import Foundation
import Testing
import TestSupport

/// Subscriptions exported as OPML and imported into
/// another home are the same subscriptions; OPML as gPodder and AntennaPod
/// write it imports.
@Suite(.serialized) struct PodcastOPMLTests {
    static func feed(_ title: String) -> String {
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>
        <item><title>Only</title><guid isPermaLink="false">only</guid><enclosure url="a.mp3" length="5"/></item>
        </channel></rss>
        """
    }

    static let titles = ["Plain", "Ampersand &amp; &lt;angle&gt; \"quoted\"", "Ünïcödé 播客", "Tabs\tand  spaces"]

    func serve() throws -> FeedServer {
        let root = ScratchFiles.makeDirectory("opml-feeds")
        for (index, title) in Self.titles.enumerated() {
            try Self.feed(title).write(toFile: "\(root)/feed-\(index).xml", atomically: true, encoding: .utf8)
        }
        return try FeedServer.start(root: root)
    }

    func subscriptions(_ home: PodcastHome) throws -> [String: String] {
        Dictionary(try home.listJSON().map { ($0["url"] as? String ?? "", $0["title"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    @Test func exportThenImportGivesTheSameSubscriptions() throws {
        let server = try serve()
        defer { server.stop() }
        let home = PodcastHome()
        for index in Self.titles.indices {
            #expect(try home.add(server.url("feed-\(index).xml") + (index == 3 ? "?a=1&b=2" : "")) != nil)
        }
        let exported = try home.run(["export"])
        #expect(exported.succeeded)
        // What gPodder's and AntennaPod's readers look for.
        #expect(exported.stdoutText.contains("<opml version=\"2.0\">"))
        #expect(exported.stdoutText.components(separatedBy: "type=\"rss\"").count - 1 == Self.titles.count)
        let file = ScratchFiles.makeDirectory("opml") + "/export.opml"
        #expect(try home.run(["export", file]).succeeded)
        // The same document to a file as to standard output, but for the time of the
        // export (`dateCreated`, to the second: the two exports can fall on both sides of one).
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("<dateCreated>") && exported.stdoutText.contains("<dateCreated>"))
        #expect(Self.withoutDateCreated(written) == Self.withoutDateCreated(exported.stdoutText))

        let other = PodcastHome()
        let imported = try other.run(["import", file])
        #expect(imported.succeeded, "\(imported.summary)")
        #expect(imported.stdoutText.contains("imported 4 podcasts"))
        let original = try subscriptions(home)
        #expect(original.count == Self.titles.count)
        #expect(try subscriptions(other) == original)
        // Importing again adds nothing.
        #expect(try other.run(["import", file]).stdoutText.contains("imported 0 podcasts"))
        #expect(try other.listJSON().count == Self.titles.count)
    }

    /// `opml` with its `<dateCreated>` element taken out.
    static func withoutDateCreated(_ opml: String) -> String {
        guard let start = opml.range(of: "<dateCreated>"),
              let end = opml.range(of: "</dateCreated>", range: start.upperBound..<opml.endIndex) else { return opml }
        return String(opml[..<start.lowerBound] + opml[end.upperBound...])
    }

    /// gPodder's exporter puts the podcast's description in `text` and its
    /// title in `title`; AntennaPod writes both as the title and nests
    /// nothing, other apps nest outlines in folders.
    @Test func gPoddersAndAntennaPodsOPMLImports() throws {
        let server = try serve()
        defer { server.stop() }
        let gpodder = """
        <?xml version="1.0" encoding="utf-8"?>
        <opml version="2.0">
          <head>
            <title>gPodder subscriptions</title>
            <dateCreated>Wed, 02 Dec 2026 08:00:00 +0000</dateCreated>
          </head>
          <body>
            <outline title="Plain" text="A description, not the title" type="rss" xmlUrl="\(server.url("feed-0.xml"))"/>
            <outline title="Ünïcödé 播客" text="" type="rss" xmlUrl="\(server.url("feed-2.xml"))"/>
          </body>
        </opml>
        """
        let antennaPod = """
        <?xml version='1.0' encoding='UTF-8' standalone='no' ?>
        <opml version="2.0">
          <head><title>AntennaPod Subscriptions</title><dateCreated>02 Dec 26 08:00:00 +0000</dateCreated></head>
          <body>
            <outline text="Plain" title="Plain" type="rss" xmlUrl="\(server.url("feed-0.xml"))" htmlUrl="https://example.com/" />
            <outline text="Folder">
              <outline text="Tabs and spaces" type="rss" xmlUrl="\(server.url("feed-3.xml"))" />
            </outline>
          </body>
        </opml>
        """
        let folder = ScratchFiles.makeDirectory("opml")
        try gpodder.write(toFile: folder + "/gpodder.opml", atomically: true, encoding: .utf8)
        try antennaPod.write(toFile: folder + "/antennapod.opml", atomically: true, encoding: .utf8)
        let home = PodcastHome()
        let first = try home.run(["import", folder + "/gpodder.opml"])
        #expect(first.succeeded, "\(first.summary)")
        #expect(try subscriptions(home) == [server.url("feed-0.xml"): "Plain", server.url("feed-2.xml"): "Ünïcödé 播客"])
        let second = try home.run(["import", folder + "/antennapod.opml"])
        #expect(second.succeeded, "\(second.summary)")
        #expect(second.stdoutText.contains("imported 1 podcast "), "\(second.stdoutText)")
        // The import fetched the feeds: each has its episode, its title the feed's own.
        let podcasts = try home.listJSON()
        #expect(podcasts.count == 3)
        #expect(podcasts.allSatisfy { $0["episodes"] as? Int == 1 })
        #expect(try subscriptions(home)[server.url("feed-3.xml")] == "Tabs and spaces")

        try "<rss><channel/></rss>".write(toFile: folder + "/not.opml", atomically: true, encoding: .utf8)
        let refused = try home.run(["import", folder + "/not.opml"])
        #expect(refused.exitStatus == 1)
        #expect(refused.stderrText == "interlude: \(folder)/not.opml: not an OPML file (its root element is <rss>)\n")
    }
}
