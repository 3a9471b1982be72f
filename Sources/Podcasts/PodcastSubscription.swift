import InterludeCore

/// One podcast subscribed to, as `podcasts.json` keeps it.
public struct PodcastSubscription: Sendable, Equatable {
    /// Stable for the subscription's life (a moved feed keeps it): eight hex
    /// digits of the URL it was added with (`PodcastSubscription.id(for:)`).
    public var id: String
    /// Where the feed is fetched now: a permanent redirect or `itunes:new-feed-url` changes it.
    public var url: String
    public var title: String
    /// Seconds since the epoch.
    public var added: Int64
    /// The validators of the last 200, sent back as `If-None-Match` and `If-Modified-Since`.
    public var etag: String?
    public var lastModified: String?
    /// The last refresh that reached the server (a 200 or a 304), seconds since the epoch.
    public var refreshed: Int64?
    /// The last refresh's failure, one line; nil after a refresh that worked.
    public var problem: String?

    public init(id: String, url: String, title: String, added: Int64, etag: String? = nil, lastModified: String? = nil,
                refreshed: Int64? = nil, problem: String? = nil) {
        self.id = id
        self.url = url
        self.title = title
        self.added = added
        self.etag = etag
        self.lastModified = lastModified
        self.refreshed = refreshed
        self.problem = problem
    }

    /// FNV-1a (64 bits) of the URL, folded to eight hex digits.
    public static func id(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Each field from the side that changed it since `base` (`StateMerge.field`).
    static func merged(base: Self, mine: Self, theirs: Self) -> Self {
        PodcastSubscription(
            id: theirs.id,
            url: StateMerge.field(base.url, mine: mine.url, theirs: theirs.url),
            title: StateMerge.field(base.title, mine: mine.title, theirs: theirs.title),
            added: StateMerge.field(base.added, mine: mine.added, theirs: theirs.added),
            etag: StateMerge.field(base.etag, mine: mine.etag, theirs: theirs.etag),
            lastModified: StateMerge.field(base.lastModified, mine: mine.lastModified, theirs: theirs.lastModified),
            refreshed: StateMerge.field(base.refreshed, mine: mine.refreshed, theirs: theirs.refreshed),
            problem: StateMerge.field(base.problem, mine: mine.problem, theirs: theirs.problem))
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["id": .string(id), "url": .string(url), "title": .string(title),
                                           "added": .integer(added)]
        if let etag { object["etag"] = .string(etag) }
        if let lastModified { object["lastModified"] = .string(lastModified) }
        if let refreshed { object["refreshed"] = .integer(refreshed) }
        if let problem { object["problem"] = .string(problem) }
        return .object(object)
    }

    init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let url = json["url"]?.stringValue, let title = json["title"]?.stringValue,
              let added = json["added"]?.integerValue else { return nil }
        self.init(id: id, url: url, title: title, added: added, etag: json["etag"]?.stringValue,
                  lastModified: json["lastModified"]?.stringValue, refreshed: json["refreshed"]?.integerValue,
                  problem: json["problem"]?.stringValue)
    }
}

/// One episode as a subscription keeps it: the feed's fields and what the
/// listener's side adds (new since the last look).
public struct StoredEpisode: Sendable, Equatable {
    /// The identity episodes are matched by across refreshes: the GUID, or
    /// for a second episode under a GUID already taken, its enclosure's URL
    /// (`EpisodeIdentity`).
    public var id: String
    public var episode: Episode
    /// Arrived in a refresh after the subscription was added, and not seen since.
    public var isNew: Bool
    /// When a refresh first found it, seconds since the epoch.
    public var firstSeen: Int64

    public init(id: String, episode: Episode, isNew: Bool, firstSeen: Int64) {
        self.id = id
        self.episode = episode
        self.isNew = isNew
        self.firstSeen = firstSeen
    }

    /// Characters of a description kept: a 10,000-episode feed's file stays
    /// under `StateFile.readLimit` whatever its descriptions hold.
    public static let descriptionLimit = 1000

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "guid": .string(episode.guid), "title": .string(episode.title),
            "published": .integer(episode.published), "duration": .integer(Int64(episode.duration)),
            "description": .string(String(episode.description.prefix(Self.descriptionLimit))), "new": .bool(isNew), "firstSeen": .integer(firstSeen),
        ]
        if let enclosure = episode.enclosure {
            object["url"] = .string(enclosure.url)
            object["length"] = .integer(enclosure.length)
            object["type"] = .string(enclosure.type)
        }
        if let link = episode.link { object["link"] = .string(link) }
        if let chapters = episode.chaptersURL { object["chapters"] = .string(chapters) }
        if let type = episode.chaptersType { object["chaptersType"] = .string(type) }
        return .object(object)
    }

    /// Lengths, dates and durations out of range are damage: no program writes them.
    init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let guid = json["guid"]?.stringValue, let title = json["title"]?.stringValue,
              let published = json["published"]?.integerValue, let duration = json["duration"]?.integerValue,
              let durationSeconds = CountRange(0...(100_000 * 3600)).checked(duration),
              let isNew = json["new"]?.boolValue, let firstSeen = json["firstSeen"]?.integerValue else { return nil }
        var enclosure: Enclosure?
        if let url = json["url"]?.stringValue {
            guard let length = json["length"]?.integerValue, let type = json["type"]?.stringValue else { return nil }
            enclosure = Enclosure(url: url, length: length, type: type)
        }
        self.init(id: id, episode: Episode(guid: guid, title: title, published: published, enclosure: enclosure,
                                           duration: durationSeconds, description: json["description"]?.stringValue ?? "",
                                           link: json["link"]?.stringValue, chaptersURL: json["chapters"]?.stringValue,
                                           chaptersType: json["chaptersType"]?.stringValue),
                  isNew: isNew, firstSeen: firstSeen)
    }
}

/// Episodes' identities within one feed, gPodder's way made safe for feeds
/// whose generator repeats GUIDs: the GUID, unless an earlier episode of the
/// feed holds it, then the enclosure's URL. An episode with the GUID and the
/// enclosure of an earlier one is the same episode listed twice, and is left out.
public enum EpisodeIdentity {
    public static func identified(_ episodes: [Episode]) -> [(id: String, episode: Episode)] {
        var taken = Set<String>()
        var seenPairs = Set<String>()
        var result: [(id: String, episode: Episode)] = []
        for episode in episodes {
            let pair = episode.guid + "\u{0}" + (episode.enclosure?.url ?? "")
            guard seenPairs.insert(pair).inserted else { continue }
            var id = episode.guid
            if taken.contains(id), let url = episode.enclosure?.url { id = url }
            guard taken.insert(id).inserted else { continue }
            result.append((id, episode))
        }
        return result
    }

    /// The stored list after a refresh: the feed's episodes in its order
    /// (each keeping what was stored of it, new when not stored before and
    /// `markNew`), then those the feed no longer lists, as they were.
    public static func merged(stored: [StoredEpisode], feed: [Episode], now: Int64, markNew: Bool) -> [StoredEpisode] {
        let byID = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var listed = Set<String>()
        var result: [StoredEpisode] = []
        for (id, episode) in identified(feed) {
            listed.insert(id)
            if let old = byID[id] {
                result.append(StoredEpisode(id: id, episode: episode, isNew: old.isNew, firstSeen: old.firstSeen))
            } else {
                result.append(StoredEpisode(id: id, episode: episode, isNew: markNew, firstSeen: now))
            }
        }
        result += stored.filter { !listed.contains($0.id) }
        return result
    }
}
