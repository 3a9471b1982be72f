/// A podcast feed as read: the podcast and its episodes, newest first (oldest
/// first for an `itunes:type` serial), as gPodder's podcastparser orders them.
public struct Feed: Sendable, Equatable {
    public var title: String
    public var link: String?
    /// Plain text: HTML taken out (`HTMLText`).
    public var description: String
    public var imageURL: String?
    /// `itunes:new-feed-url` (or RSS's `redirect/newLocation`): where the feed moved.
    public var newFeedURL: String?
    public var isSerial: Bool
    public var episodes: [Episode]
    /// Set when the XML broke off: the episodes before the damage are kept.
    public var damage: FeedDamage?

    public init(title: String, link: String? = nil, description: String = "", imageURL: String? = nil,
                newFeedURL: String? = nil, isSerial: Bool = false, episodes: [Episode] = [], damage: FeedDamage? = nil) {
        self.title = title
        self.link = link
        self.description = description
        self.imageURL = imageURL
        self.newFeedURL = newFeedURL
        self.isSerial = isSerial
        self.episodes = episodes
        self.damage = damage
    }
}

/// One episode as the feed lists it.
public struct Episode: Sendable, Equatable {
    /// The feed's GUID, else its link, else its one enclosure's URL (podcastparser's rule).
    public var guid: String
    public var title: String
    /// Seconds since the epoch, 0 when the feed gives no date it can read.
    public var published: Int64
    public var enclosure: Enclosure?
    /// Seconds, 0 when unknown (`itunes:duration`).
    public var duration: Int
    /// Plain text: HTML taken out.
    public var description: String
    public var link: String?
    /// The Podcasting 2.0 chapters file (`podcast:chapters url=`).
    public var chaptersURL: String?
    public var chaptersType: String?

    public init(guid: String, title: String, published: Int64 = 0, enclosure: Enclosure? = nil, duration: Int = 0,
                description: String = "", link: String? = nil, chaptersURL: String? = nil, chaptersType: String? = nil) {
        self.guid = guid
        self.title = title
        self.published = published
        self.enclosure = enclosure
        self.duration = duration
        self.description = description
        self.link = link
        self.chaptersURL = chaptersURL
        self.chaptersType = chaptersType
    }
}

/// The media file of an episode.
public struct Enclosure: Sendable, Equatable {
    public var url: String
    /// Bytes, -1 when the feed does not say (or says 0).
    public var length: Int64
    /// `application/octet-stream` when the feed gives none or no `TYPE/SUBTYPE`.
    public var type: String

    public init(url: String, length: Int64 = -1, type: String = "application/octet-stream") {
        self.url = url
        self.length = length
        self.type = type
    }
}

/// Where and why a feed's XML broke off.
public struct FeedDamage: Sendable, Equatable {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// Why a document is no feed at all, as the clause after "URL: ".
public enum FeedRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A web page where the feed was (a parked domain, a login page, a moved site).
    case htmlPage
    case notAFeed(rootElement: String)
    case unreadable(line: Int, reason: String)
    case empty

    public var description: String {
        switch self {
        case .htmlPage: "an HTML page, not a podcast feed"
        case .notAFeed(let root): "not a podcast feed (its root element is <\(root)>, not RSS or Atom)"
        case .unreadable(let line, let reason): "not readable XML (line \(line): \(reason))"
        case .empty: "empty, not a podcast feed"
        }
    }
}
