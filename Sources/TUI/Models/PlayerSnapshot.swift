/// What the player shows about playback, taken from the runtime before each
/// draw. Plain values, so views are tested without a player.
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
    /// 0...1 (and above for a boost).
    public var volume = 1.0
    /// "1.25x"; nil at normal speed.
    public var speed: String?
    public var state = State.stopped
    public var alarms: [AlarmRow] = []
    /// True while an alarm rings (z and x act on it).
    public var alarmRinging = false
    public var sessionSuspended = false
    public var callActive = false

    public init() {}
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

    public init(id: Int, label: String, nextFire: String, schedule: String, isEnabled: Bool, isRinging: Bool = false) {
        self.id = id
        self.label = label
        self.nextFire = nextFire
        self.schedule = schedule
        self.isEnabled = isEnabled
        self.isRinging = isRinging
    }
}
