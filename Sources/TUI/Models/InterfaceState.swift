import BookFormat
import PlayerModel

/// Everything the screen shows that is not playback itself: focus, lists,
/// the prompt, help, the event log and the last message. Key dispatch
/// (`+Keys`) turns key presses into changes here and actions for the host:
/// player commands, and the theme; prompts (`+Prompts`) and the lists and
/// their selection (`+Selection`) have files of their own.
public struct InterfaceState {
    public enum Prompt: Equatable, Sendable {
        case filter(Pane)
        case alarmSeconds
        case alarmNew
        case alarmEdit(id: Int)
        case bookmarkNote
        case playlistName
        /// A station to add to the radio pane: its URL.
        case stationURL
        /// A new name for the radio pane's station at `url`.
        case stationName(url: String)
        /// A time to seek to, from the start or (+30, -10) from here.
        case seekTime
        /// A feed to subscribe to: its URL.
        case podcastURL
        /// An OPML file to import: its path.
        case opmlPath
        /// The podcasts pane's selection to unsubscribe from, once "y" confirms it.
        case podcastRemoval(id: String, title: String)

        public var question: String {
            switch self {
            case .bookmarkNote: "bookmark note (enter for none): "
            case .playlistName: "save the queue as playlist (name or path): "
            case .filter: "/"
            case .alarmSeconds: "alarm in how many seconds? "
            case .alarmNew: "new alarm (07:30, in 10m): "
            case .alarmEdit(let id): "alarm \(id) at: "
            case .stationURL: "add the station at URL: "
            case .stationName: "rename the station to: "
            case .seekTime: "seek to (1:23:45, 12:30, 90 s; +30 or -10 from here): "
            case .podcastURL: "subscribe to the feed at URL: "
            case .opmlPath: "import the podcasts of the OPML file: "
            case .podcastRemoval(_, let title): "unsubscribe from \(title)? (y to confirm) "
            }
        }
    }

    public struct Message: Equatable, Sendable {
        public var text: String
        public var isError: Bool

        public init(text: String, isError: Bool) {
            self.text = text
            self.isError = isError
        }
    }

    public var bindings: KeyBindings
    public internal(set) var focus = Pane.browser
    public internal(set) var browser: BrowserModel?
    /// The library pane, when the host has an index to show.
    public var library: LibraryPaneModel?
    /// The lyrics pane: the lyrics of the file heard now, which the host keeps current.
    public var lyricsPane = LyricsPaneModel()
    public var queueCursor = ListCursor()
    /// The queue entry marked (its position in the queue): the queue pane's
    /// edits take every entry from it to the selection.
    public internal(set) var queueMark: Int?
    public var alarmsCursor = ListCursor()
    public var booksCursor = ListCursor()
    public var playlistsCursor = ListCursor()
    public var stationsCursor = ListCursor()
    /// The podcasts pane: its list of podcasts, and the podcast opened (its id) with its episodes' cursor.
    public var podcastsCursor = ListCursor()
    public var openPodcast: String?
    public var episodesCursor = ListCursor()
    public var chaptersCursor = ListCursor()
    public var bookmarksCursor = ListCursor()
    /// The panes the split layout shows in its shared places (see `Pane.slot`).
    public internal(set) var topLeft = Pane.browser
    public internal(set) var topRight = Pane.queue
    /// The log follows the newest event until the user scrolls it.
    public var logCursor = ListCursor()
    public internal(set) var logFollows = true
    public internal(set) var queueFilter = ""
    public internal(set) var logFilter = ""
    public var log = EventLog()
    public internal(set) var prompt: Prompt?
    public internal(set) var input = ""
    /// Where typing goes in `input`: a count of characters from its start.
    public internal(set) var inputCursor = 0
    /// The prompt's pre-filled value is selected, as a text field's is: the
    /// first character typed replaces it; a move keeps it for editing.
    public internal(set) var inputSelected = false
    public internal(set) var showsHelp = false
    public var helpCursor = ListCursor()
    public var message: Message?
    /// The picture a pane shows (the now-playing pane's cover, the books
    /// pane's book's), at the size `ScreenRenderer.pictureArea` gave; the
    /// cover art's thread makes it, and a pane without one draws none.
    public var pictures: [Pane: PanePicture] = [:]
    public var themeName = "default"

    public init(bindings: KeyBindings = .defaults, browser: BrowserModel?) {
        self.bindings = bindings
        self.browser = browser
        if browser == nil { focus = .queue }
    }

    /// An event from the player: into the log; an error also on the command line.
    public mutating func record(_ event: TimedPlayerEvent) {
        log.append(LoggedEvent(event))
        if case .error(let text) = event.event { message = Message(text: text, isError: true) }
        if case .notice(let text) = event.event { message = Message(text: text, isError: false) }
        // An alarm always sounds: when its own sound did not, the line says why the tone rings.
        if case .alarmSoundFallback(let id, let sound, let reason) = event.event {
            message = Message(text: "alarm \(id): \(sound): the built-in tone rings instead: \(reason)", isError: true)
        }
    }

    public mutating func focus(_ pane: Pane) {
        focus = pane
        showsHelp = false
        switch pane.slot {
        case .topLeft: topLeft = pane
        case .topRight: topRight = pane
        default: break
        }
    }

    /// Focuses a pane; the chapters pane opens on the chapter heard now.
    mutating func focus(_ pane: Pane, snapshot: PlayerSnapshot) {
        let changed = pane != focus
        focus(pane)
        if changed, pane == .chapters, let book = snapshot.book {
            chaptersCursor.select(book.currentChapter, count: book.chapters.count)
        }
    }

    /// Every player action is timestamped in the log; the host sets the time.
    public var now: Double = 0

    /// The page size for page up/down, set by the view from the pane's height.
    public var pageSize = 10
}
