import PlayerModel

/// Everything a key can do: the rows of `CommandTable` that keys offer. A
/// key binds to a row by its one name (`bind space play-pause`) or an alias
/// (`bind o alarm-new`), and a row with a plain command needs nothing here:
/// its binding holds the command (`KeyBinding.command`). The constants below
/// are the rows the screen itself acts on or names in its hints; `allCases`
/// is every key row in the table's order, so help's.
public struct KeyAction: RawRepresentable, CaseIterable, Hashable, Sendable {
    /// The row's one name.
    public let rawValue: String

    /// The key row called exactly `rawValue`; nil for a name no key row has.
    public init?(rawValue: String) {
        guard CommandTable.offered(by: .keys).contains(where: { $0.name == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// A constant below, or a row of `allCases`: a name no key row has is a
    /// mistake in this file, stopped at its first use.
    private init(row name: String) {
        precondition(CommandTable.entry(named: name)?.frontEnds.contains(.keys) == true, "\(name) is not a key row")
        rawValue = name
    }

    public static let leave = KeyAction(row: "leave")

    public static let allCases: [KeyAction] = CommandTable.offered(by: .keys).map { KeyAction(row: $0.name) }

    // Playback
    public static let playPause = KeyAction(row: "play-pause")
    public static let playSelection = KeyAction(row: "play-selection")
    public static let queueAdd = KeyAction(row: "queue-add")
    public static let queueSave = KeyAction(row: "queue-save")
    public static let seekTo = KeyAction(row: "seek-to")
    public static let queueRemove = KeyAction(row: "queue-remove")
    public static let queueMoveUp = KeyAction(row: "queue-move-up")
    public static let queueMoveDown = KeyAction(row: "queue-move-down")
    public static let queueMark = KeyAction(row: "queue-mark")

    // Navigation
    public static let up = KeyAction(row: "up")
    public static let down = KeyAction(row: "down")
    public static let pageUp = KeyAction(row: "page-up")
    public static let pageDown = KeyAction(row: "page-down")
    public static let top = KeyAction(row: "top")
    public static let bottom = KeyAction(row: "bottom")
    public static let nextPane = KeyAction(row: "next-pane")
    public static let pane1 = KeyAction(row: "pane-1")
    public static let browserHome = KeyAction(row: "browser-home")
    public static let pane2 = KeyAction(row: "pane-2")
    public static let pane3 = KeyAction(row: "pane-3")
    public static let pane4 = KeyAction(row: "pane-4")
    public static let pane5 = KeyAction(row: "pane-5")
    public static let pane6 = KeyAction(row: "pane-6")
    public static let pane7 = KeyAction(row: "pane-7")
    public static let pane8 = KeyAction(row: "pane-8")
    public static let filter = KeyAction(row: "filter")
    public static let pane9 = KeyAction(row: "pane-9")
    public static let pane0 = KeyAction(row: "pane-0")
    public static let lyrics = KeyAction(row: "lyrics")
    public static let libraryView = KeyAction(row: "library-view")
    public static let librarySort = KeyAction(row: "library-sort")
    public static let radio = KeyAction(row: "radio")
    public static let podcasts = KeyAction(row: "podcasts")

    // Audiobooks
    public static let chapterNext = KeyAction(row: "chapter-next")
    public static let chapterPrevious = KeyAction(row: "chapter-previous")
    public static let sleepTimer = KeyAction(row: "sleep-timer")
    public static let skipBack = KeyAction(row: "skip-back")
    public static let skipForward = KeyAction(row: "skip-forward")
    public static let bookmarkAdd = KeyAction(row: "bookmark-add")
    public static let bookmarkDelete = KeyAction(row: "bookmark-delete")
    public static let bookOpen = KeyAction(row: "book-open")

    // Alarms pane: new, edit, enable/disable, delete (edit, toggle and delete act on its selection).
    public static let alarmNew = KeyAction(row: "alarm-add")
    public static let alarmEdit = KeyAction(row: "alarm-edit")
    public static let alarmToggle = KeyAction(row: "alarm-toggle")
    public static let alarmDelete = KeyAction(row: "alarm-delete")

    // Radio pane: add the playing stream or a typed URL, rename, remove (its selection).
    public static let stationAdd = KeyAction(row: "station-add")
    public static let stationAddURL = KeyAction(row: "station-add-url")
    public static let stationRename = KeyAction(row: "station-rename")
    public static let stationRemove = KeyAction(row: "station-remove")

    // Podcasts pane: subscribe, unsubscribe (its selection), import OPML,
    // refresh every feed, download or mark the selected episode.
    public static let podcastAdd = KeyAction(row: "podcast-add")
    public static let podcastRemove = KeyAction(row: "podcast-remove")
    public static let podcastImport = KeyAction(row: "podcast-import")
    public static let podcastRefresh = KeyAction(row: "podcast-refresh")
    public static let podcastDownload = KeyAction(row: "podcast-download")
    public static let podcastMark = KeyAction(row: "podcast-mark")

    // Alarm and interruption testing: drive every interruption path from the keyboard.
    public static let alarmAsk = KeyAction(row: "alarm-in")
    public static let alarmSnooze = KeyAction(row: "alarm-snooze")
    public static let alarmDismiss = KeyAction(row: "alarm-dismiss")
    public static let sessionSuspendToggle = KeyAction(row: "session-suspend-toggle")
    public static let callToggle = KeyAction(row: "call-toggle")

    // General
    public static let help = KeyAction(row: "help")
    public static let themeCycle = KeyAction(row: "theme-cycle")
    public static let quit = KeyAction(row: "quit")

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
