import LoopIO
import Books
import InterludeCore
import PlayerModel
import Podcasts
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The podcasts inside the player (a `LoopSource`): the podcasts pane's
/// rows, the refresh, the downloads and the played marks. Every read and
/// write of the podcasts' files and every transfer runs on a thread of its
/// own (`BackgroundThread`); what it finds comes back through an eventfd
/// and is taken on the main loop, so keys, playback, alarms and the socket
/// are served while a refresh of fifty feeds waits on the network.
package final class PlayerPodcasts: LoopSource {
    /// What the threads hand back.
    package enum Message: Sendable {
        /// `reading` numbers the listings in the order they started to read the files.
        case listed([PodcastRow], stale: Bool, reading: Int)
        case refreshProgress(done: Int, total: Int)
        case refreshed(lines: [String], summary: String)
        case downloadProgress(key: String, bytes: Int64, whole: Int64?)
        case downloaded(key: String, line: String, failed: Bool)
        case marked(problem: String?)
        /// A subscription, an unsubscription or an import done (or not), and whether to refresh now.
        case subscribed(PodcastSubscribing.Outcome, refresh: Bool)
        /// What `podcast-remove-played` removed and `podcast-auto-download` wants, after a refresh.
        case automated(PodcastAutomationRun.Outcome)
    }

    package final class Mailbox: Sendable {
        private let messages = ThreadMailbox<[Message]>()
        private let readings = Atomic<Int>(0)

        package var wake: Int32 { messages.wake }

        /// The next listing's number, taken just before it reads.
        package func nextReading() -> Int { readings.add(1, ordering: .relaxed).newValue }

        package func post(_ message: Message) { messages.post(message) }

        package func take() -> [Message] { messages.take() }
    }

    /// Where the podcasts' files are: `$XDG_DATA_HOME/interlude/`.
    package struct Places: Sendable {
        package var podcasts: PodcastStore
        package var books: BookStateStore

        package static func current() -> Places {
            let directories = XDGDirectories(environment: ProcessEnvironment.current())
            return Places(podcasts: PodcastStore(directories: directories), books: BookStateStore(directories: directories))
        }
    }

    /// The subscriptions and their episodes as last listed.
    package private(set) var rows: [PodcastRow] = []
    /// A refresh that runs: how many feeds are done, of how many.
    package private(set) var refreshing: (done: Int, total: Int)?
    /// The downloads that run, by "PODCAST/EPISODE": the bytes on disk and the whole length.
    package private(set) var downloads: [String: (bytes: Int64, whole: Int64?)] = [:]
    /// Feeds at most this old are not refreshed at start (`podcast-refresh-age`; nil: never at start).
    package var refreshAge: Double?
    /// Transfers at once in a refresh.
    package var parallel = 8
    /// `podcast-auto-download` and `podcast-remove-played`, applied after each refresh; nil when both are off.
    package var automation: PodcastAutomationRun?
    /// Downloads the automation asked for that wait for one of the running ones to end.
    package private(set) var queuedDownloads: [PodcastAutomationRun.Download] = []
    /// The automation's downloads that run, by "PODCAST/EPISODE" (before their first progress too).
    private var automaticDownloads = Set<String>()
    /// Downloads the automation runs at once: a podcast's newest episodes of fifty podcasts are not a hundred transfers.
    package static let automaticDownloadsAtOnce = 3
    /// Something the screen shows changed (a row, the progress).
    package var onChange: () -> Void = {}
    /// A line to show once (a refresh's summary, a download's end).
    package var onNote: (String) -> Void = { _ in }

    private let mailbox = Mailbox()
    private let places: Places
    private var listing = false
    private var listAgain = false
    private var startRefreshWhenListed = false
    /// The newest listing taken: one that read the files earlier and came later is dropped.
    private var lastReading = 0

    package init(places: Places = .current()) { self.places = places }

    /// Lists the podcasts, then refreshes them when any feed is older than `refreshAge`.
    package func start() {
        startRefreshWhenListed = refreshAge != nil
        list()
    }

    /// "refreshing 12/50", "downloading 40%": what runs in the background now.
    package var activity: String? {
        var parts: [String] = []
        if let refreshing { parts.append("refreshing \(refreshing.done)/\(refreshing.total)") }
        if downloads.count == 1, let only = downloads.first?.value {
            parts.append("downloading" + (only.whole.map { $0 > 0 ? " \(min(100, max(0, only.bytes) * 100 / $0))%" : "" } ?? ""))
        } else if downloads.count > 1 {
            parts.append("\(downloads.count) downloads")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The rows with the downloads that run now marked on their episodes.
    package var shownRows: [PodcastRow] {
        guard !downloads.isEmpty else { return rows }
        return rows.map { podcast in
            var podcast = podcast
            podcast.episodes = podcast.episodes.map { episode in
                guard let running = downloads[podcast.id + "/" + episode.id] else { return episode }
                var episode = episode
                episode.download = .partial(bytes: running.bytes, of: running.whole)
                episode.downloading = true
                return episode
            }
            return podcast
        }
    }

    // MARK: Commands (on the main loop: each starts a thread and answers at once)

    package func refresh() -> CommandResult {
        if let refreshing { return .refused(reason: .problem("a refresh runs already (\(refreshing.done)/\(refreshing.total))")) }
        refreshing = (0, rows.count)
        onChange()
        let (mailbox, places, parallel, automation) = (self.mailbox, self.places, self.parallel, self.automation)
        let failure = BackgroundThread.start {
            var refresh = PodcastRefresh(store: places.podcasts, parallel: parallel)
            refresh.progress = { done, total in mailbox.post(.refreshProgress(done: done, total: total)) }
            var lines: [String] = []
            var summary: String
            do throws(HTTPFetchError) {
                let (result, problem) = try refresh.run()
                lines = (problem.map { [$0] } ?? []) + result.notes + result.failures
                let arrived = result.newEpisodes.filter { $0.value > 0 }
                let episodes = arrived.values.reduce(0, +)
                summary = PodcastRefreshSummary.sentence(refreshed: result.newEpisodes.count + result.unchanged.count,
                                                         newEpisodes: episodes, inPodcasts: arrived.count,
                                                         unchanged: result.unchanged.count, failed: result.failures.count)
            } catch {
                lines = [error.message]
                summary = "the refresh failed"
            }
            mailbox.post(.refreshed(lines: lines, summary: summary))
            if let automation {
                mailbox.post(.automated(automation.apply(store: places.podcasts, books: places.books, now: SystemClock().wallNow)))
            }
            mailbox.post(Self.listing(places, mailbox: mailbox))
        }
        if let failure {
            refreshing = nil
            return .refused(reason: .problem("cannot start the refresh's thread (\(failure.message))"))
        }
        return .done(report: .refreshingPodcasts(count: rows.count))
    }

    /// The episode the words name, as listed last (the pane names it by ids; the socket may by title or number).
    private func listed(_ podcast: String, _ episode: String?) -> (PodcastRow, EpisodeRow)? {
        guard let row = rows.first(where: { $0.id == podcast || $0.title == podcast }) else { return nil }
        guard let episode else { return row.episodes.first.map { (row, $0) } }
        return row.episodes.first { $0.id == episode || $0.title == episode }.map { (row, $0) }
    }

    /// Starts the download on a thread: the episode is found there (the files read off the loop).
    package func download(podcast: String, episode: String?) -> CommandResult {
        let known = listed(podcast, episode)
        if let (row, item) = known, downloads[row.id + "/" + item.id] != nil {
            return .refused(reason: .problem("\(item.title) is downloading already"))
        }
        if let (row, item) = known { downloads[row.id + "/" + item.id] = (0, nil) }
        onChange()
        let (mailbox, places) = (self.mailbox, self.places)
        let failure = BackgroundThread.start {
            let chosen: EpisodeOpener.Chosen
            switch EpisodeOpener.choose(podcast: podcast, episode: episode, store: places.podcasts) {
            case .success(let found): chosen = found
            case .failure(let error):
                mailbox.post(.downloaded(key: known.map { $0.0.id + "/" + $0.1.id } ?? podcast + "/" + (episode ?? ""),
                                         line: error.message, failed: true))
                return
            }
            let key = chosen.podcast.id + "/" + chosen.episode.id
            let title = chosen.episode.episode.title
            guard let url = chosen.episode.episode.enclosure?.url else {
                mailbox.post(.downloaded(key: key, line: "\(title) has no enclosure: nothing to download", failed: true))
                return
            }
            let length = chosen.episode.episode.enclosure?.length ?? -1
            mailbox.post(.downloadProgress(key: key, bytes: 0, whole: length > 0 ? length : nil))
            var download = EpisodeDownload(url: url, destination: chosen.download)
            download.progress = { bytes, whole in mailbox.post(.downloadProgress(key: key, bytes: bytes, whole: whole)) }
            do throws(HTTPFetchError) {
                switch try download.run() {
                case .already: mailbox.post(.downloaded(key: key, line: "\(title) is downloaded already", failed: false))
                case .downloaded(let bytes):
                    mailbox.post(.downloaded(key: key, line: "downloaded \(title) (\(EpisodeDownload.megabytes(bytes)))", failed: false))
                }
            } catch {
                mailbox.post(.downloaded(key: key, line: error.message, failed: true))
            }
            mailbox.post(Self.listing(places, mailbox: mailbox))
        }
        if let failure {
            if let (row, item) = known { downloads[row.id + "/" + item.id] = nil }
            return .refused(reason: .problem("cannot start the download's thread (\(failure.message))"))
        }
        return .done(report: .downloadingEpisode(title: known?.1.title ?? episode ?? podcast))
    }

    /// Played: the place at the end (as a book heard to its end); unplayed: the start. Either way no longer new.
    /// Done on a thread; `playing` is the book that plays now, whose session writes its place every second.
    package func mark(podcast: String, episode: String, played: Bool, playing: BookID?) -> CommandResult {
        let known = listed(podcast, episode)
        if let (row, item) = known, EpisodeOpener.identity(podcast: row.id, episode: item.id) == playing {
            return .refused(reason: .problem("\(item.title) plays now: open another episode first"))
        }
        let (mailbox, places) = (self.mailbox, self.places)
        let failure = BackgroundThread.start {
            let chosen: EpisodeOpener.Chosen
            switch EpisodeOpener.choose(podcast: podcast, episode: episode, store: places.podcasts) {
            case .success(let found): chosen = found
            case .failure(let error):
                mailbox.post(.marked(problem: error.message))
                return
            }
            let title = chosen.episode.episode.title
            guard chosen.identity != playing else {
                mailbox.post(.marked(problem: "\(title) plays now: open another episode first"))
                return
            }
            let feedLength = chosen.episode.episode.duration * 1000
            let now = SystemClock().wallNow
            var problem: String?
            let update = places.books.update(chosen.identity, now: now, fallback: .start) { state in
                if played {
                    guard let length = state.durationMilliseconds.flatMap({ $0 > 0 ? $0 : nil }) ?? (feedLength > 0 ? feedLength : nil) else {
                        problem = "\(title): its length is not known until it is played; play it to its end instead"
                        return
                    }
                    state.positionMilliseconds = length
                    state.fileOffsetMilliseconds = length
                    state.durationMilliseconds = length
                } else {
                    state.positionMilliseconds = 0
                    state.fileOffsetMilliseconds = 0
                }
                state.updated = now
            }
            if problem == nil, let failed = update.failure { problem = failed.description }
            if problem == nil {
                let episodeID = chosen.episode.id
                do throws(StateFileError) {
                    _ = try places.podcasts.updateEpisodes(of: chosen.podcast.id, now: now) { episodes in
                        for index in episodes.indices where episodes[index].id == episodeID { episodes[index].isNew = false }
                    }
                } catch {
                    problem = error.description
                }
            }
            mailbox.post(.marked(problem: problem))
            mailbox.post(Self.listing(places, mailbox: mailbox))
        }
        if let failure { return .refused(reason: .problem("cannot start a thread (\(failure.message))")) }
        return .done(report: .markedEpisode(title: known?.1.title ?? episode, played: played))
    }

    /// Subscribes to the feed at `text` (fetched and written on a thread).
    package func subscribe(_ text: String) -> CommandResult {
        guard let url = PodcastSubscribing.feedURL(text) else { return .refused(reason: .problem(PodcastSubscribing.notAFeedURL(text))) }
        return inBackground(.subscribingPodcast(url: url)) { places in
            (PodcastSubscribing.add(url, store: places.podcasts, now: { SystemClock().wallNow }), false)
        }
    }

    /// Unsubscribes from the podcast `name` names (its id, URL or title), on a thread.
    package func unsubscribe(_ name: String) -> CommandResult {
        let title = rows.first { $0.id == name || $0.title == name }?.title ?? name
        return inBackground(.unsubscribingPodcast(title: title)) { places in
            let now = SystemClock().wallNow
            switch PodcastNames.match(name, in: places.podcasts.load(now: now).subscriptions) {
            case .success(let found): return (PodcastSubscribing.remove(found, store: places.podcasts, now: { SystemClock().wallNow }), false)
            case .failure(let problem): return (.failed("\(problem)"), false)
            }
        }
    }

    /// Subscribes to the feeds of the OPML file at `path`, then refreshes (on a thread).
    package func importOPML(_ path: String) -> CommandResult {
        inBackground(.importingPodcasts(path: path)) { places in
            let outcome = PodcastSubscribing.importOPML(path, store: places.podcasts, now: { SystemClock().wallNow })
            return (outcome, !outcome.added.isEmpty)
        }
    }

    /// Runs `work` on a thread, lists the podcasts again after it, and answers `report` now.
    private func inBackground(_ report: CommandReport,
                              _ work: @escaping @Sendable (Places) -> (PodcastSubscribing.Outcome, Bool)) -> CommandResult {
        let (mailbox, places) = (self.mailbox, self.places)
        let failure = BackgroundThread.start {
            let (outcome, refresh) = work(places)
            mailbox.post(.subscribed(outcome, refresh: refresh))
            mailbox.post(Self.listing(places, mailbox: mailbox))
        }
        if let failure { return .refused(reason: .problem("cannot start a thread (\(failure.message))")) }
        return .done(report: report)
    }

    // MARK: The loop's side

    package var pollRequests: [LoopPollRequest] { mailbox.wake >= 0 ? [LoopPollRequest(fd: mailbox.wake)] : [] }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        for message in mailbox.take() { take(message, events: core.events) }
        onChange()
    }

    private func take(_ message: Message, events: PlayerEventStream) {
        switch message {
        case .listed(let listed, let stale, let reading):
            if reading > lastReading {
                lastReading = reading
                rows = listed
            }
            listing = false
            if listAgain {
                listAgain = false
                list()
            }
            if startRefreshWhenListed {
                startRefreshWhenListed = false
                if stale, refreshing == nil, case .refused(let reason) = refresh() { events.error(reason.sentence { _ in nil }) }
            }
        case .refreshProgress(let done, let total):
            if refreshing != nil { refreshing = (done, total) }
        case .refreshed(let lines, let summary):
            refreshing = nil
            // One line for each feed that failed or moved.
            for line in lines { events.error(line) }
            onNote(summary)
        case .downloadProgress(let key, let bytes, let whole):
            // Before the server's first answer libcurl knows no length: the feed's stays.
            downloads[key] = (bytes, whole ?? downloads[key]?.whole)
        case .downloaded(let key, let line, let failed):
            downloads[key] = nil
            automaticDownloads.remove(key)
            if failed { events.error(line) } else { onNote(line) }
            startQueuedDownloads(events: events)
        case .automated(let outcome):
            for problem in outcome.problems { events.error(problem) }
            if !outcome.removed.isEmpty {
                onNote(outcome.removed.count == 1 ? outcome.removed[0] : "removed \(outcome.removed.count) downloads of played episodes")
            }
            let known = Set(downloads.keys).union(automaticDownloads).union(queuedDownloads.map { $0.podcast + "/" + $0.episode })
            queuedDownloads += outcome.downloads.filter { !known.contains($0.podcast + "/" + $0.episode) }
            startQueuedDownloads(events: events)
        case .marked(let problem):
            if let problem { events.error(problem) }
        case .subscribed(let outcome, let refreshNow):
            for note in outcome.notes { events.error(note) }
            if let failure = outcome.failure { events.error(failure) }
            if let done = outcome.done { onNote(done) }
            if refreshNow, refreshing == nil, case .refused(let reason) = refresh() { events.error(reason.sentence { _ in nil }) }
        }
    }

    /// The automation's downloads, through the same path as a listener's, a few at a time.
    private func startQueuedDownloads(events: PlayerEventStream) {
        while automaticDownloads.count < Self.automaticDownloadsAtOnce, !queuedDownloads.isEmpty {
            let next = queuedDownloads.removeFirst()
            if case .refused(let reason) = download(podcast: next.podcast, episode: next.episode) {
                events.error(reason.sentence { _ in nil })
            } else {
                automaticDownloads.insert(next.podcast + "/" + next.episode)
            }
        }
    }

    /// Lists again (after a change made elsewhere: `podcast add` in a shell).
    package func list() {
        if listing {
            listAgain = true
            return
        }
        listing = true
        let (mailbox, places, age) = (self.mailbox, self.places, self.refreshAge)
        if let failure = BackgroundThread.start({ mailbox.post(Self.listing(places, mailbox: mailbox, staleAfter: age)) }) {
            listing = false
            onNote("podcasts: cannot start a thread (\(failure.message))")
        }
    }

    /// The rows as the files hold them now, and whether a feed is older than `staleAfter` seconds.
    package static func listing(_ places: Places, mailbox: Mailbox, staleAfter age: Double? = nil) -> Message {
        let reading = mailbox.nextReading()
        let now = SystemClock().wallNow
        let subscriptions = places.podcasts.load(now: now).subscriptions
        let seconds = now.secondsSince1970
        let stale = age.map { age in
            subscriptions.contains { ($0.refreshed ?? 0) < seconds - Int64(age) }
        } ?? false
        let rows = subscriptions.map { subscription in
            let episodes = places.podcasts.loadEpisodes(of: subscription.id, now: now).episodes
            let folder = places.podcasts.folder(of: subscription.id)
            return PodcastRow(id: subscription.id, title: subscription.title, episodes: episodes.map { stored in
                episodeRow(stored, podcast: subscription.id, folder: folder, books: places.books, now: now)
            }, problem: subscription.problem)
        }
        return .listed(rows, stale: stale, reading: reading)
    }

    package static func episodeRow(_ stored: StoredEpisode, podcast: String, folder: String, books: BookStateStore,
                           now: WallInstant) -> EpisodeRow {
        let episode = stored.episode
        let loaded = books.load(EpisodeOpener.identity(podcast: podcast, episode: stored.id), now: now)
        let state = loaded.problem == nil && loaded.state.updated != BookState.start.updated ? loaded.state : nil
        let played = state.map { state in
            state.durationMilliseconds.map { $0 > 0 && $0 - state.positionMilliseconds < 2_000 } ?? false
        } ?? false
        let file = EpisodeFiles.download(in: folder, episode: stored)
        var download = EpisodeRow.Download.none
        var info = stat()
        if stat(file, &info) == 0 {
            download = .downloaded
        } else if stat(EpisodeFiles.part(of: file), &info) == 0 {
            let length = episode.enclosure?.length ?? -1
            download = .partial(bytes: Int64(info.st_size), of: length > 0 ? length : nil)
        }
        return EpisodeRow(id: stored.id, title: episode.title,
                          date: episode.published > 0 ? PodcastNames.date(episode.published) : "",
                          durationSeconds: episode.duration, isNew: stored.isNew, played: played,
                          placeMilliseconds: state?.positionMilliseconds, download: download)
    }
}
