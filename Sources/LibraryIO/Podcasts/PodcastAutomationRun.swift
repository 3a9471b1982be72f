import LoopIO
import Books
import InterludeCore
import PlayerModel
import Podcasts
#if canImport(Glibc)
import Glibc
#endif

/// `podcast-auto-download` and `podcast-remove-played` applied after a
/// refresh (`PodcastAutomation` decides): the played downloads removed here,
/// the episodes to download handed back for the caller's download path (the
/// player's background downloads, or `podcast refresh`'s own in turn).
package struct PodcastAutomationRun {
    /// Each podcast's newest episodes to download (0: none).
    package var newest: Int
    /// Downloads of episodes played this many seconds ago are removed (0: never).
    package var removePlayedAfter: Int64

    /// An episode to download.
    package struct Download: Sendable, Equatable {
        package var podcast: String
        package var episode: String
        package var title: String

        package init(podcast: String, episode: String, title: String) {
            self.podcast = podcast
            self.episode = episode
            self.title = title
        }
    }

    package struct Outcome: Sendable {
        package var downloads: [Download] = []
        /// "removed the download of TITLE (played 9 days ago)", one a file.
        package var removed: [String] = []
        /// Files that could not be removed.
        package var problems: [String] = []
    }

    /// The config file's settings; nil when both are off.
    package static func configured(_ config: PlayerConfigFile) -> PodcastAutomationRun? {
        let run = PodcastAutomationRun(newest: config.podcastAutoDownload ?? 0,
                                       removePlayedAfter: Int64(config.podcastRemovePlayed ?? 0))
        return run.newest > 0 || run.removePlayedAfter > 0 ? run : nil
    }

    package func apply(store: PodcastStore, books: BookStateStore, now: WallInstant) -> Outcome {
        var outcome = Outcome()
        let seconds = now.secondsSince1970
        for subscription in store.load(now: now).subscriptions {
            let stored = store.loadEpisodes(of: subscription.id, now: now).episodes
            let folder = store.folder(of: subscription.id)
            let statuses = stored.map { episode in
                Self.status(episode, podcast: subscription.id, folder: folder, books: books, now: now)
            }
            let byID = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in PodcastAutomation.removals(playedBefore: removePlayedAfter, now: seconds, of: statuses) {
                guard let episode = byID[id] else { continue }
                let file = EpisodeFiles.download(in: folder, episode: episode)
                if unlink(file) == 0 || errno == ENOENT {
                    outcome.removed.append("removed the download of \(episode.episode.title) (played)")
                } else {
                    outcome.problems.append("cannot remove \(file): \(String(cString: strerror(errno)))")
                }
            }
            for id in PodcastAutomation.downloads(newest: newest, of: statuses) {
                guard let episode = byID[id] else { continue }
                outcome.downloads.append(Download(podcast: subscription.id, episode: id, title: episode.episode.title))
            }
        }
        return outcome
    }

    /// An episode's download and played mark as the podcasts pane shows them.
    package static func status(_ stored: StoredEpisode, podcast: String, folder: String, books: BookStateStore,
                       now: WallInstant) -> PodcastAutomation.Status {
        let loaded = books.load(EpisodeOpener.identity(podcast: podcast, episode: stored.id), now: now)
        let state = loaded.problem == nil && loaded.state.updated != BookState.start.updated ? loaded.state : nil
        // Played: heard to within two seconds of its end, the pane's rule; its last change is when.
        let playedAt = state.flatMap { state -> Int64? in
            guard let duration = state.durationMilliseconds, duration > 0, duration - state.positionMilliseconds < 2_000 else { return nil }
            return state.updated.secondsSince1970
        }
        var info = stat()
        let downloaded = stat(EpisodeFiles.download(in: folder, episode: stored), &info) == 0
        return PodcastAutomation.Status(id: stored.id, published: stored.episode.published,
                                        hasEnclosure: stored.episode.enclosure != nil, downloaded: downloaded, playedAt: playedAt)
    }

    package init(newest: Int, removePlayedAfter: Int64) {
        self.newest = newest
        self.removePlayedAfter = removePlayedAfter
    }
}

extension PlayerConfigFile {
    /// `podcast-refresh-age` in seconds, nil for never at start (0).
    package var podcastRefreshAgeSeconds: Double? {
        let seconds = podcastRefreshAge ?? PlayerConfigFile.defaultPodcastRefreshAge
        return seconds > 0 ? seconds : nil
    }
}
