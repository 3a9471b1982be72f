import BookFormat

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
    /// While muted, the volume unmuting returns to (`volume` is 0 then); nil when not muted.
    public var mutedFrom: Double?
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
    /// The podcasts pane: the subscriptions, each with its episodes (newest first).
    public var podcasts: [PodcastRow] = []
    /// What the podcasts run in the background now ("refreshing 12/50"), nil when nothing.
    public var podcastActivity: String?

    // Read by every detail: each is a copy of what the core holds, no reading or formatting.
    /// The queue's paths in order (the array the core holds, not copied element by element).
    public var queuePaths: [String] = []
    /// The file (or station URL) that plays or is paused, when one is.
    public var currentPath: String?
    /// The book that plays: its folder or file.
    public var bookPath: String?
    /// The speed as a factor (1 at normal speed).
    public var speedFactor = 1.0
    /// Spoken audio's settings and the time trimming saved; nil for music.
    public var spokenAudio: SpokenAudioStatus?
    /// The engine's media voice is silent (a pause's fade has ended, or nothing plays).
    public var mediaStopped = true
    /// What the engine decodes now: its bitrate (0 when unknown) and its decoded rate and channels.
    public var decoding: Decoding?
    /// The engine's own account of its voices and device.
    public var engine = EngineReport(media: "stopped", voice: "silent", outputLost: false)
    /// How many times the alarm scheduler has planned (0: it does not exist yet): a reader
    /// that acts ahead of alarms reads `alarmPlan` again when this moved.
    public var alarmPlanGeneration = 0
    /// The alarms as the scheduler plans them (`Detail.alarmPlan`, `full`); nil while no scheduler exists.
    public var alarmPlan: AlarmPlan?
    /// The tags of the paths the reader named in `Detail.tags(of:)`.
    public var tags: [String: AudioTags] = [:]

    public init() {}

}

extension PlayerSnapshot {
    /// How much a reader wants: `playback` is what every reader gets (state,
    /// volume, modes, the current entry and its times, the fields above with
    /// no reading or formatting), for a frequent reader such as MPD's
    /// `status`; `full` adds the titles, the book, the alarms' rows, the
    /// alarm plan, the session, the stations and podcasts as the core holds
    /// them; `alarmPlan` adds the plan alone;
    /// `tags(of:)` gives the tags of the paths named and nothing else (the
    /// other fields keep their defaults): MPD reads a 10,000-entry queue's
    /// tags one song at a time.
    public struct Detail: Sendable, Equatable {
        /// The playback fields (false only for `tags(of:)`).
        public var playback = true
        public var full = false
        public var alarmPlan = false
        /// The favourite stations read again from their file (`stations`), as `station list` lists them.
        public var stations = false
        /// The session (the banner's countdown) beside the playback fields.
        public var session = false
        public var tagsOf: [String] = []

        public static let playback = Detail()
        public static let full = Detail(full: true, alarmPlan: true)
        public static let alarmPlan = Detail(alarmPlan: true)
        public static let stations = Detail(stations: true)
        /// The playback fields and the session: what the screen reads after each turn.
        public static let session = Detail(session: true)
        public static func tags(of paths: [String]) -> Detail { Detail(playback: false, tagsOf: paths) }
    }
}

extension PlayerSnapshot {
    /// What the engine decodes: MPD's `bitrate` (0 when unknown) and `audio`.
    public struct Decoding: Equatable, Sendable {
        public var bitrateKbps: Int
        public var rate: Int
        public var channels: Int
        public init(bitrateKbps: Int, rate: Int, channels: Int) {
            (self.bitrateKbps, self.rate, self.channels) = (bitrateKbps, rate, channels)
        }
    }
}

/// The alarms as the scheduler plans them: what a service that acts ahead of
/// an alarm (the wake timer, the desktop's announcement) reads.
public struct AlarmPlan: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var id: Int
        public var label: String
        public var isEnabled: Bool
        public var isOneShot: Bool
        /// Its next ring, in seconds since 1970; nil when it will not ring again.
        public var nextFire: Int64?
        public init(id: Int, label: String, isEnabled: Bool, isOneShot: Bool, nextFire: Int64?) {
            (self.id, self.label, self.isEnabled, self.isOneShot, self.nextFire) = (id, label, isEnabled, isOneShot, nextFire)
        }
    }

    public struct Missed: Equatable, Sendable {
        public var id: Int
        /// When it was due, in seconds since 1970.
        public var dueAt: Int64
        public var line: String
        public init(id: Int, dueAt: Int64, line: String) { (self.id, self.dueAt, self.line) = (id, dueAt, line) }
    }

    public var alarms: [Entry]
    /// Missed alarms the listener has not seen.
    public var unseenMissed: [Missed]
    public init(alarms: [Entry], unseenMissed: [Missed]) { (self.alarms, self.unseenMissed) = (alarms, unseenMissed) }
}

/// A subscription as the podcasts pane lists it.
public struct PodcastRow: Equatable, Sendable {
    public var id: String
    public var title: String
    public var episodes: [EpisodeRow]
    /// Why its last refresh failed, if it did.
    public var problem: String?
    public var newCount: Int { episodes.filter(\.isNew).count }

    public init(id: String, title: String, episodes: [EpisodeRow], problem: String? = nil) {
        self.id = id
        self.title = title
        self.episodes = episodes
        self.problem = problem
    }
}

/// An episode as the podcasts pane lists it: the feed's side and the listener's.
public struct EpisodeRow: Equatable, Sendable {
    public enum Download: Equatable, Sendable {
        case none
        /// A `.part` on disk (or a download running): the bytes there and the whole length when known.
        case partial(bytes: Int64, of: Int64?)
        case downloaded
    }

    public var id: String
    public var title: String
    /// "2024-01-05", or empty when the feed gives no date.
    public var date: String
    /// The feed's duration in seconds (0: not given).
    public var durationSeconds: Int
    public var isNew: Bool
    public var played: Bool
    /// Where the listener stopped, in milliseconds (nil: never played).
    public var placeMilliseconds: Int?
    public var download: Download
    /// A download of it runs now (its progress is `download`).
    public var downloading: Bool

    public init(id: String, title: String, date: String, durationSeconds: Int, isNew: Bool, played: Bool,
                placeMilliseconds: Int?, download: Download, downloading: Bool = false) {
        self.id = id
        self.title = title
        self.date = date
        self.durationSeconds = durationSeconds
        self.isNew = isNew
        self.played = played
        self.placeMilliseconds = placeMilliseconds
        self.download = download
        self.downloading = downloading
    }
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
    /// The Snapcast rooms it rings in (`--rooms`); empty: every room.
    public var rooms: [String] = []

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

/// Spoken audio's settings as they are now, and the listening time trimmed
/// pauses saved: in this run, in the book or episode (all runs), and in
/// every book and episode (all three in seconds).
public struct SpokenAudioStatus: Equatable, Sendable {
    public var trimSilence: String
    public var voiceBoost: String
    public var timeSaved: Double
    public var bookTimeSaved: Double?
    public var totalTimeSaved: Double?

    public init(trimSilence: String, voiceBoost: String, timeSaved: Double, bookTimeSaved: Double?, totalTimeSaved: Double?) {
        self.trimSilence = trimSilence
        self.voiceBoost = voiceBoost
        self.timeSaved = timeSaved
        self.bookTimeSaved = bookTimeSaved
        self.totalTimeSaved = totalTimeSaved
    }

    /// "saved 1:23 (book 12:05, all 3:10:00)": what the panes show.
    public var savedLine: String {
        var line = "saved " + Self.clock(timeSaved)
        var totals: [String] = []
        if let bookTimeSaved { totals.append("book " + Self.clock(bookTimeSaved)) }
        if let totalTimeSaved { totals.append("all " + Self.clock(totalTimeSaved)) }
        if !totals.isEmpty { line += " (" + totals.joined(separator: ", ") + ")" }
        return line
    }

    static func clock(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? max(0, Int(seconds.rounded())) : 0
        let hours = whole / 3600
        let minutes = whole / 60 % 60
        let rest = whole % 60
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
