/// The player's state, taken from the runtime (its session state machine,
/// engine, alarms and book) before each draw; what the screen shows and, next,
/// what the control socket's `status` and MPRIS report. Plain values, so views
/// are tested without a player.
public struct PlayerSnapshot: Equatable, Sendable {
    public enum State: String, Sendable {
        case playing, paused, stopped, interrupted
    }

    public struct QueueEntry: Equatable, Sendable {
        public var path: String
        public var title: String
        public init(path: String, title: String) {
            self.path = path
            self.title = title
        }
    }

    public var queue: [QueueEntry] = []
    /// Index in `queue` of the track that is playing (or paused), if any.
    public var currentIndex: Int?
    public var title = ""
    public var artist = ""
    public var album = ""
    /// Seconds heard of the current track, and its length when known.
    public var elapsed = 0.0
    public var duration: Double?
    /// Seconds heard of the file that plays (a book's `elapsed` counts from the
    /// book's start): where its lyrics are.
    public var fileElapsed = 0.0
    /// 0...1 (and above for a boost).
    public var volume = 1.0
    /// "1.25x"; nil at normal speed.
    public var speed: String?
    /// Music's play order: shuffle on, and repeat "off", "all" or "one".
    public var shuffle = false
    public var repeatMode = "off"
    public var state = State.stopped
    public var alarms: [AlarmRow] = []
    /// "next alarm Wed 07:00 (in 7 h 12 min)" for the status line; nil when no alarm will ring.
    public var nextAlarm: String?
    /// The missed alarms the listener has not seen ("missed alarm 3 wake: 3 h late, ..."):
    /// the banner shows them until dismissed.
    public var missedAlarms: [String] = []
    /// The session and what holds playback: the banner is drawn from it.
    public var session = SessionSnapshot()
    /// True while an alarm rings (z and x act on it).
    public var alarmRinging: Bool {
        get { session.alarmRinging }
        set { session.alarmRinging = newValue }
    }
    public var sessionSuspended: Bool {
        get { session.suspended }
        set { session.suspended = newValue }
    }
    public var callActive: Bool {
        get { session.callActive }
        set { session.callActive = newValue }
    }
    /// A station's time-shift: seconds from what is heard to the live edge,
    /// and the line the status shows ("12:34 behind live", "live"); nil for a file.
    public var behindLive: Double?
    public var timeShiftLine: String?
    /// The book playing, when one is.
    public var book: BookInfo?
    /// The books pane: every book with a state file, and the current one.
    public var books: [BookRow] = []
    /// The playlists pane: the playlists in the playlists folder.
    public var playlists: [PlaylistRow] = []
    /// The radio pane: the favourite stations, numbered from 1 in this order.
    public var stations: [StationRow] = []

    public init() {}
}

/// A favourite station: its name and the URL it plays.
public struct StationRow: Equatable, Sendable {
    public var name: String
    public var url: String
    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

/// A playlist in the playlists folder.
public struct PlaylistRow: Equatable, Sendable {
    public var name: String
    public var path: String
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}

/// The book that plays: what the chapters and bookmarks panes and the status line show.
public struct BookInfo: Equatable, Sendable {
    public struct Chapter: Equatable, Sendable {
        public var title: String
        public var startMilliseconds: Int
        public var durationMilliseconds: Int
        public init(title: String, startMilliseconds: Int, durationMilliseconds: Int) {
            self.title = title
            self.startMilliseconds = startMilliseconds
            self.durationMilliseconds = durationMilliseconds
        }
    }

    public struct Mark: Equatable, Sendable {
        public var id: Int
        public var positionMilliseconds: Int
        public var note: String?
        public init(id: Int, positionMilliseconds: Int, note: String?) {
            self.id = id
            self.positionMilliseconds = positionMilliseconds
            self.note = note
        }
    }

    public var path: String
    public var title: String
    public var chapters: [Chapter]
    /// Index in `chapters` of the chapter heard now.
    public var currentChapter: Int
    public var bookmarks: [Mark]
    /// The sleep timer: its setting ("15 min", "end of chapter") and the listening time left, if set.
    public var sleepSetting: String?
    public var sleepRemaining: Double?

    public init(path: String, title: String, chapters: [Chapter], currentChapter: Int, bookmarks: [Mark] = [],
                sleepSetting: String? = nil, sleepRemaining: Double? = nil) {
        self.path = path
        self.title = title
        self.chapters = chapters
        self.currentChapter = currentChapter
        self.bookmarks = bookmarks
        self.sleepSetting = sleepSetting
        self.sleepRemaining = sleepRemaining
    }
}

/// One row of the books pane.
public struct BookRow: Equatable, Sendable {
    public var path: String
    public var title: String
    public var author: String?
    /// 0...100.
    public var percent: Int
    /// Book time left at the book's speed, in seconds.
    public var timeLeft: Double
    public var isCurrent: Bool

    public init(path: String, title: String, author: String?, percent: Int, timeLeft: Double, isCurrent: Bool) {
        self.path = path
        self.title = title
        self.author = author
        self.percent = percent
        self.timeLeft = timeLeft
        self.isCurrent = isCurrent
    }
}

/// One row of the alarms pane.
public struct AlarmRow: Equatable, Sendable {
    public var id: Int
    public var label: String
    /// When it fires next, as the user reads it ("07:30 tomorrow", "in 2m 10s"), or "" when never.
    public var nextFire: String
    /// What a user would type to make it again ("07:30", "in 10m"); the edit prompt starts from it.
    public var schedule: String
    public var isEnabled: Bool
    public var isRinging: Bool
    /// "wakes the computer", or "rings only while the computer is awake (why)";
    /// "" while not known yet (the user manager has not answered) and for a disabled alarm.
    public var wake: String
    /// After the time: "missed 3 h late, the computer was asleep" (until seen), or "skips Wed 07:00"; else "".
    public var note: String

    public init(id: Int, label: String, nextFire: String, schedule: String, isEnabled: Bool, isRinging: Bool = false,
                note: String = "", wake: String = "") {
        self.wake = wake
        self.id = id
        self.label = label
        self.nextFire = nextFire
        self.schedule = schedule
        self.isEnabled = isEnabled
        self.isRinging = isRinging
        self.note = note
    }
}
