import AudioSession

/// What a front end asks of the player. Keys, standard input and (next) the
/// control socket and MPRIS only translate their text into these values;
/// `PlayerRuntime.perform` carries every one of them out, in one place, and
/// answers with a `CommandResult`. (Not to be confused with the command
/// line's subcommands, `PlayCommand`, `AlarmCommand` and the like.)
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
    /// One volume step (`CommandTable.volumeStep`) up or down, within 0 to 1.
    case volumeUp
    case volumeDown
    /// One speed step (0.05x) faster or slower, pitch kept.
    case speedUp
    case speedDown
    /// A speed from 0.5x to 3.0x, taken to the nearest 0.05 step (MPRIS's Rate, the remote's `speed 1.5`).
    case setSpeed(Double)
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

    case quit

    // MARK: What the services report (no key or socket row: each comes from one service)
    /// Plays queue entry `toQueueIndex` from its start, or moves there paused (MPD's `play N`, `seek N`).
    case jump(toQueueIndex: Int, play: Bool)
    /// Another process replaced the alarms' file: read it again.
    case alarmsFileChanged
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

/// The player's answer to a command, for the front end that sent it: data,
/// which each front end words (`CommandReport.sentence`, `Refusal.sentence`).
public enum CommandResult: Equatable, Sendable {
    /// Carried out; `report` is what there is to say about it, if anything.
    case done(report: CommandReport?)
    /// Not carried out, and why.
    case refused(reason: Refusal)

    public static let done = CommandResult.done(report: nil)
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

/// Which favourite station a command means: a number as `station list`
/// shows it now (the remote's), or the URL the radio pane has selected (its
/// number may have changed meanwhile, by another process's edit).
public enum StationTarget: Equatable, Sendable {
    case number(Int)
    case url(String)
}
