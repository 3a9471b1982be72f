import InterludeCore

/// Where an episode's download lives and how a listener names an episode.
///
/// A download is `podcasts/PODCAST/EPISODE.EXT` beside the podcast's
/// `episodes.json`, EPISODE eight hex digits of the episode's identity
/// (`StoredEpisode.id`), EXT the enclosure URL's own extension when it is a
/// short one, else `audio` (the decoders choose by content, not by name).
/// While it comes it is `EPISODE.EXT.part`: a crash or `kill -9` leaves the
/// bytes received, and the next download asks for the rest with a range.
public enum EpisodeFiles {
    public static func download(in folder: String, episode: StoredEpisode) -> String {
        folder + "/" + PodcastSubscription.id(for: episode.id) + "." + fileExtension(of: episode.episode.enclosure?.url ?? "")
    }

    public static func part(of download: String) -> String { download + ".part" }

    /// The URL's path's extension, lower case: 1-5 letters or digits; else "audio".
    static func fileExtension(of url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let slash = path.lastIndex(of: "/"), let dot = path[slash...].lastIndex(of: ".") else { return "audio" }
        let suffix = path[path.index(after: dot)...].lowercased()
        guard (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "audio" }
        return suffix
    }

    /// The episode `word` names among `episodes` (as `podcast list` shows
    /// them): its number in the list (1 is the first), its identity or GUID,
    /// else the one title starting with it (any case); nil with the reason.
    public static func find(_ word: String, in episodes: [StoredEpisode]) -> Result<StoredEpisode, EpisodeChoiceError> {
        if let number = CountRange(1...max(1, episodes.count)).parse(word), !episodes.isEmpty {
            return .success(episodes[number - 1])
        }
        if let exact = episodes.first(where: { $0.id == word || $0.episode.guid == word || $0.episode.title == word }) {
            return .success(exact)
        }
        let folded = word.lowercased()
        let matches = episodes.filter { $0.episode.title.lowercased().hasPrefix(folded) }
        if matches.count == 1 { return .success(matches[0]) }
        return .failure(matches.isEmpty ? .none(word) : .several(word, matches.map(\.episode.title)))
    }
}

public enum EpisodeChoiceError: Error, Equatable, Sendable, CustomStringConvertible {
    case none(String)
    case several(String, [String])

    public var description: String {
        switch self {
        case .none(let word): "no episode is called '\(word)' (give its number in 'interlude podcast list NAME', its GUID or its title)"
        case .several(let word, let titles):
            "'\(word)' names \(titles.count) episodes: " + titles.prefix(5).joined(separator: ", ") + (titles.count > 5 ? ", ..." : "")
        }
    }
}

/// A Podcasting 2.0 chapters file (`podcast:chapters`, type
/// `application/json+chapters`): `{"version": "1.2.0", "chapters":
/// [{"startTime": 0, "title": "..."}, ...]}`. Chapters without a title or
/// whose start is not a time within a thousand hours are left out; the rest
/// in the order of their starts.
public enum PodcastChapters {
    public static let startRange = DurationRange(seconds: 0...3_600_000)
    /// More is no chapter list: a file of 100 MB of chapters is refused, not read.
    public static let limit = 10_000

    public static func parse(_ bytes: [UInt8]) throws(PodcastChaptersError) -> [(title: String, startMilliseconds: Int)] {
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONParser.parse(bytes) } catch {
            throw PodcastChaptersError(reason: "not valid JSON (\(error.description))")
        }
        guard let list = json["chapters"]?.arrayValue else { throw PodcastChaptersError(reason: "it holds no \"chapters\" list") }
        var chapters: [(title: String, startMilliseconds: Int)] = []
        for item in list.prefix(limit) {
            guard let start = item["startTime"]?.doubleValue, startRange.contains(start),
                  let title = item["title"]?.stringValue else { continue }
            // A chapter a player is told not to list (`toc: false`) still marks a place; kept.
            chapters.append((title, startRange.milliseconds(start)))
        }
        return chapters.enumerated().sorted { ($0.element.startMilliseconds, $0.offset) < ($1.element.startMilliseconds, $1.offset) }
            .map(\.element)
    }
}

public struct PodcastChaptersError: Error, Equatable, Sendable {
    public var reason: String
}
