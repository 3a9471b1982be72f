import BookFormat
import KeyMap
import PlayerModel

/// Everything the screen shows that is not playback itself: focus, lists,
/// the prompt, help, the event log and the last message; and
/// key dispatch, which turns key presses into changes here and commands for
/// the player.
public struct InterfaceState {
    public enum Prompt: Equatable, Sendable {
        case filter(Pane)
        case alarmSeconds
        case alarmNew
        case alarmEdit(id: Int)
        case bookmarkNote

        public var question: String {
            switch self {
            case .bookmarkNote: "bookmark note (enter for none): "
            case .filter: "/"
            case .alarmSeconds: "alarm in how many seconds? "
            case .alarmNew: "new alarm (07:30, in 10m): "
            case .alarmEdit(let id): "alarm \(id) at: "
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
    public private(set) var focus = Pane.browser
    public private(set) var browser: BrowserModel?
    public var queueCursor = ListCursor()
    public var alarmsCursor = ListCursor()
    public var booksCursor = ListCursor()
    public var chaptersCursor = ListCursor()
    public var bookmarksCursor = ListCursor()
    /// The panes the split layout shows in its shared places (see `Pane.slot`).
    public private(set) var topLeft = Pane.browser
    public private(set) var topRight = Pane.queue
    /// The log follows the newest event until the user scrolls it.
    public var logCursor = ListCursor()
    public private(set) var logFollows = true
    public private(set) var queueFilter = ""
    public private(set) var logFilter = ""
    public var log = EventLog()
    public private(set) var prompt: Prompt?
    public private(set) var input = ""
    public private(set) var showsHelp = false
    public var helpCursor = ListCursor()
    public var message: Message?
    public var themeName = "default"
    public static let seekStep = 10.0
    public static let volumeStep = 0.05

    public init(bindings: KeyBindings = .defaults, browser: BrowserModel?) {
        self.bindings = bindings
        self.browser = browser
        if browser == nil { focus = .queue }
    }

    /// An event from the player: into the log; an error also on the command line.
    public mutating func record(_ event: TimedPlayerEvent) {
        log.append(LoggedEvent(event))
        if case .error(let text) = event.event { message = Message(text: text, isError: true) }
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
    private mutating func focus(_ pane: Pane, snapshot: PlayerSnapshot) {
        let changed = pane != focus
        focus(pane)
        if changed, pane == .chapters, let book = snapshot.book {
            chaptersCursor.select(book.currentChapter, count: book.chapters.count)
        }
    }

    // MARK: Keys

    /// Handles one key press; returns what the player should do.
    public mutating func handle(_ key: Key, snapshot: PlayerSnapshot, source: some BrowserSource) -> [InterfaceAction] {
        if let prompt { return handlePromptKey(key, prompt: prompt, snapshot: snapshot) }
        guard let action = bindings.action(for: key) else {
            if showsHelp, key == .named(.escape) { showsHelp = false }
            return []
        }
        if showsHelp {
            switch action {
            case .help, .quit: showsHelp = false; return []
            case .up, .down, .pageUp, .pageDown, .top, .bottom:
                move(&helpCursor, action, count: KeyHelp.lines(for: bindings).count)
                return []
            default: break
            }
        }
        logKey(action)
        switch action {
        case .playPause: return [.player(.togglePlayPause)]
        case .next: return [.player(.next)]
        case .previous: return [.player(.previous)]
        case .seekBack: return [.player(.seek(seconds: -Self.seekStep))]
        case .seekForward: return [.player(.seek(seconds: Self.seekStep))]
        case .volumeUp: return [.player(.setVolume(min(1, snapshot.volume + Self.volumeStep)))]
        case .volumeDown: return [.player(.setVolume(max(0, snapshot.volume - Self.volumeStep)))]
        case .playSelection: return playSelection(snapshot: snapshot, source: source)
        case .queueAdd: return addSelectionToQueue(source: source)
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            moveInFocusedPane(action, snapshot: snapshot)
            return []
        case .nextPane: focus(focus.next, snapshot: snapshot); return []
        case .pane1: focus(.browser); return []
        case .pane2: focus(.queue); return []
        case .pane3: focus(.nowPlaying); return []
        case .pane4: focus(.alarms); return []
        case .pane5: focus(.eventLog); return []
        case .pane6: focus(.books); return []
        case .pane7: focus(.chapters, snapshot: snapshot); return []
        case .pane8: focus(.bookmarks); return []
        case .filter:
            switch focus {
            case .browser, .queue, .eventLog:
                prompt = .filter(focus)
                input = currentFilter(focus)
            default:
                message = Message(text: "/ filters the browser, the queue or the event log", isError: false)
            }
            return []
        case .speedUp: return [.player(.speedUp)]
        case .speedDown: return [.player(.speedDown)]
        case .chapterNext, .chapterPrevious, .sleepTimer, .skipBack, .skipForward, .bookmarkAdd, .bookmarkDelete:
            guard let book = snapshot.book else {
                message = Message(text: "\(action.rawValue): no book is playing (b on a book folder in the browser, "
                                  + "or enter in the books pane, opens one)", isError: false)
                return []
            }
            switch action {
            case .chapterNext: return [.player(.chapterNext)]
            case .chapterPrevious: return [.player(.chapterPrevious)]
            case .sleepTimer: return [.player(.cycleSleepTimer)]
            case .skipBack: return [.player(.skipBack)]
            case .skipForward: return [.player(.skipForward)]
            case .bookmarkAdd:
                prompt = .bookmarkNote
                input = ""
                return []
            default:
                guard focus == .bookmarks else {
                    message = Message(text: "select a bookmark in the bookmarks pane (8) first", isError: false)
                    return []
                }
                bookmarksCursor.clamp(count: book.bookmarks.count)
                guard book.bookmarks.indices.contains(bookmarksCursor.selection) else { return [] }
                return [.player(.deleteBookmark(id: book.bookmarks[bookmarksCursor.selection].id))]
            }
        case .bookOpen: return openSelectionAsBook(snapshot: snapshot)
        case .alarmNew:
            prompt = .alarmNew
            input = ""
            return []
        case .alarmEdit, .alarmToggle, .alarmDelete:
            guard focus == .alarms else {
                message = Message(text: "select an alarm in the alarms pane (4) first", isError: false)
                return []
            }
            alarmsCursor.clamp(count: snapshot.alarms.count)
            guard snapshot.alarms.indices.contains(alarmsCursor.selection) else {
                message = Message(text: "no alarms; o adds one", isError: false)
                return []
            }
            let alarm = snapshot.alarms[alarmsCursor.selection]
            switch action {
            case .alarmEdit:
                prompt = .alarmEdit(id: alarm.id)
                input = alarm.schedule
                return []
            case .alarmToggle: return [.player(.setAlarmEnabled(id: alarm.id, !alarm.isEnabled))]
            default: return [.player(.deleteAlarm(id: alarm.id))]
            }
        case .alarmFireTest: return [.player(.fireTestAlarm)]
        case .alarmAsk:
            prompt = .alarmSeconds
            input = ""
            return []
        case .alarmSnooze: return [.player(.snoozeAlarm)]
        case .alarmDismiss: return [.player(.dismissAlarm)]
        case .sessionSuspendToggle: return [.player(.toggleSessionSuspended)]
        case .callToggle: return [.player(.toggleCall)]
        case .notificationChime: return [.player(.notificationChime)]
        case .deviceLost: return [.player(.simulateDeviceLoss)]
        case .help:
            showsHelp = true
            helpCursor = ListCursor()
            return []
        case .themeCycle: return [.cycleTheme]
        case .quit: return [.player(.quit)]
        }
    }

    /// Every player action is timestamped in the log; the host sets the time.
    public var now: Double = 0

    private mutating func logKey(_ action: KeyAction) {
        switch action {
        case .up, .down, .pageUp, .pageDown, .top, .bottom, .nextPane, .pane1, .pane2, .pane3, .pane4, .pane5, .pane6,
             .pane7, .pane8, .help:
            return  // Moving around is not a player action.
        default:
            log.append(LoggedEvent(time: now, key: action))
        }
    }

    private mutating func handlePromptKey(_ key: Key, prompt: Prompt, snapshot: PlayerSnapshot) -> [InterfaceAction] {
        switch key.kind {
        case .named(.escape):
            if case .filter(let pane) = prompt { setFilter("", for: pane) }
            self.prompt = nil
            input = ""
            return []
        case .named(.backspace):
            if !input.isEmpty { input.removeLast() }
        case .named(.enter):
            self.prompt = nil
            let text = input.trimmingSpaces
            input = ""
            return submit(prompt, text)
        case .named(.space):
            input.append(" ")
        case .character(let character):
            input.append(character)
        default:
            return []
        }
        if case .filter(let pane) = prompt { setFilter(input, for: pane) }
        return []
    }

    private mutating func submit(_ prompt: Prompt, _ text: String) -> [InterfaceAction] {
        switch prompt {
        case .filter(let pane):
            setFilter(text, for: pane)
            return []
        case .alarmSeconds:
            guard let seconds = Int(text), seconds > 0, seconds <= 7 * 24 * 3600 else {
                if !text.isEmpty {
                    message = Message(text: "'\(text)' is not a number of seconds (1 to 604800)", isError: true)
                }
                return []
            }
            return [.player(.addAlarm(afterSeconds: seconds))]
        case .alarmNew:
            return text.isEmpty ? [] : [.player(.addAlarmSchedule(text))]
        case .alarmEdit(let id):
            return text.isEmpty ? [] : [.player(.editAlarm(id: id, schedule: text))]
        case .bookmarkNote:
            return [.player(.addBookmark(note: text.isEmpty ? nil : text))]
        }
    }

    private func currentFilter(_ pane: Pane) -> String {
        switch pane {
        case .browser: browser?.filter ?? ""
        case .queue: queueFilter
        case .eventLog: logFilter
        default: ""
        }
    }

    private mutating func setFilter(_ text: String, for pane: Pane) {
        switch pane {
        case .browser: browser?.setFilter(text)
        case .queue: queueFilter = text; queueCursor = ListCursor()
        case .eventLog: logFilter = text; logFollows = true
        default: break
        }
    }

    // MARK: Lists

    /// Queue rows shown (filtered), with their index in the queue.
    public func visibleQueue(_ snapshot: PlayerSnapshot) -> [(index: Int, entry: PlayerSnapshot.QueueEntry)] {
        let needle = queueFilter.lowercased()
        return snapshot.queue.enumerated().compactMap { index, entry in
            needle.isEmpty || entry.title.lowercased().contains(needle) || entry.path.lowercased().contains(needle)
                ? (index, entry) : nil
        }
    }

    /// Log entries shown (filtered).
    public var visibleLog: [LoggedEvent] {
        guard !logFilter.isEmpty else { return log.entries }
        let needle = logFilter.lowercased()
        return log.entries.filter { $0.summary.lowercased().contains(needle) }
    }

    /// Replaces the browser (the view keeps its scroll position in it; the
    /// host points it at another folder).
    public mutating func replaceBrowser(_ browser: BrowserModel) { self.browser = browser }

    /// The page size for page up/down, set by the view from the pane's height.
    public var pageSize = 10

    private mutating func moveInFocusedPane(_ action: KeyAction, snapshot: PlayerSnapshot) {
        switch focus {
        case .browser:
            guard var browser else { return }
            move(&browser.cursor, action, count: browser.visible.count)
            self.browser = browser
        case .queue: move(&queueCursor, action, count: visibleQueue(snapshot).count)
        case .alarms: move(&alarmsCursor, action, count: snapshot.alarms.count)
        case .eventLog:
            let count = visibleLog.count
            if logFollows { logCursor.select(count - 1, count: count) }
            move(&logCursor, action, count: count)
            logFollows = logCursor.selection >= count - 1
        case .books: move(&booksCursor, action, count: snapshot.books.count)
        case .chapters: move(&chaptersCursor, action, count: snapshot.book?.chapters.count ?? 0)
        case .bookmarks: move(&bookmarksCursor, action, count: snapshot.book?.bookmarks.count ?? 0)
        case .nowPlaying: break
        }
    }

    private func move(_ cursor: inout ListCursor, _ action: KeyAction, count: Int) {
        switch action {
        case .up: cursor.move(by: -1, count: count)
        case .down: cursor.move(by: 1, count: count)
        case .pageUp: cursor.move(by: -max(1, pageSize), count: count)
        case .pageDown: cursor.move(by: max(1, pageSize), count: count)
        case .top: cursor.select(0, count: count)
        case .bottom: cursor.select(count - 1, count: count)
        default: break
        }
    }

    private mutating func playSelection(snapshot: PlayerSnapshot, source: some BrowserSource) -> [InterfaceAction] {
        switch focus {
        case .browser:
            guard var browser, let entry = browser.selected else { return [] }
            if entry.isDirectory {
                browser.enter(entry, source: source)
                self.browser = browser
                return []
            }
            let files = browser.files
            let start = files.firstIndex { $0.path == entry.path } ?? 0
            return [.player(.playQueue(files.map(\.path), startAt: start))]
        case .queue:
            let rows = visibleQueue(snapshot)
            queueCursor.clamp(count: rows.count)
            guard rows.indices.contains(queueCursor.selection) else { return [] }
            return [.player(.playQueue(snapshot.queue.map(\.path), startAt: rows[queueCursor.selection].index))]
        case .alarms:
            alarmsCursor.clamp(count: snapshot.alarms.count)
            guard snapshot.alarms.indices.contains(alarmsCursor.selection) else { return [] }
            let alarm = snapshot.alarms[alarmsCursor.selection]
            prompt = .alarmEdit(id: alarm.id)
            input = alarm.schedule
            return []
        case .books:
            booksCursor.clamp(count: snapshot.books.count)
            guard snapshot.books.indices.contains(booksCursor.selection) else { return [] }
            return [.player(.openBook(snapshot.books[booksCursor.selection].path))]
        case .chapters:
            let count = snapshot.book?.chapters.count ?? 0
            chaptersCursor.clamp(count: count)
            guard chaptersCursor.selection < count else { return [] }
            return [.player(.jumpToChapter(chaptersCursor.selection))]
        case .bookmarks:
            let marks = snapshot.book?.bookmarks ?? []
            bookmarksCursor.clamp(count: marks.count)
            guard marks.indices.contains(bookmarksCursor.selection) else { return [] }
            return [.player(.jumpToBookmark(id: marks[bookmarksCursor.selection].id))]
        default:
            return []
        }
    }

    /// `b`: the browser's selection (a folder of MP3s or a chaptered MP3), or the books pane's.
    private mutating func openSelectionAsBook(snapshot: PlayerSnapshot) -> [InterfaceAction] {
        switch focus {
        case .browser:
            guard let entry = browser?.selected, entry.name != ".." else { return [] }
            return [.player(.openBook(entry.path))]
        case .books:
            booksCursor.clamp(count: snapshot.books.count)
            guard snapshot.books.indices.contains(booksCursor.selection) else { return [] }
            return [.player(.openBook(snapshot.books[booksCursor.selection].path))]
        default:
            message = Message(text: "b opens the browser's selection as a book (a folder of MP3s or a chaptered MP3)",
                              isError: false)
            return []
        }
    }

    private mutating func addSelectionToQueue(source: some BrowserSource) -> [InterfaceAction] {
        guard focus == .browser, let entry = browser?.selected else {
            message = Message(text: "e adds the browser's selection to the queue", isError: false)
            return []
        }
        if !entry.isDirectory { return [.player(.enqueue([entry.path]))] }
        guard entry.name != ".." else { return [] }
        let files = (source.entries(in: entry.path) ?? []).filter { !$0.isDirectory }
            .sorted { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
        if files.isEmpty { message = Message(text: "no MP3 files directly in \(entry.name)", isError: false) }
        return files.isEmpty ? [] : [.player(.enqueue(files.map(\.path)))]
    }
}

extension String {
    var trimmingSpaces: String {
        let start = drop { $0 == " " }
        guard let last = start.lastIndex(where: { $0 != " " }) else { return "" }
        return String(start[...last])
    }
}
