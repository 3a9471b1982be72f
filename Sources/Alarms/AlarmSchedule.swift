/// When an alarm rings.
public enum AlarmSchedule: Hashable, Sendable {
    /// A time of day in the local zone: the next occurrence, or on each of `repeatDays`.
    case clockTime(time: LocalTime, repeatDays: RepeatDays)
    /// Once, at a local date and time.
    case date(date: LocalDate, time: LocalTime)
    /// Once, a duration after it was set (`in 90s`). In a running program it
    /// is timed on the monotonic clock; `firesAt` is the wall time it
    /// corresponds to, kept for the file and for listing.
    case relative(firesAt: Int64)

    /// Whether the alarm ends disabled after it rang (not snoozed).
    public var isOneShot: Bool {
        switch self {
        case .clockTime(_, let repeatDays): repeatDays.isEmpty
        case .date, .relative: true
        }
    }
}

/// What an alarm sounds like (`--sound`): anything but the tone plays as the
/// alarm voice from the player's own decoders; whatever does not sound
/// (`AlarmSoundWatch` in the player) is replaced by the built-in tone.
public enum AlarmSound: Hashable, Sendable, CustomStringConvertible {
    /// A tone pattern the engine synthesises.
    case tone(name: String)
    /// An audio file, looped.
    case file(path: String)
    /// A folder's audio files in natural order, looped.
    case folder(path: String)
    /// A saved playlist (a name in the playlists folder, or an M3U's path), looped.
    case playlist(path: String)
    /// A book (a folder or a file with chapters): it plays on from the book's
    /// place, and the place it reaches is saved.
    case book(path: String)
    /// A station's `http`/`https` URL.
    case station(url: String)

    public static let builtInTones = ["beep", "chime", "classic"]
    public static let `default` = AlarmSound.tone(name: "classic")

    /// What `--sound` takes, for help texts.
    public static let forms = "a built-in tone (\(builtInTones.joined(separator: ", "))), an audio file, a folder, "
        + "playlist:NAME (or an .m3u/.m3u8 path), book:PATH, or a station's http(s) URL"

    public var description: String {
        switch self {
        case .tone(let name): name
        case .file(let path), .folder(let path): path
        case .playlist(let path): "playlist:" + path
        case .book(let path): "book:" + path
        case .station(let url): url
        }
    }

    /// The built-in tone itself: nothing to open, nothing to fall back from.
    public var isTone: Bool {
        if case .tone = self { return true }
        return false
    }
}
