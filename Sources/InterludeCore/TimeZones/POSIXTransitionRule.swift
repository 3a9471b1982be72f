/// One switch of a POSIX TZ rule (`M3.5.0/3`): which day of the year, and
/// at what local time of day, as RFC 8536 §3.3 and POSIX `TZ` define them.
public struct POSIXTransitionRule: Hashable, Sendable {
    public enum Day: Hashable, Sendable {
        /// `Jn`, 1...365: February 29th is never counted, so `J60` is always March 1st.
        case julianSkippingLeapDay(Int64)
        /// `n`, 0...365: counts February 29th in leap years.
        case zeroBasedDayOfYear(Int64)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int64, week: Int64, weekday: Int64)
    }

    public let day: Day
    /// Seconds after local midnight of `day`. RFC 8536 §3.3.1 lets it be
    /// negative or past 24 h (-167...167 hours), so a rule can name "the
    /// Saturday before the last Sunday at 24:00" or "all year".
    public let timeOfDay: Int64

    public init(day: Day, timeOfDay: Int64 = 2 * 3600) {
        self.day = day
        self.timeOfDay = timeOfDay
    }

    /// The wall-clock moment in `year`, counted in seconds since 1970-01-01
    /// 00:00 as if local time were UTC; the caller subtracts the offset that
    /// was in force before the switch.
    func localSeconds(in year: Int64) -> Int64 {
        dayNumber(in: year) * 86_400 + timeOfDay
    }

    private func dayNumber(in year: Int64) -> Int64 {
        let january1 = CivilCalendar.firstDayOfYear(year)
        switch day {
        case .julianSkippingLeapDay(let n):
            // From March on, a leap year's February 29th is skipped over.
            let leapDay: Int64 = n >= 60 && CivilCalendar.isLeapYear(year) ? 1 : 0
            return january1 + n - 1 + leapDay
        case .zeroBasedDayOfYear(let n):
            return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilCalendar.day(year: year, month: month, day: 1)
            let firstMatching = first + CivilCalendar.floorModulo(weekday - CivilCalendar.weekday(of: first), 7)
            var result = firstMatching + 7 * (week - 1)
            // Week 5 means "the last": step back when the month has only four.
            let monthEnd = first + CivilCalendar.daysInMonth(month, year: year)
            while result >= monthEnd { result -= 7 }
            return result
        }
    }
}
