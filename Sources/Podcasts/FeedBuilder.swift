/// Builds a `Feed` from a document's XML events with podcastparser's rules,
/// so that what Interlude lists of a feed is what gPodder lists: each element
/// is named by its path of namespace-mapped names (`rss/channel/item/itunes:duration`,
/// `atom:feed/atom:entry/atom:link`), prefixes mapped from the namespace URI
/// whatever the feed calls them; an unknown namespace matches nothing.
///
/// Feed it with `start`, `text`, `end`, then take `finish(damage:)`. A
/// document whose root is no RSS or Atom feed is refused at its first
/// element (`refusal`), and the rest of its events are ignored.
public struct FeedBuilder: XMLEventHandler {
    public private(set) var refusal: FeedRefusal?
    private let url: String
    /// What relative URLs resolve against, cut once (`FeedURL.Base`), not once per URL.
    private var base: FeedURL.Base
    private var path: [String] = []
    private var joinedPath: [String] = []
    private var text: String?
    private var textPath: String?
    private var feed: Feed
    private var type: String?
    private var episodes: [Episode] = []
    private var entry: PendingEpisode?

    /// Known namespaces' prefixes (podcastparser's `Namespace.NAMESPACES`, and
    /// the Podcasting 2.0 namespace's URI that podcastparser 0.6 does not know).
    static let prefixes: [String: String] = [
        "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "http://www.itunes.com/DTDs/Podcast-1.0.dtd": "itunes",
        "http://www.w3.org/2005/Atom": "atom",
        "http://www.w3.org/2005/Atom/": "atom",
        "http://search.yahoo.com/mrss/": "media",
        "http://search.yahoo.com/mrss": "media",
        "http://podlove.org/simple-chapters": "psc",
        "http://podlove.org/simple-chapters/": "psc",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": "podcast",
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": "podcast",
        "https://podcastindex.org/namespace/1.0": "podcast",
    ]

    /// `url`: the feed's own, which relative URLs resolve against and which names an untitled podcast.
    public init(url: String) {
        self.url = url
        self.base = FeedURL.Base(url)
        feed = Feed(title: FeedURL.baseNameWithoutExtension(url))
    }

    /// The episode being read, with podcastparser's defaults.
    struct PendingEpisode {
        var title: String?
        var guid: String?
        var guidIsPermalink = false
        var link = ""
        var description = ""
        var descriptionHTML: String?
        var published: Int64 = 0
        var duration = 0
        var enclosures: [Enclosure] = []
        var chaptersURL: String?
        var chaptersType: String?
        var atomContentType = "text"
    }

    static func mappedName(_ name: XMLElementName) -> String {
        guard let namespace = name.namespace else { return name.qualifiedName }
        if let prefix = prefixes[namespace] { return prefix + ":" + name.localName }
        return "!" + name.qualifiedName
    }

    public mutating func start(_ name: XMLElementName, attributes: [String: String]) {
        if refusal != nil { return }
        let mapped = Self.mappedName(name)
        if path.isEmpty {
            guard mapped == "rss" || mapped == "atom:feed" else {
                refusal = name.localName.lowercased() == "html" ? .htmlPage : .notAFeed(rootElement: name.qualifiedName)
                return
            }
        }
        path.append(mapped)
        let joined = joinedPath.last.map { $0 + "/" + mapped } ?? mapped
        joinedPath.append(joined)
        if startTarget(joined, attributes) {
            text = ""
            textPath = joined
        }
    }

    public mutating func text(_ more: String) {
        if text != nil { text! += more }
    }

    public mutating func end() {
        if refusal != nil || path.isEmpty { return }
        let joined = joinedPath.removeLast()
        path.removeLast()
        if joined == textPath, let collected = text {
            text = nil
            textPath = nil
            endTextTarget(joined, collected)
        } else {
            endTarget(joined)
        }
    }

    /// The feed as read. `damage`: where the document broke off, if it did;
    /// an episode not closed by then is left out.
    public func finish(damage: FeedDamage? = nil) throws(FeedRefusal) -> Feed {
        if let refusal { throw refusal }
        var result = feed
        result.isSerial = type == "serial"
        result.episodes = Self.ordered(episodes, serial: result.isSerial)
        result.damage = damage
        return result
    }

    /// Newest first, or oldest first for a serial; a stable sort, as Python's.
    static func ordered(_ episodes: [Episode], serial: Bool) -> [Episode] {
        episodes.enumerated().sorted { left, right in
            if left.element.published != right.element.published {
                return serial ? left.element.published < right.element.published : left.element.published > right.element.published
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    // MARK: Targets

    /// Starts the target at `path`; true when it wants the element's text.
    private mutating func startTarget(_ path: String, _ attributes: [String: String]) -> Bool {
        switch path {
        case "rss":
            if let value = attributes["xml:base"] { base = FeedURL.Base(value) }
            return false
        case "rss/channel/title", "rss/channel/link", "rss/channel/description", "rss/channel/itunes:summary",
             "rss/channel/image/url", "rss/channel/itunes:type", "rss/channel/itunes:new-feed-url", "rss/redirect/newLocation",
             "atom:feed/atom:title", "atom:feed/atom:subtitle", "atom:feed/atom:icon":
            return true
        case "rss/channel/itunes:image":
            if feed.imageURL == nil, let href = attributes["href"], !href.isEmpty {
                feed.imageURL = FeedURL.resolve(href, against: base).trimmingFeedWhitespace()
            }
            return false
        case "rss/channel/atom:link", "atom:feed/atom:link":
            let rel = attributes["rel"] ?? "alternate"
            if let href = attributes["href"], attributes["type"] == "text/html", rel == "self" || rel == "alternate",
               let url = FeedURL.normalized(FeedURL.resolve(href, against: base)) {
                feed.link = url
            }
            return false
        case "rss/channel/item", "atom:feed/atom:entry":
            entry = PendingEpisode()
            return false
        case "rss/channel/item/guid":
            entry?.guidIsPermalink = (attributes["isPermaLink"] ?? "true").lowercased() == "true"
            return true
        case "rss/channel/item/title", "rss/channel/item/link", "rss/channel/item/description",
             "rss/channel/item/itunes:summary", "rss/channel/item/media:description", "rss/channel/item/content:encoded",
             "rss/channel/item/itunes:duration", "rss/channel/item/pubDate",
             "atom:feed/atom:entry/atom:id", "atom:feed/atom:entry/atom:title", "atom:feed/atom:entry/content:encoded",
             "atom:feed/atom:entry/atom:published", "atom:feed/atom:entry/atom:updated",
             "atom:feed/atom:entry/media:group/media:description":
            return true
        case "atom:feed/atom:entry/atom:content":
            entry?.atomContentType = attributes["type"] ?? "text"
            return true
        case "rss/channel/item/enclosure":
            addEnclosure(attributes, lengthAttribute: "length")
            return false
        case "rss/channel/item/media:content", "rss/channel/item/media:group/media:content":
            addEnclosure(attributes, lengthAttribute: "fileSize")
            return false
        case "rss/channel/item/atom:link", "atom:feed/atom:entry/atom:link":
            atomLink(attributes)
            return false
        case "rss/channel/item/podcast:chapters":
            if let value = attributes["url"], !value.isEmpty {
                entry?.chaptersURL = FeedURL.resolve(value, against: base).trimmingFeedWhitespace()
                entry?.chaptersType = attributes["type"]
            }
            return false
        default:
            return false
        }
    }

    private mutating func endTextTarget(_ path: String, _ text: String) {
        switch path {
        case "rss/channel/title", "atom:feed/atom:title": feed.title = text.squashingWhitespace()
        case "rss/channel/link": feed.link = FeedURL.resolve(text.trimmingFeedWhitespace(), against: base).trimmingFeedWhitespace()
        case "rss/channel/description", "atom:feed/atom:subtitle": feed.description = text.squashingWhitespaceKeepingLines()
        case "rss/channel/itunes:summary":
            if feed.description.isEmpty { feed.description = text.squashingWhitespaceKeepingLines() }
        case "rss/channel/image/url", "atom:feed/atom:icon":
            feed.imageURL = FeedURL.resolve(text.trimmingFeedWhitespace(), against: base).trimmingFeedWhitespace()
        case "rss/channel/itunes:type":
            let value = text.squashingWhitespace()
            if value == "episodic" || value == "serial" { type = value }
        case "rss/channel/itunes:new-feed-url", "rss/redirect/newLocation":
            let value = text.squashingWhitespace()
            feed.newFeedURL = value.isEmpty ? nil : value
        default:
            episodeText(path, text)
        }
    }

    /// podcastparser's `EpisodeAttr.end`: a value replaces an unset one, or any when not empty.
    private mutating func episodeText(_ path: String, _ text: String) {
        guard var episode = entry else { return }
        defer { entry = episode }
        switch path {
        case "rss/channel/item/guid":
            var guid = text.trimmingFeedWhitespace()
            if episode.guidIsPermalink { guid = FeedURL.resolve(guid, against: base) }
            if !guid.isEmpty || episode.guid == nil { episode.guid = guid }
        case "atom:feed/atom:entry/atom:id":
            let guid = text.trimmingFeedWhitespace()
            if !guid.isEmpty || episode.guid == nil { episode.guid = guid }
        case "rss/channel/item/title", "atom:feed/atom:entry/atom:title":
            let title = text.squashingWhitespace()
            if !title.isEmpty || episode.title == nil { episode.title = title }
        case "rss/channel/item/link":
            let link = FeedURL.resolve(text, against: base).trimmingFeedWhitespace()
            if !link.isEmpty { episode.link = link }
        case "rss/channel/item/description":
            if HTMLText.isHTML(text) {
                if episode.descriptionHTML?.isEmpty ?? true { episode.descriptionHTML = text.trimmingFeedWhitespace() }
            } else if episode.description.isEmpty {
                episode.description = text.squashingWhitespaceKeepingLines()
            }
        case "rss/channel/item/itunes:summary", "rss/channel/item/media:description",
             "atom:feed/atom:entry/media:group/media:description":
            let description = text.squashingWhitespaceKeepingLines()
            if !description.isEmpty { episode.description = description }
        case "rss/channel/item/content:encoded", "atom:feed/atom:entry/content:encoded":
            let html = text.trimmingFeedWhitespace()
            if !html.isEmpty || episode.descriptionHTML == nil { episode.descriptionHTML = html }
        case "atom:feed/atom:entry/atom:content":
            if episode.atomContentType == "html" {
                episode.descriptionHTML = text
            } else if episode.atomContentType == "text" {
                episode.description = text.squashingWhitespaceKeepingLines()
            }
        case "rss/channel/item/itunes:duration":
            episode.duration = EpisodeDuration.seconds(text)
        case "rss/channel/item/pubDate", "atom:feed/atom:entry/atom:published":
            episode.published = FeedDate.parse(text.trimmingFeedWhitespace()) ?? 0
        case "atom:feed/atom:entry/atom:updated":
            if episode.published == 0 { episode.published = FeedDate.parse(text.trimmingFeedWhitespace()) ?? 0 }
        default:
            break
        }
    }

    private mutating func endTarget(_ path: String) {
        if path == "rss/channel/item" || path == "atom:feed/atom:entry", let pending = entry {
            entry = nil
            if let episode = Self.validated(pending) { episodes.append(episode) }
        }
    }

    private mutating func addEnclosure(_ attributes: [String: String], lengthAttribute: String) {
        guard entry != nil, let value = attributes["url"] else { return }
        var start = Substring(value)
        while let first = start.unicodeScalars.first, first.properties.isWhitespace { start = start.dropFirst() }
        guard let url = FeedURL.normalized(FeedURL.resolve(String(start), against: base)) else { return }
        entry?.enclosures.append(Enclosure(url: url, length: Self.length(attributes[lengthAttribute]),
                                           type: Self.mimeType(attributes["type"])))
    }

    private mutating func atomLink(_ attributes: [String: String]) {
        guard entry != nil else { return }
        let rel = attributes["rel"] ?? "alternate"
        guard let url = FeedURL.normalized(FeedURL.resolve(attributes["href"] ?? "", against: base)) else { return }
        let type = Self.mimeType(attributes["type"] ?? "text/html")
        if rel == "enclosure" {
            entry?.enclosures.append(Enclosure(url: url, length: Self.length(attributes["length"] ?? "0"), type: type))
        } else if type == "text/html", rel == "self" || rel == "alternate", entry?.link.isEmpty ?? false {
            entry?.link = url
        }
    }

    /// podcastparser's `validate_episode`: the GUID from the link or the one
    /// enclosure when the feed gives none, the title from the enclosure's
    /// file name; an episode that has neither is left out.
    static func validated(_ pending: PendingEpisode) -> Episode? {
        var episode = pending
        if HTMLText.isHTML(episode.description) {
            if episode.descriptionHTML == nil { episode.descriptionHTML = episode.description }
            episode.description = ""
        }
        if let html = episode.descriptionHTML, episode.description.isEmpty { episode.description = HTMLText.text(html) }
        let guid: String
        if let given = episode.guid {
            guid = given
        } else if !episode.link.isEmpty {
            guid = episode.link
        } else {
            guard Set(episode.enclosures.map(\.url)).count == 1 else { return nil }
            guid = episode.enclosures[0].url
        }
        let title: String
        if let given = episode.title {
            title = given
        } else {
            guard episode.enclosures.count == 1 else { return nil }
            title = FeedURL.baseNameWithoutExtension(episode.enclosures[0].url)
        }
        if episode.link.isEmpty && episode.guidIsPermalink { episode.link = guid }
        return Episode(guid: guid, title: title, published: episode.published, enclosure: episode.enclosures.first,
                       duration: episode.duration, description: episode.description,
                       link: episode.link.isEmpty ? nil : episode.link, chaptersURL: episode.chaptersURL,
                       chaptersType: episode.chaptersType)
    }

    /// podcastparser's `parse_length`: a whole number, -1 for none, 0 or what is no number.
    static func length(_ text: String?) -> Int64 {
        guard let text else { return -1 }
        let trimmed = text.trimmingFeedWhitespace()
        guard let value = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed), value != 0 else { return -1 }
        return value
    }

    /// `parse_type`: `TYPE/SUBTYPE`, else `application/octet-stream`.
    static func mimeType(_ text: String?) -> String {
        guard let text, text.contains("/") else { return "application/octet-stream" }
        return text
    }
}
