/// The next wall instant an alarm's schedule rings at, in one time zone.
public struct NextFireCalculator: Sendable {
    public let zone: ZonedTime

    public init(zone: ZonedTime) { self.zone = zone }

    /// The first occurrence of `schedule` strictly after `instant` (seconds
    /// since the epoch), or nil when there is none (a one-shot in the past).
    public func nextFire(of schedule: AlarmSchedule, after instant: Int64) -> Int64? {
        switch schedule {
        case .relative(let firesAt):
            return firesAt > instant ? firesAt : nil
        case .date(let date, let time):
            let fire = zone.instant(of: time, on: date)
            return fire > instant ? fire : nil
        case .clockTime(let time, let repeatDays):
            // Start a day early: near a DST change the local date of `instant`
            // and of the occurrence can differ from naive expectations.
            let today = zone.local(at: instant).date
            for offset in -1...8 {
                let date = today.adding(days: offset)
                if !repeatDays.isEmpty && !repeatDays.contains(date.weekday) { continue }
                let fire = zone.instant(of: time, on: date)
                if fire > instant { return fire }
            }
            return nil
        }
    }

    /// The last occurrence of `schedule` in `(after, through]`, to name a missed alarm.
    public func lastFire(of schedule: AlarmSchedule, after: Int64, through: Int64) -> Int64? {
        if schedule.isOneShot {
            // A one-shot (including a non-repeating clock time) rings once: its first occurrence.
            return nextFire(of: schedule, after: after).flatMap { $0 <= through ? $0 : nil }
        }
        // Repeats come at least weekly, so the last one is within eight days of `through`.
        var cursor = max(after, through - 8 * 86_400)
        var last: Int64?
        while let fire = nextFire(of: schedule, after: cursor), fire <= through {
            last = fire
            cursor = fire
        }
        return last
    }
}
