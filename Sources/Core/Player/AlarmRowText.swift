import Alarms
import InterludeCore

/// The alarms pane's text for an alarm, in the local zone.
package struct AlarmRowText {
    package let zone: TimeZoneRules

    /// Local time of day, with the date when it is not today.
    package func nextFire(_ instant: Int64, now: Int64) -> String {
        let zoned = ZonedTime(timeZone: zone)
        let (date, seconds) = zoned.local(at: instant)
        let today = zoned.local(at: now).date
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
        return date == today ? time : "\(date) \(time)"
    }

    package func schedule(_ schedule: AlarmSchedule, now: Int64) -> String {
        if case .relative(let firesAt) = schedule { return "in \(max(1, firesAt - now))s" }
        return AlarmTimeFormat(zone: ZonedTime(timeZone: zone)).scheduleTime(schedule)
    }
}
