/// Why the player did not carry out a command: the reason and its
/// parameters, never a sentence. Each front end words it: the screen names
/// the keys the user has bound now (`sentence(keys:)` with its bindings), the
/// control socket, MPRIS and standard input name none, so a reply never
/// names a key the user may have rebound.
public enum Refusal: Equatable, Sendable {
    case noBook
    /// Music's queue commands while a book plays.
    case enqueueDuringBook
    case clearQueueDuringBook
    /// Shuffle, repeat and playlists while a book plays.
    case playOrderDuringBook
    case emptyQueue
    /// A queue edit naming the entry that plays or one before it (`QueueEdit`).
    case queueEntryNotAhead(position: Int)
    case noQueueEntry(position: Int)
    case playlistNamesNoFile(path: String)
    case notABook(path: String)
    case bookPlayingAlready(title: String)
    /// The headless player plays what it was started with.
    case cannotSwitch
    case noBookmark(id: Int)
    case alarmGone(id: Int)
    /// A sentence made below the player (a file's error with its path, the
    /// alarm parser's complaint, the arbiter's refusal, a range), which names no key.
    case problem(String)

    /// The sentence, naming the key bound to a command where `keys` gives
    /// one (`keys("play-selection")` is `"enter"`, or nil when it is unbound
    /// or the front end has no keys).
    public func sentence(keys: (String) -> String? = { _ in nil }) -> String {
        switch self {
        case .noBook: return "no book is playing"
        case .enqueueDuringBook:
            let play = keys("play-selection").map { "\($0) on a file" } ?? "playing a file"
            return "a book is playing: \(play) plays music instead (the book keeps its place)"
        case .clearQueueDuringBook: return "a book is playing: its files are its queue"
        case .playOrderDuringBook: return "a book is playing: shuffle, repeat and playlists are for music"
        case .emptyQueue: return "the queue is empty: nothing to save"
        case .queueEntryNotAhead(let position):
            return "queue entry \(position) plays or has played: only the entries after the one that plays move or go"
        case .noQueueEntry(let position): return "the queue has no entry \(position)"
        case .playlistNamesNoFile(let path): return "\(path) names no file that exists"
        case .notABook(let path): return "\(path): not a book (a folder of audio files, or one audio file)"
        case .bookPlayingAlready(let title): return "\(title) is playing already"
        case .cannotSwitch: return "this player plays what it was started with (the full-screen player switches)"
        case .noBookmark(let id): return "no bookmark #\(id)"
        case .alarmGone(let id): return "alarm #\(id) is gone"
        case .problem(let text): return text
        }
    }
}

/// What there is to say about a command carried out: data, worded the same
/// by every front end (none of it names a key).
public enum CommandReport: Equatable, Sendable {
    case shuffle(on: Bool)
    /// "off", "all", "one".
    case repeatMode(String)
    case queueSaved(count: Int, path: String)
    case playlistLoaded(count: Int, path: String, missing: Int)
    case queued(count: Int)
    case queueCleared(count: Int)
    /// Entries taken out of the queue (the queue pane's key).
    case queueRemoved(count: Int)
    /// An alarm set (or set anew) to ring `seconds` from now, at `at` as a
    /// clock says it ("20:01", "07:30 tomorrow", "Wed 07:30", "2026-12-25 07:30").
    case alarmSet(id: Int, seconds: Int64, at: String)
    /// The sleep timer's new setting as shown ("15 min", "end of chapter"), nil when off.
    case sleepTimer(String?)
    /// A bookmark at a place in book time as shown ("1:02:03").
    case bookmarkAdded(id: Int, at: String)
    case bookmarkDeleted(id: Int)
    case openingBook(title: String)
    case stationAdded(number: Int, name: String)
    case stationRenamed(number: Int, name: String)
    case stationRemoved(name: String)
    case playingStation(name: String)
    case refreshingPodcasts(count: Int)
    case downloadingEpisode(title: String)
    case markedEpisode(title: String, played: Bool)
    case subscribingPodcast(url: String)
    case unsubscribingPodcast(title: String)
    case importingPodcasts(path: String)

    public var sentence: String {
        switch self {
        case .shuffle(let on): "shuffle \(on ? "on" : "off")"
        case .repeatMode(let mode): "repeat \(mode)"
        case .queueSaved(let count, let path): "saved \(Self.count(count, "file")) to \(path)"
        case .playlistLoaded(let count, let path, let missing):
            "loaded \(Self.count(count, "file")) from \(path)" + (missing == 0 ? "" : ", \(missing) missing")
        case .queued(let count): "added \(Self.count(count, "file")) to the queue"
        case .queueCleared(let count): "removed \(Self.count(count, "queued file"))"
        case .queueRemoved(let count): "removed \(Self.count(count, "entry", "entries")) from the queue"
        case .alarmSet(let id, let seconds, let at): "alarm #\(id) rings in \(Self.spoken(seconds: seconds)), at \(at)"
        case .sleepTimer(let setting?): "sleep timer: \(setting)"
        case .sleepTimer(nil): "sleep timer off"
        case .bookmarkAdded(let id, let at): "bookmark #\(id) at \(at)"
        case .bookmarkDeleted(let id): "bookmark #\(id) deleted"
        case .openingBook(let title): "opening \(title)"
        case .stationAdded(let number, let name): "station \(number): \(name)"
        case .stationRenamed(let number, let name): "station \(number) is now \(name)"
        case .stationRemoved(let name): "removed the station \(name)"
        case .playingStation(let name): "playing \(name)"
        case .refreshingPodcasts(let count): "refreshing \(Self.count(count, "podcast"))"
        case .downloadingEpisode(let title): "downloading \(title)"
        case .markedEpisode(let title, let played): "\(title): marked \(played ? "played" : "unplayed")"
        case .subscribingPodcast(let url): "subscribing to \(url)"
        case .unsubscribingPodcast(let title): "unsubscribing from \(title)"
        case .importingPodcasts(let path): "importing the podcasts of \(path)"
        }
    }
}

extension CommandReport {
    /// "1 file", "2 files", "0 files": a count with its noun agreeing (`plural`: when not noun + "s").
    public static func count(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A span as a person says it: "20 seconds", "1 minute", "1 minute 30 seconds",
    /// "2 hours 5 minutes", "3 days 1 hour": the two largest units, seconds
    /// only under an hour, rounded down (an alarm's second is no one's concern past that).
    public static func spoken(seconds: Int64) -> String {
        let seconds = max(0, seconds)
        let units: [(Int64, String)] = [(86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
        var left = seconds
        var parts: [String] = []
        for (size, name) in units where left >= size || (parts.isEmpty && size == 1) {
            if seconds >= 3600 && size == 1 { break }
            let amount = left / size
            left -= amount * size
            guard amount > 0 || parts.isEmpty else { continue }
            parts.append(count(Int(amount), name))
            if parts.count == 2 { break }
        }
        return parts.joined(separator: " ")
    }
}
