import Testing
@testable import Podcasts

/// Where downloads go, how a listener names an episode, and Podcasting 2.0 chapters files.
@Suite struct EpisodeFilesTests {
    static func stored(_ id: String, _ title: String, url: String = "http://h/e.mp3") -> StoredEpisode {
        StoredEpisode(id: id, episode: Episode(guid: id, title: title, enclosure: Enclosure(url: url)), isNew: false, firstSeen: 0)
    }

    @Test(arguments: [
        ("http://h/a/episode.mp3", "mp3"), ("http://h/a/episode.M4A?token=1", "m4a"), ("http://h/a/episode", "audio"),
        ("http://h/a.b/episode", "audio"), ("http://h/e.toolongext", "audio"), ("http://h/e.mp3#t=10", "mp3"), ("", "audio"),
        ("http://h/e.m%34a", "audio"),
    ])
    func theDownloadKeepsAShortExtensionOfItsURL(url: String, expected: String) {
        #expect(EpisodeFiles.fileExtension(of: url) == expected)
    }

    @Test func theDownloadIsNamedByTheEpisodesIdentityInItsPodcastsFolder() {
        let episode = Self.stored("guid-1", "One")
        let path = EpisodeFiles.download(in: "/data/podcasts/abc", episode: episode)
        #expect(path == "/data/podcasts/abc/" + PodcastSubscription.id(for: "guid-1") + ".mp3")
        #expect(EpisodeFiles.part(of: path) == path + ".part")
        #expect(EpisodeFiles.download(in: "/d", episode: Self.stored("guid-2", "One")) != EpisodeFiles.download(in: "/d", episode: episode))
    }

    @Test func anEpisodeIsNamedByNumberIdentityGUIDOrTitle() throws {
        let episodes = [Self.stored("a", "Morning news"), Self.stored("b", "Evening news"), Self.stored("c", "Evening extra")]
        #expect(try EpisodeFiles.find("2", in: episodes).get().id == "b")
        #expect(try EpisodeFiles.find("c", in: episodes).get().id == "c")
        #expect(try EpisodeFiles.find("morning", in: episodes).get().id == "a")
        #expect(EpisodeFiles.find("evening", in: episodes) == .failure(.several("evening", ["Evening news", "Evening extra"])))
        #expect(EpisodeFiles.find("4", in: episodes) == .failure(.none("4")))
        #expect(EpisodeFiles.find("1", in: []) == .failure(.none("1")))
    }

    @Test func chaptersFilesAreReadInStartOrderAndBadEntriesLeftOut() throws {
        let text = """
        {"version": "1.2.0", "chapters": [
          {"startTime": 120.5, "title": "Second"}, {"startTime": 0, "title": "Intro"},
          {"startTime": -3, "title": "Negative"}, {"startTime": 1e300, "title": "Far"}, {"title": "No start"},
          {"startTime": 60, "title": "Toc off", "toc": false}, {"startTime": 90}
        ]}
        """
        let chapters = try PodcastChapters.parse(Array(text.utf8))
        #expect(chapters.map(\.title) == ["Intro", "Toc off", "Second"])
        #expect(chapters.map(\.startMilliseconds) == [0, 60_000, 120_500])
        #expect(throws: PodcastChaptersError.self) { try PodcastChapters.parse(Array("{\"version\": 1}".utf8)) }
        #expect(throws: PodcastChaptersError.self) { try PodcastChapters.parse(Array("<html>".utf8)) }
    }
}
