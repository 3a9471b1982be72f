import AudioSession
import BookFormat
import InterludeCore
import ReplayGain
import SpokenAudio

/// `$XDG_CONFIG_HOME/interlude/config`: `key = value` lines, `#` comments.
/// `on-event = PROGRAM` (the event hook) and `library = PATH` (the music
/// library's folders, one line each) here; the desktop interruption keys
/// (`desktop-interruptions`, `desktop-role.ROLE`) are parsed by their own
/// settings in the application and only let through here. A line that is not
/// understood is skipped and reported as `PATH:LINE: message`, the rest apply.
public struct PlayerConfigFile: Equatable, Sendable {
    /// Run (through `/bin/sh -c`) on track changes, pauses and resumes.
    public var onEvent: String?
    /// `replaygain = track|album|off` and `replaygain-preamp = DB`.
    public var replayGain: ReplayGainMode?
    public var replayGainPreamp: Double?
    /// The music library's folders, in the order written (`~/` not yet expanded).
    public var libraryFolders: [String] = []
    /// `books = PATH`: the folder of audiobooks (`~/` not yet expanded); nil: `~/Audiobooks` when it exists.
    public var booksFolder: String?
    /// `mpd = off|on|PORT|IPV4:PORT`: the MPD front end's endpoints (default: the local socket alone).
    public var mpd: MPDEndpointSetting?
    /// `mpd-password = SECRET`: MPD's `password`; without it a client has none of MPD's permissions.
    public var mpdPassword: String?
    /// `alarm-grace = DURATION`: how late an alarm found after its time may still ring (seconds).
    public var alarmGrace: Double?
    /// `cover-art = auto|kitty|sixel|iterm2|symbols|none`: how pictures are drawn.
    public var coverArt: CoverArtSetting?
    /// `alarm-notify = DURATION`: how long before an alarm a desktop notification announces it (seconds; 0: none).
    public var alarmNotify: Double?
    /// `time-shift = DURATION|off`: how much of a paused station is kept (seconds; 0: off).
    public var timeShift: Double?
    /// `time-shift-memory = MIB`: how much of that is kept in memory before the file.
    public var timeShiftMemory: Int?
    /// `podcast-refresh-age = DURATION|off`: feeds older than this are refreshed when the full-screen player starts (seconds; 0: never).
    public var podcastRefreshAge: Double?
    /// `podcast-auto-download = N|off`: after each refresh, each podcast's newest N episodes are downloaded (0: none).
    public var podcastAutoDownload: Int?
    /// `podcast-remove-played = DURATION|off`: after each refresh, the downloads of episodes played this long ago are removed (seconds; 0: never).
    public var podcastRemovePlayed: Double?
    /// `podcast-timeout = DURATION`: how long a feed's transfer may take; a download this and a second per 16 KB received (seconds).
    public var podcastTimeout: Double?
    /// `stream-timeout = DURATION`: how long a station's server may take to answer with its headers (seconds).
    public var streamTimeout: Double?
    /// `book-trim-silence`, `podcast-trim-silence = off|on|gentle|medium|strong`: pauses
    /// shortened in books and in podcasts' episodes that have no setting of their own.
    public var bookTrimSilence: TrimStrength?
    public var podcastTrimSilence: TrimStrength?
    /// `book-voice-boost`, `podcast-voice-boost = off|on|LUFS`: voices levelled, likewise.
    public var bookVoiceBoost: VoiceBoost?
    public var podcastVoiceBoost: VoiceBoost?
    public var problems: [ConfigProblem] = []
    /// The file as read, and where: the desktop interruption keys are parsed from it by their own reader.
    public var text = ""
    public var path = ""

    /// Every key, with its value and what it does: the complaint's list and the man page's CONFIGURATION.
    public static let keyReference: [(key: String, value: String, summary: String)] = [
        ("on-event", "PROGRAM", "run through /bin/sh -c on track changes, pauses and resumes, with the event in "
            + "INTERLUDE_EVENT, INTERLUDE_STATUS, INTERLUDE_TIME, the track's INTERLUDE_PATH, INTERLUDE_TITLE, "
            + "INTERLUDE_ARTIST, INTERLUDE_ALBUM and each of the event's fields as INTERLUDE_FIELD_NAME"),
        ("desktop-interruptions", "on|off", "whether other programs' sounds on the desktop (PulseAudio streams "
            + "with a media.role) interrupt the player (default on)"),
        ("desktop-role.ROLE", "CLASS", "what a desktop stream of media.role ROLE is to the player: "
            + (PriorityClass.allCases.filter { $0 != .media }.map(\.rawValue) + ["ignore"]).joined(separator: ", ")
            + " (phone is a call, alarm an alarm, event and notification navigation)"),
        ("replaygain", "track|album|off", "the ReplayGain mode when --replaygain is not given (default off)"),
        ("replaygain-preamp", "DB", "added to every tagged file's gain, \(preampAccepts)"),
        ("book-trim-silence", "off|on|gentle|medium|strong", "pauses in books shortened, to at most 0.6, 0.45 or 0.35 s "
            + "(on: medium), for books with no setting of their own (default off)"),
        ("podcast-trim-silence", "off|on|gentle|medium|strong", "the same for podcasts' episodes (default off)"),
        ("book-voice-boost", "off|on|LUFS", "voices in books levelled live to a loudness from -24 to -12 LUFS "
            + "(on: -18), for books with no setting of their own (default off)"),
        ("podcast-voice-boost", "off|on|LUFS", "the same for podcasts' episodes (default off)"),
        ("library", "PATH", "a folder of the music library; one line each, several allowed (default: the music folder)"),
        ("books", "PATH", "the folder of audiobooks: a root of its own in the browser, and a folder or file in it opens "
            + "as a book (default: ~/Audiobooks when it exists)"),
        ("mpd", "off|on|IPV4:PORT", "the MPD protocol's front end: on the local socket $XDG_RUNTIME_DIR/interlude/mpd "
            + "by default; with an address such as 127.0.0.1:6600 also over TCP there (another host only when named); off"),
        ("mpd-password", "SECRET", "an MPD client must send it (MPD's password command) before anything but ping, "
            + "commands, tagtypes and binarylimit, as MPD with a password and no default_permissions (default: none asked)"),
        ("alarm-grace", "DURATION", "how late an alarm found after its time (the computer asleep, the player stopped "
            + "or not running, the clock changed) may still ring, saying how late and why; later it is shown missed "
            + "instead (default 10m, \(alarmGraceRange.accepts))"),
        ("cover-art", CoverArtSetting.accepts, "how the full-screen player draws the cover (the file's own, else "
            + "cover, folder or front .jpg/.png beside it): auto asks the terminal for kitty graphics, iTerm2's or sixel "
            + "and else draws block symbols in colour; the others force one; none draws no picture (default auto)"),
        ("alarm-notify", "DURATION", "how long before an alarm a desktop notification announces it, offering to skip "
            + "that ring where the notification server has actions; 0 for none (default 10m, \(alarmNotifyRange.accepts))"),
        ("time-shift", "DURATION|off", "how much of a station is kept while it is paused, so it resumes where it "
            + "stopped; off (or 0) resumes it live (default 30m, \(timeShiftRange.accepts))"),
        ("time-shift-memory", "MIB", "how much of the time-shift is kept in memory before the rest goes to a private "
            + "file under $XDG_CACHE_HOME/interlude (default 4, \(timeShiftMemoryRange.accepts))"),
        ("podcast-refresh-age", "DURATION|off", "when the full-screen player starts, every podcast's feed is refreshed in "
            + "the background if one was last refreshed longer ago than this; off (or 0) never at start "
            + "(default 1h, \(podcastRefreshAgeRange.accepts))"),
        ("podcast-auto-download", "N|off", "after each refresh (the full-screen player's or podcast refresh), each "
            + "podcast's newest N episodes are downloaded in the background, those not downloaded or played yet; off (or 0) "
            + "none (default off, \(podcastAutoDownloadRange.accepts))"),
        ("podcast-remove-played", "DURATION|off", "after each refresh, the downloads of episodes marked played (or heard "
            + "to the end) this long ago or longer are removed; off (or 0) never (default off, "
            + "\(podcastRemovePlayedRange.accepts))"),
        ("podcast-timeout", "DURATION", "how long fetching a feed may take in all, however slowly its server sends; "
            + "an episode's download may take this plus a second for every 16 KB received, and what came is kept for the "
            + "next try (default 2m, \(podcastTimeoutRange.accepts))"),
        ("stream-timeout", "DURATION", "how long a station's server (and each playlist, key and segment of a live HLS "
            + "stream) may take to connect and send its headers; audio that stops coming for twice this ends the "
            + "connection (default 15s, \(streamTimeoutRange.accepts))"),
    ]

    public static var keys: [String] { keyReference.map(\.key) }

    public init(onEvent: String? = nil) { self.onEvent = onEvent }

    public static func parse(_ text: String, path: String) -> PlayerConfigFile {
        var config = PlayerConfigFile()
        config.text = text
        config.path = path
        // "\r\n" is one Character in Swift: a file from Windows splits on it too.
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            func problem(_ message: String) {
                config.problems.append(ConfigProblem(path: path, line: number + 1, message: message))
            }
            guard let equals = line.firstIndex(of: "=") else {
                problem("expected 'key = value', got '\(line)'")
                continue
            }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            /// `off` (0) or what `parse` reads; nil, with the problem said, for anything else.
            func offOr<Number: Numeric>(_ parse: (String) -> Number?, accepts: String) -> Number? {
                if value.lowercased() == "off" { return 0 }
                if let number = parse(String(value)) { return number }
                problem("\(key) must be off or \(accepts), not '\(value)'")
                return nil
            }
            switch key {
            case "on-event":
                guard !value.isEmpty else {
                    problem("on-event needs a program")
                    continue
                }
                config.onEvent = String(value)
            case "replaygain":
                guard let mode = ReplayGainMode(rawValue: value.lowercased()) else {
                    problem("replaygain must be \(ReplayGainMode.choices), not '\(value)'")
                    continue
                }
                config.replayGain = mode
            case "replaygain-preamp":
                guard let decibels = Self.preamp(String(value)) else {
                    problem("replaygain-preamp must be \(Self.preampAccepts), not '\(value)'")
                    continue
                }
                config.replayGainPreamp = decibels
            case "library":
                guard !value.isEmpty else {
                    problem("library needs a folder")
                    continue
                }
                config.libraryFolders.append(String(value))
            case "books":
                guard !value.isEmpty else {
                    problem("books needs a folder")
                    continue
                }
                config.booksFolder = String(value)
            case "mpd":
                guard let setting = MPDEndpointSetting(String(value)) else {
                    problem("mpd must be \(MPDEndpointSetting.accepts), not '\(value)'")
                    continue
                }
                config.mpd = setting
            case "mpd-password":
                // MPD's tokenizer: a password it can be sent in (no newline; any other byte quoted).
                guard !value.isEmpty, value.utf8.count <= 256 else {
                    problem("mpd-password must be 1 to 256 bytes")
                    continue
                }
                config.mpdPassword = String(value)
            case "alarm-grace":
                guard let seconds = Self.alarmGraceRange.parse(String(value)) else {
                    problem("alarm-grace must be \(Self.alarmGraceRange.accepts), not '\(value)'")
                    continue
                }
                config.alarmGrace = seconds
            case "cover-art":
                guard let setting = CoverArtSetting(rawValue: value.lowercased()) else {
                    problem("cover-art must be \(CoverArtSetting.accepts), not '\(value)'")
                    continue
                }
                config.coverArt = setting
            case "alarm-notify":
                guard let seconds = Self.alarmNotifyRange.parse(String(value)) else {
                    problem("alarm-notify must be \(Self.alarmNotifyRange.accepts), not '\(value)'")
                    continue
                }
                config.alarmNotify = seconds
            case "time-shift":
                guard let seconds = offOr(Self.timeShiftRange.parse, accepts: Self.timeShiftRange.accepts) else { continue }
                config.timeShift = seconds
            case "time-shift-memory":
                guard let mebibytes = Self.timeShiftMemoryRange.parse(String(value)) else {
                    problem("time-shift-memory must be \(Self.timeShiftMemoryRange.accepts), not '\(value)'")
                    continue
                }
                config.timeShiftMemory = mebibytes
            case "podcast-refresh-age":
                guard let seconds = offOr(Self.podcastRefreshAgeRange.parse, accepts: Self.podcastRefreshAgeRange.accepts) else { continue }
                config.podcastRefreshAge = seconds
            case "podcast-auto-download":
                guard let count = offOr(Self.podcastAutoDownloadRange.parse, accepts: Self.podcastAutoDownloadRange.accepts) else { continue }
                config.podcastAutoDownload = count
            case "podcast-remove-played":
                guard let seconds = offOr(Self.podcastRemovePlayedRange.parse, accepts: Self.podcastRemovePlayedRange.accepts) else { continue }
                config.podcastRemovePlayed = seconds
            case "podcast-timeout":
                guard let seconds = Self.podcastTimeoutRange.parse(String(value)) else {
                    problem("podcast-timeout must be \(Self.podcastTimeoutRange.accepts), not '\(value)'")
                    continue
                }
                config.podcastTimeout = seconds
            case "stream-timeout":
                guard let seconds = Self.streamTimeoutRange.parse(String(value)) else {
                    problem("stream-timeout must be \(Self.streamTimeoutRange.accepts), not '\(value)'")
                    continue
                }
                config.streamTimeout = seconds
            case "book-trim-silence", "podcast-trim-silence":
                guard let strength = TrimStrength(parsing: String(value)) else {
                    problem("\(key) must be \(TrimStrength.accepts), not '\(value)'")
                    continue
                }
                if key == "book-trim-silence" { config.bookTrimSilence = strength } else { config.podcastTrimSilence = strength }
            case "book-voice-boost", "podcast-voice-boost":
                guard let boost = VoiceBoost(parsing: String(value)) else {
                    problem("\(key) must be \(VoiceBoost.accepts), not '\(value)'")
                    continue
                }
                if key == "book-voice-boost" { config.bookVoiceBoost = boost } else { config.podcastVoiceBoost = boost }
            case "desktop-interruptions":
                // Read, and its problems reported, by the desktop interruption settings.
                continue
            case _ where key.hasPrefix("desktop-role."):
                continue
            default:
                problem("unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
        }
        return config
    }
}

extension PlayerConfigFile {
    /// `alarm-grace`: from on time only to an hour late.
    public static let alarmGraceRange = DurationRange(seconds: 0...3600)
    /// `alarm-notify`: none (0) to half a day before.
    public static let alarmNotifyRange = DurationRange(seconds: 0...43200)
    /// `time-shift`: none (0) to ten hours (the buffer's own bound).
    public static let timeShiftRange = DurationRange(seconds: 0...36000)
    /// `podcast-refresh-age`: never at start (0) to a week.
    public static let podcastRefreshAgeRange = DurationRange(seconds: 0...7 * 24 * 3600)
    /// `podcast-auto-download`: none (0) to 50 episodes per podcast.
    public static let podcastAutoDownloadRange = CountRange(0...50, unit: "episodes")
    /// `podcast-remove-played`: never (0) to a year.
    public static let podcastRemovePlayedRange = DurationRange(seconds: 0...366 * 24 * 3600)
    /// `podcast-refresh-age` when the file says nothing: an hour.
    public static let defaultPodcastRefreshAge: Double = 3600
    /// `podcast-timeout`: a second to an hour.
    public static let podcastTimeoutRange = DurationRange(seconds: 1...3600)
    /// `stream-timeout`: a second to five minutes.
    public static let streamTimeoutRange = DurationRange(seconds: 1...300)
    /// `time-shift-memory`: none (all in the file) to 1 GiB.
    public static let timeShiftMemoryRange = CountRange(0...1024, unit: "MiB")

    public static let preampAccepts = "a number of dB from -20 to 20 (\"6\", \"-3.5 dB\")"

    /// "6", "+6", "-3.5 dB": the preamp in dB, within `ReplayGainSettings.preampRange`.
    public static func preamp(_ text: String) -> Double? {
        var number = Substring(text)
        if number.lowercased().hasSuffix("db") { number = number.dropLast(2) }
        while number.last == " " { number.removeLast() }
        if number.hasPrefix("+") { number = number.dropFirst() }
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
              let value = Double(number), ReplayGainSettings.preampRange.contains(value) else { return nil }
        return value
    }
}

private extension StringProtocol {
    func trimmingWhitespace() -> Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

/// What the event hook is run with: for the events it runs on (a track that
/// starts, a pause, a resume), its environment's `INTERLUDE_*` variables, as
/// cmus's `status_display_program` gives its status and tags.
public enum EventHookEnvironment {
    /// The events the hook runs on.
    public static func runs(on event: PlayerEvent) -> Bool {
        switch event {
        case .trackStarted, .paused, .resumed, .streamTitle: true
        default: false
        }
    }

    /// `INTERLUDE_EVENT`, `INTERLUDE_STATUS`, `INTERLUDE_TIME`, the track's
    /// `INTERLUDE_PATH`, `_TITLE`, `_ARTIST`, `_ALBUM`, and each of the event's
    /// own fields as `INTERLUDE_FIELD_<NAME>`.
    public static func variables(for timed: TimedPlayerEvent, path: String?, tags: AudioTags) -> [String: String] {
        var variables: [String: String] = [
            "INTERLUDE_EVENT": timed.event.name,
            "INTERLUDE_STATUS": { if case .paused = timed.event { "paused" } else { "playing" } }(),
            "INTERLUDE_TIME": String(timed.time),
        ]
        if let path {
            variables["INTERLUDE_PATH"] = path
            variables["INTERLUDE_TITLE"] = tags.title ?? AudioTags.displayName(ofPath: path)
        }
        if let artist = tags.artist { variables["INTERLUDE_ARTIST"] = artist }
        if let album = tags.album { variables["INTERLUDE_ALBUM"] = album }
        for field in timed.event.fields {
            let value: String
            switch field.value {
            case .string(let text): value = text
            case .integer(let number): value = String(number)
            case .number(let number, _): value = String(number)
            case .bool(let flag): value = flag ? "true" : "false"
            case .strings(let texts): value = texts.joined(separator: ",")
            case .integers(let numbers): value = numbers.map(String.init).joined(separator: ",")
            case .null: continue
            }
            variables["INTERLUDE_FIELD_" + field.key.uppercased()] = value
        }
        // An environment string cannot hold NUL; a tag with one is cut there.
        return variables.mapValues { $0.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "" }
    }
}
