import InterludeCore

/// Converts between instants (seconds since the epoch) and local dates and
/// times in one time zone, with the rules alarms need on DST days.
///
/// Only the UTC offset at an instant is asked of the zone, so any
/// `TimeZoneRules` serves: a zone file, a `TZ` rule string, or UTC.
public struct ZonedTime: Sendable {
    public let timeZone: TimeZoneRules

    public init(timeZone: TimeZoneRules) { self.timeZone = timeZone }

    public func utcOffset(at instant: Int64) -> Int64 {
        timeZone.utcOffset(at: instant)
    }

    /// The local date and time of day (seconds into the day) at `instant`.
    public func local(at instant: Int64) -> (date: LocalDate, secondsIntoDay: Int64) {
        let local = instant + utcOffset(at: instant)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (LocalDate(daysSinceEpoch: days), local - days * 86_400)
    }

    /// The instant at which the wall clock in this zone shows `time` on `date`.
    ///
    /// - A time that occurs twice (the hour repeated when DST ends) resolves to
    ///   its first occurrence, so an alarm rings once, not twice.
    /// - A time that does not exist (skipped when DST starts, e.g. 02:30 in
    ///   Berlin on the last Sunday of March) resolves to the first instant
    ///   after the gap (03:00 local), as the iOS and Android clocks ring then.
    public func instant(of time: LocalTime, on date: LocalDate) -> Int64 {
        let local = date.daysSinceEpoch * 86_400 + time.secondsIntoDay
        // The offsets in force a day either side cover any single transition
        // near this date (zones change offset at most once within two days).
        let offsetBefore = utcOffset(at: local - 86_400 - 14 * 3600)
        let offsetAfter = utcOffset(at: local + 86_400 + 14 * 3600)
        let candidates = [local - offsetBefore, local - offsetAfter]
            .filter { utcOffset(at: $0) + $0 == local }
        if let first = candidates.min() { return first }
        // In the gap: the transition lies between the two readings; find it.
        var low = min(local - offsetBefore, local - offsetAfter)  // before the transition
        var high = max(local - offsetBefore, local - offsetAfter) // after it
        let offsetAtLow = utcOffset(at: low)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if utcOffset(at: middle) == offsetAtLow { low = middle } else { high = middle }
        }
        return high
    }
}
