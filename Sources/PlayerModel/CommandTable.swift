import AudioSession
import InterludeCore
import SpokenAudio

/// What a front end or a service asks of the player: each case is read from
/// a row of `CommandTable` below (its name, arguments and ranges, help,
/// default keys, the front ends that offer it), except the services' own at
/// the end. `PlayerRuntime.perform` is the handler of every case, one switch
/// the compiler keeps whole, and answers with a `CommandResult`. A new
/// command: its case and its row here, its handler there, its test.
/// (Not to be confused with the command line's subcommands, `PlayCommand`,
/// `AlarmCommand` and the like.)
public enum PlayerCommand: Equatable, Sendable {
    // MARK: Playback
    case play
    case pause
    case togglePlayPause
    case next
    case previous
    /// Relative, in the listener's time (a book's own time for a book).
    case seek(seconds: Double)
    /// A station: play at its live edge, leaving its time-shift buffer (at the resume, when paused).
    case goLive
    case setVolume(Double)
    /// Volume to 0, or back to where it was before (mpv's `m`); a volume
    /// change while muted starts from where it was and unmutes.
    case toggleMute
    /// One volume step (`CommandTable.volumeStep`) up or down, within 0 to 1.
    case volumeUp
    case volumeDown
    /// One speed step (0.05x) faster or slower, pitch kept.
    case speedUp
    case speedDown
    /// A speed from 0.5x to 3.0x, taken to the nearest 0.05 step (MPRIS's Rate, the remote's `speed 1.5`).
    case setSpeed(Double)
    /// Spoken audio's pauses shortened: a strength, or nil for the next one
    /// (off, gentle, medium, strong, off...). Remembered with the book or podcast.
    case setTrimSilence(TrimStrength?)
    /// Spoken audio's voices levelled: a target, or nil to turn it on
    /// (-18 LUFS) or off. Remembered with the book or podcast.
    case setVoiceBoost(VoiceBoost?)
    /// Replace what is queued after the current entry with `paths` and play from `startAt`.
    case playQueue([String], startAt: Int)
    case enqueue([String])
    /// Drops what is queued after the entry that plays (the remote's `queue-clear`).
    case clearQueue
    /// Removes, moves or shuffles entries after the one that plays (MPD's `delete`, `move`, `shuffle`).
    case editQueue(QueueEdit)
    /// Paused at the start of what plays (the track; a book's chapter), reported
    /// `stopped` until it plays or moves (MPRIS's Stop, the remote's `stop`).
    case stop
    /// Play the book at this path (a folder of audio files, or one chaptered file).
    case openBook(String)
    /// A path as a book when it is one (`OpenKind.guess`), else as music (a
    /// folder's audio files, a file), in place of what plays; `as` says which.
    case open(String, as: OpenKind?)
    /// Play a podcast's episode as a book (`interlude podcast play`'s words: the podcast, and the episode or the newest).
    case playEpisode(podcast: String, episode: String?)
    /// Shuffle on or off: every file of the list once per cycle.
    case toggleShuffle
    /// Repeat off, all, one, off.
    case cycleRepeat
    /// Writes the queue (from the list that plays) as an extended M3U playlist at `path`;
    /// a bare name goes into the playlists folder.
    case saveQueue(path: String)
    /// Plays the playlist at `path` (a bare name: from the playlists folder); missing files are named and skipped.
    case loadPlaylist(path: String)

    // MARK: The book that plays
    case chapterNext
    case chapterPrevious
    /// Play the current book from chapter `index`.
    case jumpToChapter(Int)
    case skipBack
    case skipForward
    /// The next sleep timer setting: off, 5, 10, 15, 30, 45, 60 min, end of chapter, off.
    case cycleSleepTimer
    case addBookmark(note: String?)
    case jumpToBookmark(id: Int)
    case deleteBookmark(id: Int)

    // MARK: Alarms
    /// An alarm that rings now, removed once it has rung.
    case fireTestAlarm
    /// An alarm `afterSeconds` from now, removed once it has rung.
    case addAlarm(afterSeconds: Int)
    /// A new alarm from what the user typed ("07:30", "in 10m", ...).
    case addAlarmSchedule(String)
    case editAlarm(id: Int, schedule: String)
    case setAlarmEnabled(id: Int, Bool)
    /// Enables a disabled alarm, disables an enabled one (the alarms pane's key, `alarm-toggle ID`).
    case toggleAlarm(id: Int)
    case deleteAlarm(id: Int)
    /// Skips the next occurrence of a repeating alarm (`alarm-skip ID`).
    case skipAlarm(id: Int)
    case snoozeAlarm
    case dismissAlarm

    // MARK: Interruption testing
    /// Suspend the session as a stopped process would be, or continue it.
    case toggleSessionSuspended
    /// Start a simulated call, or end it.
    case toggleCall
    case notificationChime
    case simulateDeviceLoss

    // MARK: Favourite stations (the radio pane; `station ...`)
    /// Adds `url` (nil: the stream playing now) under `name` (nil: the station's own name, else its host).
    case addStation(url: String?, name: String?)
    case renameStation(StationTarget, name: String)
    case removeStation(StationTarget)
    case playStation(StationTarget)

    // MARK: Podcasts (the podcasts pane; `podcast-...`)
    /// Fetches every subscription's feed in the background (conditional requests, a bound in parallel).
    case refreshPodcasts
    /// Downloads an episode in the background (nil: the podcast's newest).
    case downloadEpisode(podcast: String, episode: String?)
    /// Marks an episode heard to its end (`played`) or not heard at all.
    case markEpisode(podcast: String, episode: String, played: Bool)
    /// Subscribes to the feed at `url`, fetched in the background.
    case addPodcast(url: String)
    /// Unsubscribes from the podcast `podcast` names (its id, URL or title).
    case removePodcast(podcast: String)
    /// Subscribes to the feeds of the OPML file at `path`, then refreshes.
    case importPodcasts(path: String)

    case quit

    // MARK: What the services report (no key or socket row: each comes from one service)
    /// Plays queue entry `toQueueIndex` from its start, or moves there paused (MPD's `play N`, `seek N`).
    case jump(toQueueIndex: Int, play: Bool)
    /// Another process replaced the alarms' file: read it again.
    case alarmsFileChanged
    /// The podcasts pane shows: list the subscriptions again from their files (a
    /// `podcast add` in a shell meanwhile), off the loop.
    case listPodcasts
    /// A station's server gave its name (`icy-name`): the favourite station at
    /// `url` is named so, unless the listener named it (it still has its host's name).
    case nameStation(url: String, name: String)
    /// logind announced that the system sleeps, or that it woke (or the sleep was called off).
    case systemWillSleep
    case systemDidWake
    /// Another program's stream on the sound server now counts as `priorityClass` (its `media.role`),
    /// or stopped counting; `stream` is the sound server's index for it.
    case desktopStreamBegan(stream: Int, priorityClass: PriorityClass, program: String)
    case desktopStreamEnded(stream: Int)

    /// Acts on the book that plays: refused when none does.
    public var needsBook: Bool {
        switch self {
        case .chapterNext, .chapterPrevious, .jumpToChapter, .skipBack, .skipForward, .cycleSleepTimer, .addBookmark,
             .jumpToBookmark, .deleteBookmark:
            true
        default:
            false
        }
    }
}

extension PlayerCommand {
    /// Starts playback when paused: refused while a higher-priority session
    /// (an alarm, a call) holds the output, which the player reports itself.
    public var startsPlayback: Bool {
        switch self {
        case .play, .togglePlayPause: true
        default: false
        }
    }
}


/// Every command of the player, once: keys (`KeyAction`, the default
/// bindings and `?` help), standard input (`StandardInputVocabulary`), the
/// control socket (`RemoteVocabulary`) and `interlude remote` with its
/// `--help`, and MPRIS all read these rows, as mpv's front ends read its
/// `command.c`. The one names are the keys file's, which users' files have
/// named longest; the socket's and standard input's words live on as aliases.
///
/// The screen's own actions (focus, lists, help, theme) are rows too, with
/// `scope: .screen`: the keys file binds both kinds by name from one
/// namespace, and `?` help lists both, so one table keeps a name from meaning
/// two things. The order is help's order (by section).
public enum CommandTable {
    /// A seek either way by at most a thousand hours (longer than any book), as the dispatcher allows.
    public static let seekRange = DurationRange(seconds: -1000 * 3600...1000 * 3600)
    /// A place from the start of the track or book.
    public static let placeRange = DurationRange(seconds: 0...1000 * 3600)
    /// Alarm and bookmark ids are positive and small.
    public static let idRange = CountRange(1...Int(Int32.max))
    /// `alarm-in`: whole seconds, at most a week, as `alarm add in` allows.
    public static let alarmDelayRange = CountRange(1...7 * 24 * 3600, unit: "seconds")
    /// A queue position (0 the first entry) or a number of entries.
    public static let queueRange = CountRange(0...Int(Int32.max))
    public static let volumeRange: ClosedRange<Double> = 0...1
    /// `seek-back` and `seek-forward`, in seconds.
    public static let seekStep = 10.0
    /// `volume-up` and `volume-down`, on the 0-to-1 scale.
    public static let volumeStep = 0.05
    public static let speedRange: ClosedRange<Double> = 0.5...3.0

    public static func entry(named word: String) -> CommandSpec? {
        entries.first { $0.isCalled(word) }
    }

    /// The command an MPRIS member stands for.
    public static func entry(mpris name: String, interface: String) -> CommandSpec? {
        entries.first { $0.mpris?.name == name && $0.mpris?.interface == interface }
    }

    /// The command an MPD protocol command stands for (`setvol` is `volume`).
    public static func entry(mpd name: String) -> CommandSpec? {
        entries.first { $0.mpd.contains(name) }
    }

    /// The rows a front end offers, in the table's order.
    public static func offered(by frontEnd: CommandSpec.FrontEnds) -> [CommandSpec] {
        entries.filter { $0.frontEnds.contains(frontEnd) }
    }

    private static func plain(_ command: PlayerCommand) -> @Sendable (RemoteArguments) throws(RemoteArgumentError) -> RemoteAction {
        { arguments throws(RemoteArgumentError) in
            try arguments.none()
            return .perform(command)
        }
    }

    private static func reading(_ action: RemoteAction) -> @Sendable (RemoteArguments) throws(RemoteArgumentError) -> RemoteAction {
        { arguments throws(RemoteArgumentError) in
            try arguments.none()
            return action
        }
    }

    private static let all: CommandSpec.FrontEnds = [.keys, .standardInput, .socket]
    private static let keysAndSocket: CommandSpec.FrontEnds = [.keys, .socket]
    private static let seconds = CommandArgument("SECONDS", .seconds(seekRange))
    private static let alarmID = CommandArgument("ID", .count(idRange))
    private static let paths = CommandArgument("PATH", .path, repeats: true)
    private static let stationNumber = CommandArgument("N", .count(StationNumbers.range))
    private static let podcast = CommandArgument("PODCAST", .text)
    private static let stationNumberText = "a station's number (as station-list shows it)"
    private static let position = CommandArgument("POSITION", .count(queueRange))
    private static let entries_ = CommandArgument("COUNT", .count(queueRange), optional: true)
    private static let positions = "a queue position (0 is the first entry), then optionally how many"

    public static let entries: [CommandSpec] = [
        // Playback
        CommandSpec("play", .playback, "play", offeredBy: [.standardInput, .socket], mpris: .player("Play"), mpd: ["play"],
                    parse: plain(.play)),
        CommandSpec("pause", .playback, "pause", offeredBy: [.standardInput, .socket], mpris: .player("Pause"), mpd: ["pause"],
                    parse: plain(.pause)),
        CommandSpec("play-pause", aliases: ["toggle"], .playback, "play or pause", keys: ["space"], offeredBy: all,
                    mpris: .player("PlayPause"), parse: plain(.togglePlayPause)),
        CommandSpec("stop", .playback, "stop: pause at the start of the track (or chapter)", keys: ["H"], offeredBy: all,
                    mpris: .player("Stop"), mpd: ["stop"], parse: plain(.stop)),
        CommandSpec("next", .playback, "next track", keys: ["n"], offeredBy: keysAndSocket, mpris: .player("Next"), mpd: ["next"],
                    parse: plain(.next)),
        CommandSpec("previous", aliases: ["prev"], .playback, "previous track", keys: ["p"], offeredBy: keysAndSocket,
                    mpris: .player("Previous"), mpd: ["previous"], parse: plain(.previous)),
        CommandSpec("seek", .playback, "seek by SECONDS, back (-) or forward", arguments: [seconds], offeredBy: .socket,
                    mpris: .player("Seek"), mpd: ["seekcur"]) { arguments throws(RemoteArgumentError) in
            .perform(.seek(seconds: try arguments.seconds("seconds (a number)", in: seekRange)))
        },
        CommandSpec("seek-to", .playback,
                    "seek to a time: 1:23:45, 12:30 or 90 (seconds) from the start, +30 or -10 from here (a book: in book time; the key asks)",
                    arguments: [CommandArgument("TIME", .seconds(placeRange))], keys: ["@"], offeredBy: keysAndSocket,
                    mpris: .player("SetPosition"), mpd: ["seek", "seekid"]) { arguments throws(RemoteArgumentError) in
            try seekTo(arguments)
        },
        CommandSpec("go-live", .playback, "a station: jump to its live edge, past what its time-shift buffer holds",
                    keys: ["l"], offeredBy: all, parse: plain(.goLive)),
        CommandSpec("seek-back", .playback, "seek back", keys: ["left"], offeredBy: keysAndSocket,
                    parse: plain(.seek(seconds: -seekStep))),
        CommandSpec("seek-forward", .playback, "seek forward", keys: ["right"], offeredBy: keysAndSocket,
                    parse: plain(.seek(seconds: seekStep))),
        CommandSpec("volume", .playback, "set the volume, 0 to 1", arguments: [CommandArgument("0..1", .number(volumeRange))],
                    offeredBy: .socket, mpris: .player("Volume", .writableProperty), mpd: ["setvol", "volume"]) { arguments throws(RemoteArgumentError) in
            .perform(.setVolume(try arguments.number("a number from 0 to 1", in: volumeRange)))
        },
        CommandSpec("mute", aliases: ["mute-toggle"], .playback, "mute, or unmute to the volume before (a volume change unmutes)",
                    keys: ["_"], offeredBy: all, parse: plain(.toggleMute)),
        CommandSpec("volume-up", .playback, "volume up", keys: ["+", "="], offeredBy: keysAndSocket, parse: plain(.volumeUp)),
        CommandSpec("volume-down", .playback, "volume down", keys: ["-"], offeredBy: keysAndSocket, parse: plain(.volumeDown)),
        CommandSpec("speed", .playback, "speed up or down a step, or set it (0.5 to 3.0, pitch kept)",
                    arguments: [CommandArgument("up|down|0.5..3.0", .number(speedRange, orWords: ["up", "down"]))],
                    offeredBy: .socket, mpris: .player("Rate", .writableProperty)) { arguments throws(RemoteArgumentError) in
            if arguments.values.count == 1, let value = arguments.values[0].doubleValue {
                guard value.isFinite, speedRange.contains(value) else {
                    throw RemoteArgumentError("\(arguments.command): expects 0.5 to 3.0, not \(value)")
                }
                return .perform(.setSpeed(value))
            }
            switch try arguments.string("\"up\", \"down\" or a number from 0.5 to 3.0") {
            case "up": return .perform(.speedUp)
            case "down": return .perform(.speedDown)
            case let other:
                throw RemoteArgumentError("\(arguments.command): expects \"up\", \"down\" or a number from 0.5 to 3.0, not '\(other)'")
            }
        },
        CommandSpec("play-selection", .playback, "play the selection", keys: ["enter"], scope: .screen, offeredBy: .keys,
                    parse: nil),
        CommandSpec("queue-add", .playback, "add to the queue (the selection, or PATH...)", arguments: [paths], keys: ["e"],
                    offeredBy: keysAndSocket, mpd: ["add", "addid"]) { arguments throws(RemoteArgumentError) in
            .perform(.enqueue(try arguments.strings("one or more paths (strings)")))
        },
        CommandSpec("play-files", .playback, "play PATH... now, in place of what is queued", arguments: [paths],
                    offeredBy: .socket, mpris: .player("OpenUri")) { arguments throws(RemoteArgumentError) in
            .perform(.playQueue(try arguments.strings("one or more paths (strings)"), startAt: 0))
        },
        CommandSpec("queue-remove", .playback,
                    "remove COUNT queued files (1) from POSITION (0 the first) after the track that plays "
                    + "(the key: the queue pane's selection or marked entries, any of them; delete there too)",
                    arguments: [position, entries_], keys: ["backspace"], offeredBy: keysAndSocket,
                    mpd: ["delete", "deleteid"]) { arguments throws(RemoteArgumentError) in
            let numbers = try arguments.integers(positions, in: queueRange, counts: 1...2)
            return .perform(.editQueue(.remove(from: numbers[0], count: numbers.count > 1 ? numbers[1] : 1)))
        },
        CommandSpec("queue-move", .playback, "move COUNT queued files (1) from POSITION to TO, after the track that plays",
                    arguments: [position, CommandArgument("TO", .count(queueRange)), entries_],
                    offeredBy: .socket, mpd: ["move", "moveid"]) { arguments throws(RemoteArgumentError) in
            let numbers = try arguments.integers("a queue position, where it goes, then optionally how many", in: queueRange,
                                                 counts: 2...3)
            return .perform(.editQueue(.move(from: numbers[0], count: numbers.count > 2 ? numbers[2] : 1, to: numbers[1])))
        },
        CommandSpec("queue-move-up", .playback,
                    "move COUNT queue entries (1) from POSITION one place up, any of them (the key: the queue pane's selection or marked entries)",
                    arguments: [position, entries_], keys: ["K"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            let numbers = try arguments.integers(positions, in: queueRange, counts: 1...2)
            return .perform(.editQueue(.shift(from: numbers[0], count: numbers.count > 1 ? numbers[1] : 1, by: -1)))
        },
        CommandSpec("queue-move-down", .playback,
                    "move COUNT queue entries (1) from POSITION one place down, any of them (the key: the queue pane's selection or marked entries)",
                    arguments: [position, entries_], keys: ["J"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            let numbers = try arguments.integers(positions, in: queueRange, counts: 1...2)
            return .perform(.editQueue(.shift(from: numbers[0], count: numbers.count > 1 ? numbers[1] : 1, by: 1)))
        },
        CommandSpec("queue-clear", .playback, "drop what is queued after the track that plays", keys: ["Y"], offeredBy: keysAndSocket,
                    mpd: ["clear"], parse: plain(.clearQueue)),
        CommandSpec("queue-mark", .playback,
                    "mark the queue pane's selection: remove and move then take every entry from the mark to the selection (again: unmark)",
                    keys: ["y"], scope: .screen, offeredBy: .keys, parse: nil),
        CommandSpec("queue-shuffle", .playback, "put the files queued after the track that plays in a random order (once)",
                    offeredBy: .socket, mpd: ["shuffle"], parse: plain(.editQueue(.shuffle(from: 0, count: Int(Int32.max))))),
        CommandSpec("queue-list", aliases: ["queue"], .playback, "list the queue", offeredBy: .socket,
                    parse: reading(.queueList)),
        CommandSpec("shuffle-toggle", aliases: ["shuffle"], .playback, "shuffle on or off", keys: ["u"], offeredBy: all,
                    mpris: .player("Shuffle", .writableProperty), mpd: ["random"], parse: plain(.toggleShuffle)),
        CommandSpec("repeat-cycle", aliases: ["repeat"], .playback, "repeat: off, all, one (cycles)", keys: ["r"],
                    offeredBy: all, mpris: .player("LoopStatus", .writableProperty), mpd: ["repeat", "single"], parse: plain(.cycleRepeat)),
        CommandSpec("queue-save", .playback, "save the queue as a playlist (the key asks for a name)",
                    arguments: [CommandArgument("PATH|NAME", .text)], keys: ["w"],
                    offeredBy: keysAndSocket, mpd: ["save"]) { arguments throws(RemoteArgumentError) in
            .perform(.saveQueue(path: try arguments.string("a playlist path or name (a string)")))
        },
        CommandSpec("playlist-load", .playback, "play a playlist (a path, or a name in the playlists folder)",
                    arguments: [CommandArgument("PATH|NAME", .text)], offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            .perform(.loadPlaylist(path: try arguments.string("a playlist path or name (a string)")))
        },

        // Navigation: the screen's own.
        screen("up", .navigation, "move up", keys: ["up", "k"]),
        screen("down", .navigation, "move down", keys: ["down", "j"]),
        screen("page-up", .navigation, "page up", keys: ["pgup"]),
        screen("page-down", .navigation, "page down", keys: ["pgdn"]),
        screen("top", .navigation, "go to the top", keys: ["home", "g"]),
        screen("bottom", .navigation, "go to the bottom", keys: ["end", "G"]),
        screen("next-pane", .navigation, "next pane", keys: ["tab"]),
        screen("pane-1", .navigation, "browser pane", keys: ["1"]),
        screen("browser-home", .navigation, "browser: the home folder (.. goes up from any folder; the music folder's top leads to the books folder)",
               keys: ["~"]),
        screen("pane-2", .navigation, "queue pane", keys: ["2"]),
        screen("pane-3", .navigation, "now playing pane", keys: ["3"]),
        screen("pane-4", .navigation, "alarms pane", keys: ["4"]),
        screen("pane-5", .navigation, "event log pane", keys: ["5"]),
        screen("pane-6", .navigation, "books pane", keys: ["6"]),
        screen("pane-7", .navigation, "chapters pane", keys: ["7"]),
        screen("pane-8", .navigation, "bookmarks pane", keys: ["8"]),
        screen("filter", .navigation, "filter the list (the library: search as you type)", keys: ["/"]),
        screen("pane-9", .navigation, "library pane", keys: ["9"]),
        screen("pane-0", .navigation, "playlists pane", keys: ["0"]),
        screen("lyrics", .navigation, "lyrics pane (the line heard now highlighted)", keys: ["L"]),
        screen("library-view", .navigation, "library: tree (artist, album, tracks) or all tracks", keys: ["v"]),
        screen("library-sort", .navigation, "library: sort the tracks by the next column", keys: ["V"]),
        screen("radio", .navigation, "radio pane: the favourite stations", keys: ["R"]),
        screen("podcasts", .navigation, "podcasts pane: the podcasts, enter a podcast's episodes (again: back to the podcasts)",
               keys: ["P"]),

        // Audiobooks
        CommandSpec("chapter-next", aliases: ["next-chapter"], .audiobooks, "next chapter", keys: [">"], offeredBy: all,
                    parse: plain(.chapterNext)),
        CommandSpec("chapter-previous", aliases: ["prev-chapter", "chapter-prev"], .audiobooks, "previous chapter",
                    keys: ["<"], offeredBy: all, parse: plain(.chapterPrevious)),
        CommandSpec("speed-up", .audiobooks, "faster", keys: ["]"], offeredBy: keysAndSocket, parse: plain(.speedUp)),
        CommandSpec("speed-down", .audiobooks, "slower", keys: ["["], offeredBy: keysAndSocket, parse: plain(.speedDown)),
        CommandSpec("trim-silence", aliases: ["smart-speed"], .audiobooks,
                    "book or podcast: shorten pauses (off, gentle, medium, strong; the key cycles)",
                    arguments: [CommandArgument("off|on|gentle|medium|strong", .text, optional: true)], keys: ["Z"],
                    offeredBy: all) { arguments throws(RemoteArgumentError) in
            guard let word = try arguments.optionalString("off, on, gentle, medium or strong") else {
                return .perform(.setTrimSilence(nil))
            }
            guard let strength = TrimStrength(parsing: word) else {
                throw RemoteArgumentError("\(arguments.command): expects \(TrimStrength.accepts), not '\(word)'")
            }
            return .perform(.setTrimSilence(strength))
        },
        CommandSpec("voice-boost", .audiobooks, "book or podcast: level voices live (off, on, or -24..-12 LUFS; the key toggles)",
                    arguments: [CommandArgument("off|on|-24..-12", .text, optional: true)], keys: ["B"],
                    offeredBy: all) { arguments throws(RemoteArgumentError) in
            let word: String?
            if arguments.values.count == 1, let value = arguments.values[0].doubleValue {
                word = value.isFinite && value == value.rounded() && abs(value) < 1000 ? String(Int(value)) : "\(value)"
            } else {
                word = try arguments.optionalString("off, on, or a loudness from -24 to -12")
            }
            guard let word else { return .perform(.setVoiceBoost(nil)) }
            guard let boost = VoiceBoost(parsing: word) else {
                throw RemoteArgumentError("\(arguments.command): expects \(VoiceBoost.accepts), not '\(word)'")
            }
            return .perform(.setVoiceBoost(boost))
        },
        CommandSpec("sleep-timer", aliases: ["sleep"], .audiobooks, "sleep timer: off, 5-60 min, end of chapter (cycles)",
                    keys: ["S"], offeredBy: keysAndSocket, parse: plain(.cycleSleepTimer)),
        CommandSpec("skip-back", .audiobooks, "book: back 30 s", keys: [","], offeredBy: all, parse: plain(.skipBack)),
        CommandSpec("skip-forward", .audiobooks, "book: forward 30 s", keys: ["."], offeredBy: all, parse: plain(.skipForward)),
        CommandSpec("bookmark-add", aliases: ["bookmark"], .audiobooks, "add a bookmark (the key asks for a note)",
                    arguments: [CommandArgument("NOTE", .text, optional: true)], keys: ["m"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            let note = try arguments.optionalString("a note (a string), or nothing")
            if let problem = note.flatMap(TextLimit.note.problem) { throw RemoteArgumentError("\(arguments.command): \(problem)") }
            return .perform(.addBookmark(note: note))
        },
        CommandSpec("bookmark-delete", .audiobooks, "delete a bookmark (the selected one, or ID)",
                    arguments: [CommandArgument("ID", .count(idRange))], keys: ["delete"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.deleteBookmark(id: try arguments.integer("a bookmark id (a positive integer)", in: idRange)))
        },
        CommandSpec("book-open", aliases: ["open-book", "book"], .audiobooks, "open a book (the browser's selection, or PATH)",
                    arguments: [CommandArgument("PATH", .path)], keys: ["b"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.openBook(try arguments.string("a path (a string)")))
        },
        CommandSpec("open", .audiobooks,
                    "open PATH: a book when it is one (chapters, an M4B, a folder in the books folder, a book heard before), "
                    + "else music (a folder's audio files, and its folders'), in place of what plays; book or music says which",
                    arguments: [CommandArgument("PATH", .path), CommandArgument("book|music", .text, optional: true)],
                    offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            let words = try arguments.strings("a path, then optionally book or music (strings)")
            guard words.count <= 2 else { throw RemoteArgumentError("\(arguments.command): expects a path, then optionally book or music") }
            guard words.count == 1 || OpenKind(rawValue: words[1]) != nil else {
                throw RemoteArgumentError("\(arguments.command): expects book or music after the path, not '\(words[1])'")
            }
            return .perform(.open(words[0], as: words.count > 1 ? OpenKind(rawValue: words[1]) : nil))
        },
        CommandSpec("podcast-play", aliases: ["episode-play"], .audiobooks,
                    "play a podcast's episode as a book (its download, else streamed)",
                    arguments: [CommandArgument("PODCAST", .text), CommandArgument("EPISODE", .text, optional: true)],
                    offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            let words = try arguments.strings("a podcast and optionally an episode (strings)")
            guard words.count <= 2 else { throw RemoteArgumentError("\(arguments.command): expects a podcast and at most one episode") }
            return .perform(.playEpisode(podcast: words[0], episode: words.count > 1 ? words[1] : nil))
        },

        // Alarms
        CommandSpec("alarm-add", aliases: ["alarm-new"], .alarms, "new alarm (07:30, in 10m, ...)",
                    arguments: [CommandArgument("WHEN", .text)], keys: ["o"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.addAlarmSchedule(try arguments.string("when it rings (a string such as \"07:30\")")))
        },
        CommandSpec("alarm-edit", .alarms, "change an alarm's time (the selected one, or ID WHEN)",
                    arguments: [alarmID, CommandArgument("WHEN", .text)], keys: ["E"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.editAlarm(id: try arguments.prefix(1).integer("an alarm id (a positive integer)", in: idRange),
                                schedule: try arguments.dropFirst(1).string("when it rings (a string such as \"07:30\")")))
        },
        CommandSpec("alarm-toggle", .alarms, "enable or disable an alarm (the selected one, or ID)", arguments: [alarmID],
                    keys: ["T"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.toggleAlarm(id: try arguments.integer("an alarm id (a positive integer)", in: idRange)))
        },
        CommandSpec("alarm-delete", .alarms, "delete an alarm (the selected one, or ID)", arguments: [alarmID], keys: ["d"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.deleteAlarm(id: try arguments.integer("an alarm id (a positive integer)", in: idRange)))
        },
        CommandSpec("alarm-enable", .alarms, "enable alarm ID", arguments: [alarmID],
                    offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            .perform(.setAlarmEnabled(id: try arguments.integer("an alarm id (a positive integer)", in: idRange), true))
        },
        CommandSpec("alarm-disable", .alarms, "disable alarm ID", arguments: [alarmID],
                    offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            .perform(.setAlarmEnabled(id: try arguments.integer("an alarm id (a positive integer)", in: idRange), false))
        },
        CommandSpec("alarm-skip", .alarms, "skip the next occurrence of repeating alarm ID (the one after rings)",
                    arguments: [alarmID], offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            .perform(.skipAlarm(id: try arguments.integer("an alarm id (a positive integer)", in: idRange)))
        },
        CommandSpec("alarm-list", aliases: ["alarms"], .alarms, "list the alarms", offeredBy: .socket,
                    parse: reading(.alarmList)),

        // Radio: the favourite stations (`$XDG_DATA_HOME/interlude/stations.m3u`).
        CommandSpec("station-add", .radio, "add a station (URL [NAME]; the key: the stream playing now)",
                    arguments: [CommandArgument("URL", .text, optional: true), CommandArgument("NAME", .text, optional: true)],
                    keys: ["f"], offeredBy: all) { arguments throws(RemoteArgumentError) in
            guard arguments.values.count <= 2 else { throw RemoteArgumentError("\(arguments.command): expects a URL and a name, or fewer") }
            return .perform(.addStation(url: try arguments.prefix(1).optionalString("a station's URL (a string)"),
                                        name: try arguments.dropFirst(1).optionalString("a name (a string)")))
        },
        CommandSpec("station-add-url", .radio, "add a station by its URL [NAME] (the key asks for the URL)",
                    arguments: [CommandArgument("URL", .text), CommandArgument("NAME", .text, optional: true)],
                    keys: ["F"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            guard arguments.values.count <= 2 else { throw RemoteArgumentError("\(arguments.command): expects a URL and a name, or fewer") }
            return .perform(.addStation(url: try arguments.prefix(1).string("a station's URL (a string)"),
                                        name: try arguments.dropFirst(1).optionalString("a name (a string)")))
        },
        CommandSpec("station-rename", .radio, "rename station N (the key: the radio pane's selection)",
                    arguments: [stationNumber, CommandArgument("NAME", .text)], keys: ["C"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.renameStation(.number(try arguments.prefix(1).integer(stationNumberText, in: StationNumbers.range)),
                                    name: try arguments.dropFirst(1).string("a new name (a string)")))
        },
        CommandSpec("station-remove", aliases: ["station-delete"], .radio, "remove station N (the key: the radio pane's selection)",
                    arguments: [stationNumber], keys: ["X"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.removeStation(.number(try arguments.integer(stationNumberText, in: StationNumbers.range))))
        },
        CommandSpec("station-play", .radio, "play station N", arguments: [stationNumber],
                    offeredBy: .socket) { arguments throws(RemoteArgumentError) in
            .perform(.playStation(.number(try arguments.integer(stationNumberText, in: StationNumbers.range))))
        },
        CommandSpec("station-list", aliases: ["stations"], .radio, "list the favourite stations", offeredBy: .socket,
                    parse: reading(.stationList)),

        // Podcasts: the subscriptions of `interlude podcast`, refreshed and downloaded in the background.
        CommandSpec("podcast-refresh", .podcasts, "refresh every podcast's feed in the background", keys: ["U"],
                    offeredBy: keysAndSocket, parse: plain(.refreshPodcasts)),
        CommandSpec("podcast-add", aliases: ["podcast-subscribe"], .podcasts,
                    "subscribe to the feed at URL, fetched in the background (the key asks for the URL)",
                    arguments: [CommandArgument("URL", .text)], keys: ["O"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.addPodcast(url: try arguments.string("a feed's URL (a string)")))
        },
        CommandSpec("podcast-remove", aliases: ["podcast-unsubscribe"], .podcasts,
                    "unsubscribe from PODCAST (the key: the podcasts pane's selection, once confirmed)",
                    arguments: [podcast], keys: ["ctrl-x"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.removePodcast(podcast: try arguments.string("a podcast (a string)")))
        },
        CommandSpec("podcast-import", .podcasts,
                    "subscribe to the feeds of an OPML file, then refresh (the key asks for the path)",
                    arguments: [CommandArgument("PATH", .text)], keys: ["I"], offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.importPodcasts(path: try arguments.string("an OPML file's path (a string)")))
        },
        CommandSpec("podcast-download", .podcasts,
                    "download an episode in the background (the newest without EPISODE; the key: the podcasts pane's selection)",
                    arguments: [podcast, CommandArgument("EPISODE", .text, optional: true)], keys: ["W"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            let words = try arguments.strings("a podcast and optionally an episode (strings)")
            guard (1...2).contains(words.count) else {
                throw RemoteArgumentError("\(arguments.command): expects a podcast and at most one episode")
            }
            return .perform(.downloadEpisode(podcast: words[0], episode: words.count > 1 ? words[1] : nil))
        },
        CommandSpec("podcast-mark", .podcasts,
                    "mark an episode played or unplayed (the key: the podcasts pane's selection, toggled)",
                    arguments: [podcast, CommandArgument("EPISODE", .text), CommandArgument("played|unplayed", .text)], keys: ["M"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            let words = try arguments.strings("a podcast, an episode and played or unplayed (strings)")
            guard words.count == 3, words[2] == "played" || words[2] == "unplayed" else {
                throw RemoteArgumentError("\(arguments.command): expects a podcast, an episode and played or unplayed")
            }
            return .perform(.markEpisode(podcast: words[0], episode: words[1], played: words[2] == "played"))
        },

        // Alarm and interruption testing
        CommandSpec("alarm-fire-test", aliases: ["alarm-fire"], .alarmTesting, "fire a test alarm now", keys: ["a"],
                    offeredBy: keysAndSocket, parse: plain(.fireTestAlarm)),
        CommandSpec("alarm-in", aliases: ["alarm-ask"], .alarmTesting, "an alarm in SECONDS (the key asks how many)",
                    arguments: [CommandArgument("SECONDS", .count(alarmDelayRange))], keys: ["A"],
                    offeredBy: keysAndSocket) { arguments throws(RemoteArgumentError) in
            .perform(.addAlarm(afterSeconds: try arguments.integer(
                "whole seconds from \(alarmDelayRange.range.lowerBound) to \(alarmDelayRange.range.upperBound)", in: alarmDelayRange)))
        },
        CommandSpec("alarm-snooze", aliases: ["snooze"], .alarmTesting, "snooze the ringing alarm", keys: ["z"],
                    offeredBy: all, parse: plain(.snoozeAlarm)),
        CommandSpec("alarm-dismiss", aliases: ["dismiss"], .alarmTesting, "dismiss the ringing alarm (or the missed-alarm notice)", keys: ["x"],
                    offeredBy: all, parse: plain(.dismissAlarm)),
        CommandSpec("session-suspend-toggle", .alarmTesting, "suspend or continue the audio session", keys: ["s"],
                    offeredBy: keysAndSocket, parse: plain(.toggleSessionSuspended)),
        CommandSpec("suspend", .alarmTesting, "suspend the audio session (as Ctrl-Z would)", offeredBy: .socket,
                    parse: reading(.suspend)),
        CommandSpec("continue", .alarmTesting, "continue the suspended session", offeredBy: .socket,
                    parse: reading(.resumeSession)),
        CommandSpec("call-toggle", .alarmTesting, "start or end a simulated call", keys: ["c"], offeredBy: keysAndSocket,
                    parse: plain(.toggleCall)),
        CommandSpec("call-start", .alarmTesting, "start a simulated call", offeredBy: .socket, parse: reading(.callStart)),
        CommandSpec("call-end", .alarmTesting, "end the simulated call", offeredBy: .socket, parse: reading(.callEnd)),
        CommandSpec("notification-chime", aliases: ["notification"], .alarmTesting, "play a notification chime (ducks)",
                    keys: ["N"], offeredBy: keysAndSocket, parse: plain(.notificationChime)),
        CommandSpec("device-lost", aliases: ["device-loss"], .alarmTesting, "simulate losing the output device",
                    keys: ["D"], offeredBy: keysAndSocket, parse: plain(.simulateDeviceLoss)),

        // General
        CommandSpec("status", .general, "what plays (--json: the player's own object)", offeredBy: .socket,
                    mpd: ["status"], parse: reading(.status)),
        CommandSpec("subscribe", aliases: ["events"], .general, "every event as `--events json` prints it, until interrupted",
                    offeredBy: .socket, parse: reading(.subscribe)),
        screen("help", .general, "this help", keys: ["?"]),
        screen("theme-cycle", .general, "next theme", keys: ["t"]),
        screen("leave", .general, "leave the screen (a player in the background goes on playing)", keys: ["q"]),
        CommandSpec("quit", .general, "quit the player (state is saved; alarms ring only while it runs)", keys: ["Q"], offeredBy: all,
                    mpris: CommandSpec.MprisMember(interface: CommandSpec.MprisMember.rootInterface, name: "Quit", kind: .method),
                    parse: plain(.quit)),
    ]

    /// `seek-to`'s reading: a number is seconds from the start; a text is a time as
    /// people write one ("1:23:45", "12:30", "90", "10m"), from the start, or with
    /// `+` or `-` from where the listener is (a relative seek).
    private static func seekTo(_ arguments: RemoteArguments) throws(RemoteArgumentError) -> RemoteAction {
        let what = "a time from the start (90, 12:30, 1:23:45) or from here (+30, -10)"
        guard arguments.values.count == 1, let text = arguments.values[0].stringValue else {
            // Typed at the prompt, "-10" reads as a number: back from here, as "+30" is forward.
            if arguments.typed, let number = arguments.values.first?.doubleValue, number < 0 {
                return .perform(.seek(seconds: try arguments.seconds(what, in: seekRange)))
            }
            return .seekTo(seconds: try arguments.seconds(what, in: placeRange))
        }
        let words = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard let seconds = RemoteCommandLine.duration(words) else {
            throw RemoteArgumentError("\(arguments.command): expects \(what), not \(arguments.describe(arguments.values[0]))")
        }
        if words.hasPrefix("+") || words.hasPrefix("-") {
            return .perform(.seek(seconds: try arguments.replacing(with: .double(seconds)).seconds(what, in: seekRange)))
        }
        return .seekTo(seconds: try arguments.replacing(with: .double(seconds)).seconds(what, in: placeRange))
    }

    private static func screen(_ name: String, _ section: CommandSection, _ summary: String, keys: [String]) -> CommandSpec {
        CommandSpec(name, section, summary, keys: keys, scope: .screen, offeredBy: .keys, parse: nil)
    }
}
