import LibraryIO
import Books
import Foundation
import InterludeCore
@testable import Interlude
import Podcasts
import Testing
import TestSupport

/// `podcast-remove-played` and `podcast-auto-download`
/// over real files (a podcast's store, its downloads, the episodes' book
/// states), the clock given: a download is removed once the age has passed
/// since the episode was marked played, not before; the newest episodes not
/// downloaded are the ones to fetch.
@Suite struct PodcastAutomationRunTests {
    static let marked = WallInstant(secondsSince1970: 1_700_000_000)
    static let day: Int64 = 86_400

    struct Show {
        let store: PodcastStore
        let books: BookStateStore
        let episodes: [StoredEpisode]

        func download(_ index: Int) -> String { EpisodeFiles.download(in: store.folder(of: "show"), episode: episodes[index]) }
        func has(_ index: Int) -> Bool { FileManager.default.fileExists(atPath: download(index)) }

        /// Marked played at `when`, as the podcasts pane marks it: the place at the end.
        func markPlayed(_ index: Int, at when: WallInstant) {
            let update = books.update(EpisodeOpener.identity(podcast: "show", episode: episodes[index].id), now: when,
                                      fallback: .start) { state in
                state.positionMilliseconds = 60_000
                state.fileOffsetMilliseconds = 60_000
                state.durationMilliseconds = 60_000
                state.updated = when
            }
            #expect(update.failure == nil)
        }
    }

    /// One podcast of three episodes, a day apart, the first two downloaded.
    static func show() throws -> Show {
        let folder = ScratchFiles.makeDirectory("automation")
        let store = PodcastStore(dataDirectory: folder + "/data")
        let books = BookStateStore(directory: folder + "/books")
        _ = try store.update(now: marked) { (subscriptions: inout [PodcastSubscription]) throws(Never) in
            subscriptions = [PodcastSubscription(id: "show", url: "https://example.com/feed.xml", title: "Show", added: 0)]
        }
        let episodes = (1...3).map { number in
            StoredEpisode(id: "e\(number)", episode: Episode(guid: "g\(number)", title: "Episode \(number)",
                                                               published: 1_600_000_000 + Int64(number) * day,
                                                               enclosure: Enclosure(url: "https://example.com/\(number).mp3")),
                          isNew: false, firstSeen: 0)
        }
        _ = try store.updateEpisodes(of: "show", now: marked) { $0 = episodes }
        let show = Show(store: store, books: books, episodes: episodes)
        try FileManager.default.createDirectory(atPath: store.folder(of: "show"), withIntermediateDirectories: true)
        for index in 0..<2 { #expect(FileManager.default.createFile(atPath: show.download(index), contents: Data([1, 2, 3]))) }
        return show
    }

    @Test func aPlayedDownloadIsRemovedOnceTheAgeHasPassedSinceItWasMarked() throws {
        let show = try Self.show()
        show.markPlayed(0, at: Self.marked)
        let run = PodcastAutomationRun(newest: 0, removePlayedAfter: 7 * Self.day)
        let early = run.apply(store: show.store, books: show.books,
                              now: WallInstant(secondsSince1970: Self.marked.secondsSince1970 + 7 * Self.day - 1))
        #expect(early.removed.isEmpty && early.downloads.isEmpty)
        #expect(show.has(0) && show.has(1))
        let due = run.apply(store: show.store, books: show.books,
                            now: WallInstant(secondsSince1970: Self.marked.secondsSince1970 + 7 * Self.day))
        #expect(due.removed == ["removed the download of Episode 1 (played)"])
        // The unplayed download stays.
        #expect(!show.has(0) && show.has(1))
    }

    @Test func theNewestEpisodesNeitherDownloadedNorPlayedAreToBeDownloaded() throws {
        let show = try Self.show()
        let now = WallInstant(secondsSince1970: Self.marked.secondsSince1970 + 1)
        #expect(PodcastAutomationRun(newest: 1, removePlayedAfter: 0).apply(store: show.store, books: show.books, now: now).downloads
                == [.init(podcast: "show", episode: "e3", title: "Episode 3")])
        // The second newest is downloaded; the oldest, played (its download gone), is not fetched again.
        try FileManager.default.removeItem(atPath: show.download(0))
        show.markPlayed(0, at: Self.marked)
        #expect(PodcastAutomationRun(newest: 3, removePlayedAfter: 0).apply(store: show.store, books: show.books, now: now).downloads
                == [.init(podcast: "show", episode: "e3", title: "Episode 3")])
    }
}
