/// Builds a `Feed` from a document's XML events with podcastparser's rules,
/// so that what Interlude lists of a feed is what gPodder lists: each element
/// is known by its path of namespace-mapped names (`rss/channel/item/itunes:duration`,
/// `atom:feed/atom:entry/atom:link`), prefixes mapped from the namespace URI
/// whatever the feed calls them; an unknown namespace matches nothing.
///
/// A name is mapped once per document (`kind(of:)`, an `Element`), and a
/// path is a `Place` reached from its parent's: no string is built or
/// compared per element. Feed it with `start` and `end`, then take
/// `finish(damage:)`. A document whose root is no RSS or Atom feed is
/// refused at its first element (`refusal`), and the rest of its events
/// are ignored.
public struct FeedBuilder: XMLEventHandler {
    public private(set) var refusal: FeedRefusal?
    private let url: String
    /// What relative URLs resolve against, cut once (`FeedURL.Base`), not once per URL.
    private var base: FeedURL.Base
    /// The places of the elements open, the innermost last.
    private var places: [Place] = []
    /// The document's first element's name: a refusal names it.
    private var rootName: XMLElementName?
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

    /// The element names a path this builder reads goes through, by their mapped names.
    enum Element: Int {
        case other, rss, channel, item, title, link, description, image, url, guid, enclosure, pubDate, redirect, newLocation
        case itunesSummary, itunesType, itunesNewFeedURL, itunesImage, itunesDuration
        case atomFeed, atomLink, atomTitle, atomSubtitle, atomIcon, atomEntry, atomID, atomPublished, atomUpdated, atomContent
        case mediaDescription, mediaContent, mediaGroup, contentEncoded, podcastChapters

        static let byName: [String: Element] = [
            "rss": .rss, "channel": .channel, "item": .item, "title": .title, "link": .link, "description": .description,
            "image": .image, "url": .url, "guid": .guid, "enclosure": .enclosure, "pubDate": .pubDate,
            "redirect": .redirect, "newLocation": .newLocation,
            "itunes:summary": .itunesSummary, "itunes:type": .itunesType, "itunes:new-feed-url": .itunesNewFeedURL,
            "itunes:image": .itunesImage, "itunes:duration": .itunesDuration,
            "atom:feed": .atomFeed, "atom:link": .atomLink, "atom:title": .atomTitle, "atom:subtitle": .atomSubtitle,
            "atom:icon": .atomIcon, "atom:entry": .atomEntry, "atom:id": .atomID, "atom:published": .atomPublished,
            "atom:updated": .atomUpdated, "atom:content": .atomContent,
            "media:description": .mediaDescription, "media:content": .mediaContent, "media:group": .mediaGroup,
            "content:encoded": .contentEncoded, "podcast:chapters": .podcastChapters,
        ]
    }

    /// Where an element is: each path this builder reads, and `other` for
    /// every other (the children of `other` and of a leaf are `other`).
    enum Place {
        case other
        case rss, channel, image, item, itemMediaGroup, redirect, atomFeed, atomEntry, atomEntryMediaGroup
        // Leaves whose text is read.
        case channelTitle, channelLink, channelDescription, channelSummary, imageURL, channelType, channelNewFeedURL
        case redirectNewLocation, feedTitle, feedSubtitle, feedIcon
        case itemGUID, itemTitle, itemLink, itemDescription, itemSummary, itemMediaDescription, itemContentEncoded
        case itemDuration, itemPubDate
        case entryID, entryTitle, entryContentEncoded, entryPublished, entryUpdated, entryMediaDescription, entryContent
        // Leaves read by their attributes.
        case channelITunesImage, channelAtomLink, feedAtomLink, itemEnclosure, itemMediaContent, itemAtomLink, itemChapters
        case entryAtomLink

        /// The place of an `element` inside this one.
        func child(_ element: Element) -> Place {
            switch (self, element) {
            case (.rss, .channel): .channel
            case (.rss, .redirect): .redirect
            case (.channel, .title): .channelTitle
            case (.channel, .link): .channelLink
            case (.channel, .description): .channelDescription
            case (.channel, .itunesSummary): .channelSummary
            case (.channel, .image): .image
            case (.channel, .itunesType): .channelType
            case (.channel, .itunesNewFeedURL): .channelNewFeedURL
            case (.channel, .itunesImage): .channelITunesImage
            case (.channel, .atomLink): .channelAtomLink
            case (.channel, .item): .item
            case (.image, .url): .imageURL
            case (.redirect, .newLocation): .redirectNewLocation
            case (.atomFeed, .atomTitle): .feedTitle
            case (.atomFeed, .atomSubtitle): .feedSubtitle
            case (.atomFeed, .atomIcon): .feedIcon
            case (.atomFeed, .atomLink): .feedAtomLink
            case (.atomFeed, .atomEntry): .atomEntry
            case (.item, .guid): .itemGUID
            case (.item, .title): .itemTitle
            case (.item, .link): .itemLink
            case (.item, .description): .itemDescription
            case (.item, .itunesSummary): .itemSummary
            case (.item, .mediaDescription): .itemMediaDescription
            case (.item, .contentEncoded): .itemContentEncoded
            case (.item, .itunesDuration): .itemDuration
            case (.item, .pubDate): .itemPubDate
            case (.item, .enclosure): .itemEnclosure
            case (.item, .mediaContent): .itemMediaContent
            case (.item, .mediaGroup): .itemMediaGroup
            case (.item, .atomLink): .itemAtomLink
            case (.item, .podcastChapters): .itemChapters
            case (.itemMediaGroup, .mediaContent): .itemMediaContent
            case (.atomEntry, .atomID): .entryID
            case (.atomEntry, .atomTitle): .entryTitle
            case (.atomEntry, .contentEncoded): .entryContentEncoded
            case (.atomEntry, .atomPublished): .entryPublished
            case (.atomEntry, .atomUpdated): .entryUpdated
            case (.atomEntry, .atomContent): .entryContent
            case (.atomEntry, .atomLink): .entryAtomLink
            case (.atomEntry, .mediaGroup): .atomEntryMediaGroup
            case (.atomEntryMediaGroup, .mediaDescription): .entryMediaDescription
            default: .other
            }
        }
    }

    public mutating func kind(of name: XMLElementName) -> Int {
        if rootName == nil { rootName = name }
        return (Element.byName[Self.mappedName(name)] ?? .other).rawValue
    }

    /// Whether the document has had an element (so that a document broken
    /// before its first is unreadable, not an empty feed).
    public var sawElement: Bool { rootName != nil }

    public mutating func start<Attributes: XMLAttributeList>(_ kind: Int, attributes: Attributes) -> XMLStartAnswer {
        if refusal != nil { return .stop }
        let element = Element(rawValue: kind) ?? .other
        let place: Place
        if let parent = places.last {
            place = parent.child(element)
        } else {
            switch element {
            case .rss: place = .rss
            case .atomFeed: place = .atomFeed
            default:
                let name = rootName ?? XMLElementName(namespace: nil, localName: "", qualifiedName: "")
                refusal = name.localName.lowercased() == "html" ? .htmlPage : .notAFeed(rootElement: name.qualifiedName)
                // A refused document is read no further.
                return .stop
            }
        }
        places.append(place)
        return startTarget(place, attributes) ? .readText : .skipText
    }

    public mutating func end(text: UnsafeBufferPointer<UInt8>?) {
        if refusal != nil { return }
        guard let place = places.popLast() else { return }
        if let text {
            endTextTarget(place, text)
        } else if place == .item || place == .atomEntry, let pending = entry.take() {
            if let episode = Self.validated(pending) { episodes.append(episode) }
        }
    }

    /// The feed as read. `damage`: where the document broke off, if it did;
    /// an episode not closed by then is left out.
    /// Consuming: the episodes are moved into the feed, not copied.
    public consuming func finish(damage: FeedDamage? = nil) throws(FeedRefusal) -> Feed {
        if let refusal { throw refusal }
        var result = feed
        result.isSerial = type == "serial"
        // Taken out, so the ordering below has the one reference to them and sorts without copying.
        var taken: [Episode] = []
        swap(&taken, &episodes)
        result.episodes = Self.ordered(taken, serial: result.isSerial)
        result.damage = damage
        return result
    }

    /// Newest first, or oldest first for a serial; a stable sort, as Python's.
    static func ordered(_ episodes: consuming [Episode], serial: Bool) -> [Episode] {
        // Indices sorted by the dates alone, not the episodes: an Episode is
        // large to move, and one read in a closure is a copy of all its strings.
        let dates = episodes.withUnsafeBufferPointer { $0.map(\.published) }
        let order = dates.indices.sorted { left, right in
            if dates[left] != dates[right] { return serial ? dates[left] < dates[right] : dates[left] > dates[right] }
            return left < right
        }
        // Then put in that order in place, a cycle of the permutation at a
        // time: swaps move an episode, where a copy retained each of its strings.
        // (The buffer's swap moves; the array's copies the episode it holds aside.)
        var placed = [Bool](repeating: false, count: order.count)
        episodes.withUnsafeMutableBufferPointer { buffer in
            for start in order.indices where !placed[start] {
                var current = start
                while true {
                    placed[current] = true
                    let next = order[current]
                    if next == start { break }
                    buffer.swapAt(current, next)
                    current = next
                }
            }
        }
        return episodes
    }

    // MARK: Targets

    /// Starts the target at `place`; true when it wants the element's text.
    private mutating func startTarget<Attributes: XMLAttributeList>(_ place: Place, _ attributes: Attributes) -> Bool {
        switch place {
        case .rss:
            if let value = attributes.value("xml:base") { base = FeedURL.Base(value) }
            return false
        case .channelTitle, .channelLink, .channelDescription, .channelSummary, .imageURL, .channelType, .channelNewFeedURL,
             .redirectNewLocation, .feedTitle, .feedSubtitle, .feedIcon:
            return true
        case .channelITunesImage:
            if feed.imageURL == nil, let href = attributes.value("href"), !href.isEmpty {
                feed.imageURL = FeedURL.resolve(href, against: base).trimmingFeedWhitespace()
            }
            return false
        case .channelAtomLink, .feedAtomLink:
            let rel = attributes.value("rel") ?? "alternate"
            if let href = attributes.value("href"), attributes.value("type") == "text/html", rel == "self" || rel == "alternate",
               let url = FeedURL.normalized(FeedURL.resolve(href, against: base)) {
                feed.link = url
            }
            return false
        case .item, .atomEntry:
            entry = PendingEpisode()
            return false
        case .itemGUID:
            entry?.guidIsPermalink = (attributes.value("isPermaLink") ?? "true").lowercased() == "true"
            return true
        case .itemTitle, .itemLink, .itemDescription, .itemSummary, .itemMediaDescription, .itemContentEncoded,
             .itemDuration, .itemPubDate, .entryID, .entryTitle, .entryContentEncoded, .entryPublished, .entryUpdated,
             .entryMediaDescription:
            return true
        case .entryContent:
            entry?.atomContentType = attributes.value("type") ?? "text"
            return true
        case .itemEnclosure:
            addEnclosure(attributes, lengthAttribute: "length")
            return false
        case .itemMediaContent:
            addEnclosure(attributes, lengthAttribute: "fileSize")
            return false
        case .itemAtomLink, .entryAtomLink:
            atomLink(attributes)
            return false
        case .itemChapters:
            if let value = attributes.value("url"), !value.isEmpty {
                entry?.chaptersURL = FeedURL.resolve(value, against: base).trimmingFeedWhitespace()
                entry?.chaptersType = attributes.value("type")
            }
            return false
        case .other, .channel, .image, .itemMediaGroup, .redirect, .atomFeed, .atomEntryMediaGroup:
            return false
        }
    }

    /// The text of the element at `place` (its UTF-8 as read): made a
    /// String once, trimmed or squashed as it is made, or not at all for
    /// the numbers.
    private mutating func endTextTarget(_ place: Place, _ text: UnsafeBufferPointer<UInt8>) {
        switch place {
        case .channelTitle, .feedTitle: feed.title = String.squashed(text, keepingLines: false)
        case .channelLink: feed.link = FeedURL.resolve(String.trimmed(text), against: base).trimmingFeedWhitespace()
        case .channelDescription, .feedSubtitle: feed.description = String.squashed(text, keepingLines: true)
        case .channelSummary:
            if feed.description.isEmpty { feed.description = String.squashed(text, keepingLines: true) }
        case .imageURL, .feedIcon:
            feed.imageURL = FeedURL.resolve(String.trimmed(text), against: base).trimmingFeedWhitespace()
        case .channelType:
            let value = String.squashed(text, keepingLines: false)
            if value == "episodic" || value == "serial" { type = value }
        case .channelNewFeedURL, .redirectNewLocation:
            let value = String.squashed(text, keepingLines: false)
            feed.newFeedURL = value.isEmpty ? nil : value
        default:
            // podcastparser's `EpisodeAttr.end`: a value replaces an unset one, or any when not empty.
            guard entry != nil else { return }
            Self.apply(place, text, base: base, to: &entry!)
        }
    }

    /// The text of the element at `place` into the episode, changed in place.
    private static func apply(_ place: Place, _ text: UnsafeBufferPointer<UInt8>, base: FeedURL.Base,
                              to episode: inout PendingEpisode) {
        switch place {
        case .itemGUID:
            var guid = String.trimmed(text)
            if episode.guidIsPermalink { guid = FeedURL.resolve(guid, against: base) }
            if !guid.isEmpty || episode.guid == nil { episode.guid = guid }
        case .entryID:
            let guid = String.trimmed(text)
            if !guid.isEmpty || episode.guid == nil { episode.guid = guid }
        case .itemTitle, .entryTitle:
            let title = String.squashed(text, keepingLines: false)
            if !title.isEmpty || episode.title == nil { episode.title = title }
        case .itemLink:
            let link = FeedURL.resolve(String(decoding: text, as: UTF8.self), against: base).trimmingFeedWhitespace()
            if !link.isEmpty { episode.link = link }
        case .itemDescription:
            if HTMLText.isHTML(bytes: text) {
                if episode.descriptionHTML?.isEmpty ?? true { episode.descriptionHTML = String.trimmed(text) }
            } else if episode.description.isEmpty {
                episode.description = String.squashed(text, keepingLines: true)
            }
        case .itemSummary, .itemMediaDescription, .entryMediaDescription:
            let description = String.squashed(text, keepingLines: true)
            if !description.isEmpty { episode.description = description }
        case .itemContentEncoded, .entryContentEncoded:
            let html = String.trimmed(text)
            if !html.isEmpty || episode.descriptionHTML == nil { episode.descriptionHTML = html }
        case .entryContent:
            if episode.atomContentType == "html" {
                episode.descriptionHTML = String(decoding: text, as: UTF8.self)
            } else if episode.atomContentType == "text" {
                episode.description = String.squashed(text, keepingLines: true)
            }
        case .itemDuration:
            episode.duration = EpisodeDuration.seconds(bytes: text)
        case .itemPubDate, .entryPublished:
            episode.published = FeedDate.parse(trimming: text) ?? 0
        case .entryUpdated:
            if episode.published == 0 { episode.published = FeedDate.parse(trimming: text) ?? 0 }
        default:
            break
        }
    }

    private mutating func addEnclosure<Attributes: XMLAttributeList>(_ attributes: Attributes, lengthAttribute: StaticString) {
        guard entry != nil, var value = attributes.value("url") else { return }
        if let first = value.unicodeScalars.first, String.isFeedWhitespace(first.value) {
            var start = Substring(value)
            while let first = start.unicodeScalars.first, String.isFeedWhitespace(first.value) { start = start.dropFirst() }
            value = String(start)
        }
        guard let url = FeedURL.normalized(FeedURL.resolve(value, against: base)) else { return }
        entry?.enclosures.append(Enclosure(url: url, length: Self.length(attributes.value(lengthAttribute)),
                                           type: Self.mimeType(attributes.value("type"))))
    }

    private mutating func atomLink<Attributes: XMLAttributeList>(_ attributes: Attributes) {
        guard entry != nil else { return }
        let rel = attributes.value("rel") ?? "alternate"
        guard let url = FeedURL.normalized(FeedURL.resolve(attributes.value("href") ?? "", against: base)) else { return }
        let type = Self.mimeType(attributes.value("type") ?? "text/html")
        if rel == "enclosure" {
            entry?.enclosures.append(Enclosure(url: url, length: Self.length(attributes.value("length") ?? "0"), type: type))
        } else if type == "text/html", rel == "self" || rel == "alternate", entry?.link.isEmpty ?? false {
            entry?.link = url
        }
    }

    /// podcastparser's `validate_episode`: the GUID from the link or the one
    /// enclosure when the feed gives none, the title from the enclosure's
    /// file name; an episode that has neither is left out.
    static func validated(_ pending: consuming PendingEpisode) -> Episode? {
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
        // Over the bytes, as Python's `in` looks for the code point.
        guard let text, text.utf8.contains(UInt8(ascii: "/")) else { return "application/octet-stream" }
        return text
    }
}
