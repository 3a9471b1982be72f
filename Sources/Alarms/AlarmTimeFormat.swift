/// How alarm times are shown: `2025-06-16 07:00 Mon` in tables,
/// `2025-06-16T07:00:00+02:00` in JSON.
public struct AlarmTimeFormat: Sendable {
    public let zone: ZonedTime

    public init(zone: ZonedTime) { self.zone = zone }

    public func table(_ instant: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        return "\(date) \(clock(seconds)) \(dayName(date))"
    }

    /// "Wed 07:00": what `alarm list` says an alarm skips.
    public func dayAndTime(_ instant: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        return "\(dayName(date)) \(clock(seconds))"
    }

    /// "today 07:00", "tomorrow 07:00", "Wed 07:00" within the week, else "2025-06-30 07:00".
    public func day(_ instant: Int64, now: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        let days = date.daysSinceEpoch - zone.local(at: now).date.daysSinceEpoch
        let day = switch days {
        case 0: "today"
        case 1: "tomorrow"
        case 2..<7: dayName(date)
        default: date.description
        }
        return "\(day) \(clock(seconds))"
    }

    /// When an alarm rings, as a clock says it after "at": "20:01" today,
    /// "07:30 tomorrow", "Wed 07:30" within the week, else "2026-12-25 07:30".
    public func spokenClock(_ instant: Int64, now: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        switch date.daysSinceEpoch - zone.local(at: now).date.daysSinceEpoch {
        case ...0: return clock(seconds)
        case 1: return "\(clock(seconds)) tomorrow"
        case 2..<7: return "\(dayName(date)) \(clock(seconds))"
        default: return "\(date) \(clock(seconds))"
        }
    }

    /// The status line's "next alarm Wed 07:00 (in 7 h 12 min)" for an alarm that fires at `instant`.
    public func nextAlarm(_ instant: Int64, now: Int64) -> String {
        "next alarm \(day(instant, now: now)) (in \(AlarmDurationText.text(seconds: instant - now)))"
    }

    private func dayName(_ date: LocalDate) -> String {
        let day = date.weekday.rawValue
        return "\(day.prefix(1).uppercased())\(day.dropFirst())"
    }

    public func iso8601(_ instant: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        let offset = zone.utcOffset(at: instant)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        let offsetText = "\(sign)\(two(magnitude / 3600)):\(two(magnitude % 3600 / 60))"
        return "\(date)T\(clock(seconds)):\(two(seconds % 60))\(offsetText)"
    }

    /// What the TIME column says for a schedule.
    public func scheduleTime(_ schedule: AlarmSchedule) -> String {
        switch schedule {
        case .clockTime(let time, _): time.description
        case .date(let date, let time): "\(date)T\(time)"
        case .relative(let firesAt): table(firesAt)
        }
    }

    public func repeatText(_ schedule: AlarmSchedule) -> String {
        if case .clockTime(_, let repeatDays) = schedule { return repeatDays.description }
        return "once"
    }

    private func clock(_ secondsIntoDay: Int64) -> String {
        "\(two(secondsIntoDay / 3600)):\(two(secondsIntoDay % 3600 / 60))"
    }

    private func two(_ value: Int64) -> String { String(value).leftPadded(to: 2) }
}
