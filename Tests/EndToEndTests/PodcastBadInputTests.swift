import Foundation
import Testing
import TestSupport

/// Bad feeds as `podcast add` meets them over HTTP.
@Suite(.serialized) struct PodcastBadInputTests {
    static func items(_ range: Range<Int>, extra: (Int) -> String = { _ in "" }) -> String {
        range.map { number in
            """
            <item><title>Episode \(number)</title><guid isPermaLink="false">guid-\(number)</guid>
            <pubDate>Tue, \(String(format: "%02d", 1 + number % 28)) Feb 2022 08:00:00 GMT</pubDate>
            <enclosure url="https://cdn.example.com/\(number).mp3" length="\(number + 1)" type="audio/mpeg"/>\(extra(number))</item>

            """
        }.joined()
    }

    static func rss(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Bad show</title>\n\(body)</channel></rss>\n"
    }

    func serve(_ files: [String: String]) throws -> FeedServer {
        let root = ScratchFiles.makeDirectory("bad-feeds")
        for (name, text) in files { try text.write(toFile: "\(root)/\(name)", atomically: true, encoding: .utf8) }
        return try FeedServer.start(root: root)
    }

    @Test func truncatedFeedKeepsTheEpisodesBeforeTheDamageWithOneLine() throws {
        let whole = Self.rss(Self.items(0..<10))
        let cut = String(whole.prefix(upTo: whole.range(of: "<title>Episode 7")!.upperBound))
        let server = try serve(["cut.xml": cut, "broken.xml": Self.rss(Self.items(0..<4) + "<item><title>a & b</title></item>" + Self.items(4..<6))])
        defer { server.stop() }
        let home = PodcastHome()
        for (name, kept) in [("cut.xml", 7), ("broken.xml", 4)] {
            let result = try home.run(["add", server.url(name)])
            #expect(result.succeeded, "\(result.summary)")
            let lines = result.stderrText.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderrText)")
            #expect(lines.first?.contains(server.url(name)) == true)
            #expect(lines.first?.contains("breaks off at line") == true)
            #expect(lines.first?.contains("kept the \(kept) episodes") == true, "\(result.stderrText)")
            let id = try #require(result.stdoutText.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
            let guids = try home.listJSON(id).compactMap { $0["guid"] as? String }
            #expect(Set(guids) == Set((0..<kept).map { "guid-\($0)" }))
        }
    }

    @Test func aFeedThatTurnedIntoAnHTMLPageIsRefusedInOneLine() throws {
        let page = "<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>Parked</title></head><body><p>This domain is for sale<br></body></html>\n"
        let xhtml = "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>moved</p></body></html>\n"
        let server = try serve(["feed.html": page, "xhtml.xml": xhtml, "opml.xml": "<opml version=\"2.0\"><body/></opml>"])
        defer { server.stop() }
        let home = PodcastHome()
        for name in ["feed.html", "xhtml.xml"] {
            let result = try home.run(["add", server.url(name)])
            #expect(result.exitStatus == 1)
            #expect(result.stderrText == "interlude: \(server.url(name)): an HTML page, not a podcast feed\n")
        }
        let other = try home.run(["add", server.url("opml.xml")])
        #expect(other.stderrText.contains("not a podcast feed (its root element is <opml>"), "\(other.stderrText)")
        let missing = try home.run(["add", server.url("nothing.xml")])
        #expect(missing.stderrText == "interlude: \(server.url("nothing.xml")): the server answered HTTP 404\n")
        #expect(try home.listJSON().isEmpty)
    }

    @Test func tenThousandEpisodesAreAllListed() throws {
        let server = try serve(["big.xml": Self.rss(Self.items(0..<10_000))])
        defer { server.stop() }
        let home = PodcastHome()
        let id = try #require(try home.add(server.url("big.xml")))
        let episodes = try home.listJSON(id)
        #expect(episodes.count == 10_000)
        #expect(Set(episodes.compactMap { $0["guid"] as? String }).count == 10_000)
    }

    /// A generator that repeats one GUID for every episode keeps them apart by
    /// their enclosures; an episode listed twice is one; one without a GUID is
    /// known by its link, else its enclosure.
    @Test func missingAndRepeatedGUIDs() throws {
        let body = """
        <item><title>One</title><guid isPermaLink="false">same</guid><enclosure url="https://cdn.example.com/1.mp3" length="1"/></item>
        <item><title>Two</title><guid isPermaLink="false">same</guid><enclosure url="https://cdn.example.com/2.mp3" length="2"/></item>
        <item><title>One</title><guid isPermaLink="false">same</guid><enclosure url="https://cdn.example.com/1.mp3" length="1"/></item>
        <item><title>Linked</title><link>https://example.com/linked</link><enclosure url="https://cdn.example.com/3.mp3"/></item>
        <item><title>Bare</title><enclosure url="https://cdn.example.com/4.mp3"/></item>
        <item><title>Nothing to know it by</title></item>

        """
        let server = try serve(["guids.xml": Self.rss(body)])
        defer { server.stop() }
        let home = PodcastHome()
        let id = try #require(try home.add(server.url("guids.xml")))
        let episodes = try home.listJSON(id)
        #expect(episodes.compactMap { $0["title"] as? String } == ["One", "Two", "Linked", "Bare"])
        #expect(episodes.compactMap { $0["id"] as? String }
                == ["same", "https://cdn.example.com/2.mp3", "https://example.com/linked", "https://cdn.example.com/4.mp3"])
        #expect(episodes.compactMap { $0["guid"] as? String }
                == ["same", "same", "https://example.com/linked", "https://cdn.example.com/4.mp3"])
    }

    @Test func htmlInDescriptionsIsShownAsText() throws {
        let body = Self.items(0..<1) { _ in
            "<description><![CDATA[<p>First <b>bold</b> &amp; <a href=\"https://x.example/\">a link</a></p><ul><li>one</li><li>two</li></ul>]]></description>"
        }
        let server = try serve(["html.xml": Self.rss(body)])
        defer { server.stop() }
        let home = PodcastHome()
        let id = try #require(try home.add(server.url("html.xml")))
        let description = try home.listJSON(id).first?["description"] as? String
        // As podcastparser's remove_html_tags gives it.
        #expect(description == "First bold & a link\n\n * one\n\n * two")
    }

    /// A feed declaring one entity of 300 KB: three episodes, then one
    /// whose description (or enclosure URL) references it `references` times.
    static func entityFeed(inAttribute: Bool, references: Int) -> String {
        let use = String(repeating: "&big;", count: references)
        let bad = inAttribute
            ? "<item><title>Big</title><guid>big</guid><enclosure url=\"https://cdn.example.com/\(use).mp3\" length=\"1\"/></item>\n"
            : "<item><title>Big</title><guid>big</guid><description>\(use)</description></item>\n"
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE rss [\n<!ENTITY big \"\(String(repeating: "x", count: 300_000))\">\n]>\n"
            + "<rss version=\"2.0\"><channel><title>Entity show</title>\n" + items(0..<3) + (references > 0 ? bad : "")
            + "</channel></rss>\n"
    }

    /// Each reference re-read at its place was 6 GB of text for libxml2 in
    /// the description (12 s), and held as one string in the URL.
    @Test("a feed whose one large entity is referenced 20,000 times, in text or in an attribute, breaks off in one line, within 2 s and 50 MB above the same command's reading of the feed without them",
          arguments: [false, true])
    func anEntityReferencedThousandsOfTimesBreaksTheFeedOff(inAttribute: Bool) throws {
        let server = try serve(["plain.xml": Self.entityFeed(inAttribute: inAttribute, references: 0),
                                "entities.xml": Self.entityFeed(inAttribute: inAttribute, references: 20_000)])
        defer { server.stop() }
        let baseline = try PodcastHome().run(["add", server.url("plain.xml")])
        #expect(baseline.succeeded && baseline.stderrText.isEmpty, "\(baseline.summary)")
        let home = PodcastHome()
        let result = try home.run(["add", server.url("entities.xml")])
        #expect(result.succeeded, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("interlude: \(server.url("entities.xml")): the feed breaks off at line ")
                && lines[0].hasSuffix("(its entity references expand to more than 4 MB); kept the 3 episodes before it"),
                "\(result.stderrText)")
        #expect(result.wallSeconds < 2, "\(result.wallSeconds) s")
        #expect(result.usage.maxRSSKilobytes - baseline.usage.maxRSSKilobytes < 50 * 1024,
                "\(baseline.usage.maxRSSKilobytes) KB without the references, \(result.usage.maxRSSKilobytes) KB with them")
        let id = try #require(result.stdoutText.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Set(try home.listJSON(id).compactMap { $0["guid"] as? String }) == ["guid-0", "guid-1", "guid-2"])
    }

    @Test("a feed trickled at 2 bytes a second ends at podcast-timeout in one line naming the URL")
    func aTrickledFeedEndsAtTheDeadline() throws {
        let server = try serve(["show.xml": Self.rss(Self.items(0..<3))])
        defer { server.stop() }
        let home = PodcastHome()
        try home.configure("podcast-timeout = 3s\n")
        let url = server.url("trickle/2/show.xml")
        let result = try home.run(["add", url])
        #expect(result.exitStatus == 1, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("interlude: \(url): no whole answer within 3 s ("), "\(result.stderrText)")
        #expect(result.wallSeconds < 15, "\(result.wallSeconds) s")
        #expect(try home.listJSON().isEmpty)
    }

    @Test("an episode trickled at 2 bytes a second is cut at podcast-timeout in one line naming its URL, the part kept")
    func aTrickledDownloadEndsAtTheDeadlineKeepingItsPart() throws {
        let root = ScratchFiles.makeDirectory("trickled-episode")
        try Data(repeating: 0x55, count: 100_000).write(to: URL(fileURLWithPath: "\(root)/episode.mp3"))
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let enclosure = server.url("trickle/2/episode.mp3")
        try Self.rss("<item><title>Slow</title><guid>slow</guid><enclosure url=\"\(enclosure)\" length=\"100000\" type=\"audio/mpeg\"/></item>\n")
            .write(toFile: "\(root)/show.xml", atomically: true, encoding: .utf8)
        let home = PodcastHome()
        try home.configure("podcast-timeout = 3s\n")
        #expect(try home.add(server.url("show.xml")) != nil)
        let result = try home.run(["download", "Bad show"])
        #expect(result.exitStatus == 1, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("interlude: \(enclosure): cut off after ")
                && lines[0].contains("not done within 3") && lines[0].hasSuffix("the partial download is kept and resumed next time"),
                "\(result.stderrText)")
        #expect(result.wallSeconds < 15, "\(result.wallSeconds) s")
        let parts = (FileManager.default.enumerator(atPath: home.data)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }
        #expect(parts.count == 1, "\(parts)")
    }
}
