import InterludeCore
import Podcasts

/// Subscribing, unsubscribing and importing OPML: the transactions on
/// `podcasts.json` that `interlude podcast add|remove|import` and the
/// podcasts pane share. Each blocks on the network or the disk: the command
/// line runs it in place, the player on a worker thread (`PlayerPodcasts`).
/// The answer is data: lines to say, and the sentence of what was done or why not.
package enum PodcastSubscribing {
    package struct Outcome: Sendable {
        /// Lines to say whatever the end (a feed that moved, a damaged file set aside).
        package var notes: [String] = []
        /// What was done ("added Harbour Talk (3 episodes), id ..."); nil when it failed.
        package var done: String?
        /// Why nothing was done; nil when it was.
        package var failure: String?
        /// The podcasts added (an import's, to fetch next).
        package var added: Set<String> = []

        static func failed(_ line: String, notes: [String] = []) -> Outcome { Outcome(notes: notes, failure: line) }
    }

    private struct Refused: Error { var message: String }

    /// The feed URL a user typed, normalized; nil when it is none.
    package static func feedURL(_ text: String) -> String? {
        guard let url = FeedURL.normalized(text), url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
        return url
    }

    package static func notAFeedURL(_ text: String) -> String {
        "'\(text)' is not a feed URL (give an http:// or https:// address)"
    }

    /// Fetches the feed at `text` and subscribes to it.
    package static func add(_ text: String, store: PodcastStore, now: () -> WallInstant) -> Outcome {
        guard let url = feedURL(text) else { return .failed(notAFeedURL(text)) }
        if let known = store.load(now: now()).subscriptions.first(where: { $0.url == url }) {
            return .failed("already subscribed to \(url) (\(known.title), id \(known.id))")
        }
        var fetched: Result<HTTPResponse, HTTPFetchError> = .failure(HTTPFetchError(message: "no answer"))
        do throws(HTTPFetchError) {
            try HTTPFetcher.fetch([HTTPRequest(url: url)], parallel: 1) { _, outcome in fetched = outcome }
        } catch {
            return .failed(error.message)
        }
        let response: HTTPResponse
        switch fetched {
        case .failure(let error): return .failed("\(url): \(error.message)")
        case .success(let answer): response = answer
        }
        guard response.status == 200 else { return .failed("\(url): the server answered HTTP \(response.status)") }
        let feed: Feed
        do {
            feed = try FeedDocument.parse(response.body, url: response.finalURL.isEmpty ? url : response.finalURL)
        } catch {
            return .failed("\(url): \(error.description)")
        }
        var outcome = Outcome()
        let id = PodcastSubscription.id(for: url)
        let stamp = now().secondsSince1970
        var subscription = PodcastSubscription(id: id, url: url, title: feed.title, added: stamp,
                                               etag: response.headers["etag"], lastModified: response.headers["last-modified"],
                                               refreshed: stamp)
        if let moved = PodcastRefresh.newLocation(response: response, feed: feed, current: url) {
            outcome.notes.append("\(url) moved to \(moved)")
            subscription.url = moved
        }
        if let damage = feed.damage {
            outcome.notes.append("\(url): the feed breaks off at line \(damage.line) (\(damage.reason)); "
                                 + "kept the \(feed.episodes.count) episode\(feed.episodes.count == 1 ? "" : "s") before it")
        }
        do throws(StateFileError) {
            let episodes = try store.updateEpisodes(of: id, now: now()) { stored in
                stored = EpisodeIdentity.merged(stored: stored, feed: feed.episodes, now: stamp, markNew: false)
            }
            let written = try store.update(now: now()) { (subscriptions: inout [PodcastSubscription]) throws(Refused) in
                if subscriptions.contains(where: { $0.id == id || $0.url == subscription.url }) {
                    throw Refused(message: "already subscribed to \(url)")
                }
                subscriptions.append(subscription)
            }
            if let problem = written.problem { outcome.notes.append(problem) }
            if let failure = written.failure { return .failed(failure.message, notes: outcome.notes) }
            outcome.done = "added \(feed.title) (\(episodes.count) episode\(episodes.count == 1 ? "" : "s")), id \(id)"
            outcome.added = [id]
            return outcome
        } catch {
            return .failed(error.description, notes: outcome.notes)
        }
    }

    /// Unsubscribes from `subscription` and forgets its episodes.
    package static func remove(_ subscription: PodcastSubscription, store: PodcastStore, now: () -> WallInstant) -> Outcome {
        var outcome = Outcome()
        do throws(StateFileError) {
            let written = try store.update(now: now()) { (subscriptions: inout [PodcastSubscription]) throws(Never) in
                subscriptions.removeAll { $0.id == subscription.id }
            }
            if let problem = written.problem { outcome.notes.append(problem) }
        } catch {
            return .failed(error.description)
        }
        store.removeEpisodes(of: subscription.id)
        outcome.done = "removed \(subscription.title)"
        return outcome
    }

    /// Subscribes to the feeds of the OPML file at `path` (not fetched: `added` says which to fetch).
    package static func importOPML(_ path: String, store: PodcastStore, now: () -> WallInstant) -> Outcome {
        let bytes: [UInt8]
        do throws(StateFileError) {
            guard let read = try StateFile(path: path).read() else { return .failed("\(path): no such file") }
            bytes = read
        } catch {
            return .failed(error.description)
        }
        var reader = OPML.Reader()
        do {
            if let damage = try XMLReader.read(bytes, url: path, into: &reader), reader.entries.isEmpty {
                return .failed("\(path): not readable OPML (line \(damage.line): \(damage.reason))")
            }
        } catch {
            return .failed(error.description)
        }
        guard reader.rootElement == "opml" else {
            return .failed("\(path): not an OPML file (its root element is <\(reader.rootElement ?? "none")>)")
        }
        var outcome = Outcome()
        var skipped: [String] = []
        var added = Set<String>()
        do throws(StateFileError) {
            let stamp = now().secondsSince1970
            let written = try store.update(now: now()) { (subscriptions: inout [PodcastSubscription]) throws(Never) in
                for entry in reader.entries {
                    guard let url = FeedURL.normalized(entry.url), url.hasPrefix("http") else {
                        skipped.append(entry.url)
                        continue
                    }
                    let id = PodcastSubscription.id(for: url)
                    if subscriptions.contains(where: { $0.url == url || $0.id == id }) { continue }
                    subscriptions.append(PodcastSubscription(id: id, url: url, title: entry.title.isEmpty ? url : entry.title,
                                                             added: stamp))
                    added.insert(id)
                }
            }
            if let problem = written.problem { outcome.notes.append(problem) }
        } catch {
            return .failed(error.description)
        }
        outcome.notes += skipped.map { "\(path): skipped '\($0)', not an http or https feed URL" }
        outcome.added = added
        outcome.done = "imported \(added.count) podcast\(added.count == 1 ? "" : "s") from \(path)"
        return outcome
    }
}
