import InterludeCore

/// Identifies an alarm; small integers so they are easy to type (`alarm rm 3`).
public struct AlarmID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// One alarm, as stored in `alarms.json` (see `AlarmFileFormat`).
public struct Alarm: Hashable, Sendable {
    public static let defaultRingTimeoutSeconds = 60
    public static let defaultSnoozeMinutes = 9
    public static let snoozeRange = CountRange(1...60, unit: "minutes")
    public static let ringRange = CountRange(1...3600, unit: "seconds")
    /// Ids stay small enough to type; no sum of them can overflow.
    public static let idRange = CountRange(1...Int(Int32.max))
    /// Wall instants in the file, seconds since 1970: up to the end of year
    /// 9999, so adding days or weeks to one cannot overflow.
    public static let instantRange = CountRange(0...253_402_300_799, unit: "seconds since 1970")
    public static let yearRange = CountRange(1...9999)
    /// `--ramp`: from silence to the alarm's volume over 1 s to 10 min.
    public static let rampRange = DurationRange(seconds: 1...600)
    /// `rampSeconds` in the file: 0 (no ramp) or a whole second of `rampRange`.
    static let rampFileRange = CountRange(0...600, unit: "seconds")

    public let id: AlarmID
    public var schedule: AlarmSchedule
    public var label: String
    public var isEnabled: Bool
    public var sound: AlarmSound
    /// Linear gain 0...1 of the alarm voice.
    public var volume: Double
    public var ringTimeoutSeconds: Int
    public var snoozeMinutes: Int
    /// Occurrences at or before this wall instant (seconds) are done: rung,
    /// reported missed, or before the alarm was set or re-enabled. This is what
    /// tells a missed alarm at start-up and keeps a stepped-back clock from
    /// ringing the same occurrence twice.
    public var handledThrough: Int64
    /// While snoozed: the wall instant the snooze ends.
    public var snoozedUntil: Int64?
    /// The occurrence (wall seconds) that `alarm skip` passes over; it is
    /// handled already (`handledThrough` is at it), this only names it until it is past.
    public var skips: Int64?
    /// Seconds from silence to `volume` once the sound starts; 0: at once.
    public var rampSeconds: Int
    /// While it rings: the wall instant it began. Still set when a player
    /// starts, the one that rang it died (a crash, `kill -9`, a power cut)
    /// before the ring ended: it rings again late, or is missed (`AlarmScheduler.start`).
    public var ringingSince: Int64?
    /// The Snapcast rooms (clients or groups, by name) it rings in; empty: every room.
    public var rooms: [String]
    /// `--rooms`: at most 32 names of at most 64 bytes, as a house has them.
    public static let roomLimit = 32
    public static let roomNameLimit = 64

    public init(
        id: AlarmID, schedule: AlarmSchedule, label: String = "", isEnabled: Bool = true,
        sound: AlarmSound = .default, volume: Double = 1.0,
        ringTimeoutSeconds: Int = Alarm.defaultRingTimeoutSeconds,
        snoozeMinutes: Int = Alarm.defaultSnoozeMinutes,
        handledThrough: Int64, snoozedUntil: Int64? = nil, skips: Int64? = nil, rampSeconds: Int = 0,
        ringingSince: Int64? = nil,
        rooms: [String] = []
    ) {
        self.id = id
        self.schedule = schedule
        self.label = label
        self.isEnabled = isEnabled
        self.sound = sound
        self.volume = volume
        self.ringTimeoutSeconds = ringTimeoutSeconds
        self.snoozeMinutes = snoozeMinutes
        self.handledThrough = handledThrough
        self.snoozedUntil = snoozedUntil
        self.skips = skips
        self.rampSeconds = rampSeconds
        self.ringingSince = ringingSince
        self.rooms = rooms
    }

    /// `kitchen,bedroom`: the names, each checked (not empty, no control
    /// character, within `roomNameLimit`), at most `roomLimit`; nil otherwise.
    public static func rooms(parsing text: String) -> [String]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        }
        guard names.count <= roomLimit, names.allSatisfy(isRoomName) else { return nil }
        return names
    }

    static func isRoomName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= roomNameLimit && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

extension Alarm {
    /// Marks the next regular occurrence after `now` handled, and names it in
    /// `skips`; returns it, or nil when the alarm is disabled or rings once
    /// (there is nothing after the next to ring). Both `alarm skip` and the
    /// player's `alarm-skip` go through here.
    mutating func skipNext(_ calculator: NextFireCalculator, now: Int64) -> Int64? {
        guard isEnabled, !schedule.isOneShot,
              let fire = calculator.nextFire(of: schedule, after: max(handledThrough, now - 1)) else { return nil }
        handledThrough = fire
        skips = fire
        return fire
    }
}
