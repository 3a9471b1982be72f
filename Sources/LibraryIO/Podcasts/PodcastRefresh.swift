import InterludeCore
import Podcasts

/// Fetches subscriptions' feeds (conditional requests, `parallel` at once)
/// and stores what changed: episodes merged by identity (new ones marked),
/// validators kept, a permanent redirect or `itunes:new-feed-url` followed by
/// the subscription. Runs on the calling thread; the player's main loop never
/// calls it. Each feed that fails gives one line; nothing else it does stops.
package struct PodcastRefresh {
    package var store: PodcastStore
    package var parallel = 8
    package var now: () -> WallInstant = { SystemClock().wallNow }
    /// Called as each feed is done: how many are, of how many (the player's "refreshing 12/50").
    package var progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }

    package struct Result: Sendable, Equatable {
        /// Per podcast id: how many episodes arrived.
        package var newEpisodes: [String: Int] = [:]
        package var unchanged: Set<String> = []
        /// One line per feed that failed.
        package var failures: [String] = []
        /// One line per feed that moved or broke off but was read.
        package var notes: [String] = []
    }

    /// Refreshes the subscriptions whose ids are given (all when nil).
    /// `markNew` false: the first fetch of a subscription just added.
    package func run(ids: Set<String>? = nil, markNew: Bool = true) throws(HTTPFetchError) -> (Result, problem: String?) {
        let loaded = store.load(now: now())
        let base = loaded.subscriptions
        var mine = base
        let targets = base.indices.filter { ids?.contains(base[$0].id) ?? true }
        let requests = targets.map { HTTPRequest(url: base[$0].url, etag: base[$0].etag, lastModified: base[$0].lastModified) }
        var result = Result()
        var done = 0
        progress(0, requests.count)
        try HTTPFetcher.fetch(requests, parallel: parallel) { index, outcome in
            let position = targets[index]
            var subscription = mine[position]
            apply(outcome, to: &subscription, markNew: markNew, result: &result)
            mine[position] = subscription
            done += 1
            progress(done, requests.count)
        }
        do {
            _ = try store.save(mine, since: base, now: now())
        } catch {
            result.failures.append(error.description)
        }
        return (result, loaded.problem)
    }

    private func apply(_ outcome: Swift.Result<HTTPResponse, HTTPFetchError>, to subscription: inout PodcastSubscription,
                       markNew: Bool, result: inout Result) {
        let name = "\(subscription.title) (\(subscription.url))"
        let response: HTTPResponse
        switch outcome {
        case .failure(let error):
            subscription.problem = error.message
            result.failures.append("podcast \(name): \(error.message)")
            return
        case .success(let answer):
            response = answer
        }
        if response.status == 304 {
            subscription.refreshed = now().secondsSince1970
            subscription.problem = nil
            result.unchanged.insert(subscription.id)
            return
        }
        guard response.status == 200 else {
            let problem = "the server answered HTTP \(response.status)"
            subscription.problem = problem
            result.failures.append("podcast \(name): \(problem)")
            return
        }
        let feed: Feed
        do {
            feed = try FeedDocument.parse(response.body, url: response.finalURL.isEmpty ? subscription.url : response.finalURL)
        } catch {
            subscription.problem = error.description
            result.failures.append("podcast \(name): \(error.description)")
            return
        }
        let stamp = now().secondsSince1970
        var added = 0
        do {
            _ = try store.updateEpisodes(of: subscription.id, now: now()) { stored in
                let known = Set(stored.map(\.id))
                stored = EpisodeIdentity.merged(stored: stored, feed: feed.episodes, now: stamp, markNew: markNew)
                added = stored.filter { !known.contains($0.id) }.count
            }
        } catch {
            subscription.problem = error.description
            result.failures.append("podcast \(name): \(error.description)")
            return
        }
        if let damage = feed.damage {
            result.notes.append("podcast \(name): the feed breaks off at line \(damage.line) (\(damage.reason)); "
                                + "kept the \(feed.episodes.count) episodes before it")
        }
        if !feed.title.isEmpty { subscription.title = feed.title }
        subscription.etag = response.headers["etag"]
        subscription.lastModified = response.headers["last-modified"]
        subscription.refreshed = stamp
        subscription.problem = nil
        if let moved = Self.newLocation(response: response, feed: feed, current: subscription.url) {
            result.notes.append("podcast \(subscription.title): moved from \(subscription.url) to \(moved)")
            subscription.url = moved
            // The validators belong to the old address.
            subscription.etag = nil
            subscription.lastModified = nil
        }
        result.newEpisodes[subscription.id] = added
    }

    /// Where the subscription goes: `itunes:new-feed-url`, else a permanent redirect's end.
    package static func newLocation(response: HTTPResponse, feed: Feed, current: String) -> String? {
        if let stated = feed.newFeedURL.flatMap(FeedURL.normalized), stated.hasPrefix("http"), stated != current { return stated }
        if let permanent = response.permanentURL, !permanent.isEmpty, permanent != current { return permanent }
        return nil
    }

    package init(store: PodcastStore, parallel: Int = 8, now: @escaping () -> WallInstant = { SystemClock().wallNow },
                 progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }) {
        self.store = store
        self.parallel = parallel
        self.now = now
        self.progress = progress
    }
}
