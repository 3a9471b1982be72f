import PlayerModel

/// Everything a key can do: the rows of `CommandTable` that keys offer, as a
/// type the screen switches on. The raw values are the table's one names,
/// which the keys file uses (`bind space play-pause`); the table's aliases
/// are read too (`bind o alarm-new`). Declaration order is the table's, and
/// so the help listing's (`KeyActionTableTests` checks both).
public enum KeyAction: String, CaseIterable, Sendable {
    // Playback
    case playPause = "play-pause"
    case next = "next"
    case previous = "previous"
    case goLive = "go-live"
    case seekBack = "seek-back"
    case seekForward = "seek-forward"
    case volumeUp = "volume-up"
    case volumeDown = "volume-down"
    case playSelection = "play-selection"
    case queueAdd = "queue-add"
    case shuffleToggle = "shuffle-toggle"
    case repeatCycle = "repeat-cycle"
    case queueSave = "queue-save"

    // Navigation
    case up = "up"
    case down = "down"
    case pageUp = "page-up"
    case pageDown = "page-down"
    case top = "top"
    case bottom = "bottom"
    case nextPane = "next-pane"
    case pane1 = "pane-1"
    case pane2 = "pane-2"
    case pane3 = "pane-3"
    case pane4 = "pane-4"
    case pane5 = "pane-5"
    case pane6 = "pane-6"
    case pane7 = "pane-7"
    case pane8 = "pane-8"
    case filter = "filter"
    case pane9 = "pane-9"
    case pane0 = "pane-0"
    case lyrics = "lyrics"
    case libraryView = "library-view"
    case librarySort = "library-sort"
    case radio = "radio"
    case podcasts = "podcasts"

    // Audiobooks
    case chapterNext = "chapter-next"
    case chapterPrevious = "chapter-previous"
    case speedUp = "speed-up"
    case speedDown = "speed-down"
    case sleepTimer = "sleep-timer"
    case skipBack = "skip-back"
    case skipForward = "skip-forward"
    case bookmarkAdd = "bookmark-add"
    case bookmarkDelete = "bookmark-delete"
    case bookOpen = "book-open"

    // Alarms pane: new, edit, enable/disable, delete (edit, toggle and delete act on its selection).
    case alarmNew = "alarm-add"
    case alarmEdit = "alarm-edit"
    case alarmToggle = "alarm-toggle"
    case alarmDelete = "alarm-delete"

    // Radio pane: add the playing stream or a typed URL, rename, remove (its selection).
    case stationAdd = "station-add"
    case stationAddURL = "station-add-url"
    case stationRename = "station-rename"
    case stationRemove = "station-remove"

    // Podcasts pane: refresh every feed, download or mark the selected episode.
    case podcastRefresh = "podcast-refresh"
    case podcastDownload = "podcast-download"
    case podcastMark = "podcast-mark"

    // Alarm and interruption testing: drive every interruption path from the keyboard.
    case alarmFireTest = "alarm-fire-test"
    case alarmAsk = "alarm-in"
    case alarmSnooze = "alarm-snooze"
    case alarmDismiss = "alarm-dismiss"
    case sessionSuspendToggle = "session-suspend-toggle"
    case callToggle = "call-toggle"
    case notificationChime = "notification-chime"
    case deviceLost = "device-lost"

    // General
    case help = "help"
    case themeCycle = "theme-cycle"
    case quit = "quit"

    /// The table's row.
    public var entry: CommandSpec { CommandTable.entry(named: rawValue)! }

    public var section: KeySection { entry.section }

    /// One line for the help listing: what the key does, in the user's words.
    public var summary: String { entry.summary }

    /// The action a keys file's name stands for: the one name or an alias, any case.
    public init?(named word: String) {
        guard let entry = CommandTable.offered(by: .keys).first(where: { $0.isCalled(word) }) else { return nil }
        self.init(rawValue: entry.name)
    }
}
