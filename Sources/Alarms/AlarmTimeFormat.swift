/// How alarm times are shown: `2025-06-16 07:00 Mon` in tables,
/// `2025-06-16T07:00:00+02:00` in JSON.
public struct AlarmTimeFormat: Sendable {
    public let zone: ZonedTime

    public init(zone: ZonedTime) { self.zone = zone }

    public func table(_ instant: Int64) -> String {
        let (date, seconds) = zone.local(at: instant)
        let day = date.weekday.rawValue
        return "\(date) \(clock(seconds)) \(day.prefix(1).uppercased())\(day.dropFirst())"
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
