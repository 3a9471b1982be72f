/// Proleptic Gregorian day counting for the time-zone rules, which need
/// dates before `Alarms.LocalDate` exists in the dependency graph (this module
/// sits below Alarms). Days are counted from 1970-01-01 (day 0).
enum CivilCalendar {
    /// Cumulative days before the first of each month in a common year.
    private static let daysBeforeMonth: [Int64] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]

    static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to January 1st of `year` (negative before 1970).
    static func firstDayOfYear(_ year: Int64) -> Int64 {
        daysBeforeYear(year) - daysBeforeYear(1970)
    }

    /// Days from 1970-01-01 to `year-month-day`; `month` is 1...12.
    static func day(year: Int64, month: Int64, day: Int64) -> Int64 {
        let leapDay: Int64 = month > 2 && isLeapYear(year) ? 1 : 0
        return firstDayOfYear(year) + daysBeforeMonth[Int(month - 1)] + leapDay + day - 1
    }

    /// The year that contains day `day` (days since 1970-01-01).
    static func year(containing day: Int64) -> Int64 {
        // 146,097 days per 400 years gives an estimate within a year; correct it.
        var year = 1970 + floorDivide(day * 400, 146_097)
        while firstDayOfYear(year) > day { year -= 1 }
        while firstDayOfYear(year + 1) <= day { year += 1 }
        return year
    }

    /// Year, month (1...12) and day of the month of day `day` (days since 1970-01-01).
    static func date(ofDay day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let year = year(containing: day)
        var rest = day - firstDayOfYear(year)
        var month: Int64 = 1
        while rest >= daysInMonth(month, year: year) {
            rest -= daysInMonth(month, year: year)
            month += 1
        }
        return (year, month, rest + 1)
    }

    /// 0 = Sunday ... 6 = Saturday, as POSIX TZ rules number the days.
    static func weekday(of day: Int64) -> Int64 {
        // 1970-01-01 was a Thursday.
        floorModulo(day + 4, 7)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        value - floorDivide(value, divisor) * divisor
    }

    /// Days from 0001-01-01 to January 1st of `year`.
    private static func daysBeforeYear(_ year: Int64) -> Int64 {
        let previous = year - 1
        return 365 * previous + floorDivide(previous, 4) - floorDivide(previous, 100) + floorDivide(previous, 400)
    }
}
