/// Everything a key can do. The raw values are the names used in the keys
/// file (`bind space play-pause`); they are stable, since users' files
/// depend on them. Declaration order is the help listing's order.
public enum KeyAction: String, CaseIterable, Sendable {
    // Playback
    case playPause = "play-pause"
    case next = "next"
    case previous = "previous"
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
    case libraryView = "library-view"
    case librarySort = "library-sort"

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
    case alarmNew = "alarm-new"
    case alarmEdit = "alarm-edit"
    case alarmToggle = "alarm-toggle"
    case alarmDelete = "alarm-delete"

    // Alarm and interruption testing: drive every interruption path from the keyboard.
    case alarmFireTest = "alarm-fire-test"
    case alarmAsk = "alarm-ask"
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

    public var section: KeySection {
        switch self {
        case .playPause, .next, .previous, .seekBack, .seekForward, .volumeUp, .volumeDown, .playSelection, .queueAdd,
             .shuffleToggle, .repeatCycle, .queueSave:
            .playback
        case .up, .down, .pageUp, .pageDown, .top, .bottom, .nextPane, .pane1, .pane2, .pane3, .pane4, .pane5, .pane6, .pane7,
             .pane8, .filter, .pane9, .pane0, .libraryView, .librarySort:
            .navigation
        case .chapterNext, .chapterPrevious, .speedUp, .speedDown, .sleepTimer, .skipBack, .skipForward, .bookmarkAdd,
             .bookmarkDelete, .bookOpen:
            .audiobooks
        case .alarmNew, .alarmEdit, .alarmToggle, .alarmDelete:
            .alarms
        case .alarmFireTest, .alarmAsk, .alarmSnooze, .alarmDismiss, .sessionSuspendToggle, .callToggle,
             .notificationChime, .deviceLost:
            .alarmTesting
        case .help, .themeCycle, .quit:
            .general
        }
    }

    /// One line for the help listing: what the key does, in the user's words.
    public var summary: String {
        switch self {
        case .playPause: "play or pause"
        case .next: "next track"
        case .previous: "previous track"
        case .seekBack: "seek back"
        case .seekForward: "seek forward"
        case .volumeUp: "volume up"
        case .volumeDown: "volume down"
        case .playSelection: "play the selection"
        case .queueAdd: "add the selection to the queue"
        case .shuffleToggle: "shuffle on or off"
        case .repeatCycle: "repeat: off, all, one (cycles)"
        case .queueSave: "save the queue as a playlist (asks for a name)"
        case .up: "move up"
        case .down: "move down"
        case .pageUp: "page up"
        case .pageDown: "page down"
        case .top: "go to the top"
        case .bottom: "go to the bottom"
        case .nextPane: "next pane"
        case .pane1: "browser pane"
        case .pane2: "queue pane"
        case .pane3: "now playing pane"
        case .pane4: "alarms pane"
        case .pane5: "event log pane"
        case .pane6: "books pane"
        case .pane7: "chapters pane"
        case .pane8: "bookmarks pane"
        case .filter: "filter the list (the library: search as you type)"
        case .pane9: "library pane"
        case .pane0: "playlists pane"
        case .libraryView: "library: tree (artist, album, tracks) or all tracks"
        case .librarySort: "library: sort the tracks by the next column"
        case .chapterNext: "next chapter"
        case .chapterPrevious: "previous chapter"
        case .speedUp: "faster"
        case .speedDown: "slower"
        case .sleepTimer: "sleep timer: off, 5-60 min, end of chapter (cycles)"
        case .skipBack: "book: back 30 s"
        case .skipForward: "book: forward 30 s"
        case .bookmarkAdd: "add a bookmark (asks for a note)"
        case .bookmarkDelete: "delete the selected bookmark"
        case .bookOpen: "open the browser's selection as a book"
        case .alarmNew: "new alarm (07:30, in 10m, ...)"
        case .alarmEdit: "change the selected alarm's time"
        case .alarmToggle: "enable or disable the selected alarm"
        case .alarmDelete: "delete the selected alarm"
        case .alarmFireTest: "fire a test alarm now"
        case .alarmAsk: "alarm in how many seconds?"
        case .alarmSnooze: "snooze the ringing alarm"
        case .alarmDismiss: "dismiss the ringing alarm"
        case .sessionSuspendToggle: "suspend or continue the audio session"
        case .callToggle: "start or end a simulated call"
        case .notificationChime: "play a notification chime (ducks)"
        case .deviceLost: "simulate losing the output device"
        case .help: "this help"
        case .themeCycle: "next theme"
        case .quit: "quit (state is saved)"
        }
    }
}
