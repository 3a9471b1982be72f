import Testing
@testable import Podcasts

/// Relative URLs resolve as Python's `urljoin` resolves them (podcastparser's
/// oracle is Python), and feed URLs normalize as `normalize_feed_url`.
@Suite struct FeedURLTests {
    static let base = "http://127.0.0.1:8000/feeds/show.xml"

    @Test(arguments: [
        ("media/ep1.mp3", "http://127.0.0.1:8000/feeds/media/ep1.mp3"),
        ("/abs/ep2.mp3", "http://127.0.0.1:8000/abs/ep2.mp3"),
        ("../up/ep3.mp3", "http://127.0.0.1:8000/up/ep3.mp3"),
        ("../../../x.mp3", "http://127.0.0.1:8000/x.mp3"),
        ("ep4.mp3?token=1&x=1", "http://127.0.0.1:8000/feeds/ep4.mp3?token=1&x=1"),
        ("//cdn.example.com/a.mp3", "http://cdn.example.com/a.mp3"),
        ("https://other.example/b.mp3", "https://other.example/b.mp3"),
        ("urn:uuid:1234", "urn:uuid:1234"),
        ("tag:example.com,2020:1", "tag:example.com,2020:1"),
        ("?page=2", "http://127.0.0.1:8000/feeds/show.xml?page=2"),
        ("", "http://127.0.0.1:8000/feeds/show.xml"),
        ("  \n  ep/1", "http://127.0.0.1:8000/feeds/ep/1"),
    ])
    func resolvesAsPythonsURLJoin(reference: String, expected: String) {
        #expect(FeedURL.resolve(reference, against: Self.base) == expected)
    }

    @Test func normalizesAsPodcastparser() {
        #expect(FeedURL.normalized("HTTP://CDN.Example.COM/Mixed/ep3.mp3") == "http://cdn.example.com/Mixed/ep3.mp3")
        #expect(FeedURL.normalized("https://cdn.example.com") == "https://cdn.example.com/")
        #expect(FeedURL.normalized("itpc://example.org/podcast.rss") == "http://example.org/podcast.rss")
        #expect(FeedURL.normalized("example.org/feed") == "http://example.org/feed")
        #expect(FeedURL.normalized("gopher://gopher.example/file.txt") == nil)
        #expect(FeedURL.normalized("http://") == nil)
    }

    @Test func untitledEpisodesTakeTheFileName() {
        #expect(FeedURL.baseNameWithoutExtension("http://h/media/ep8.mp3") == "ep8")
        #expect(FeedURL.baseNameWithoutExtension("http://h/a/") == "")
    }
}
