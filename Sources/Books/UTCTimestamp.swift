import InterludeCore

/// `20261129T231500Z`: sorts by time and is safe in a file name.
enum UTCTimestamp {
    static func compact(_ instant: WallInstant) -> String {
        let seconds = instant.secondsSince1970
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + pad(month, 2) + pad(day, 2) + "T"
            + pad(rest / 3600, 2) + pad(rest % 3600 / 60, 2) + pad(rest % 60, 2) + "Z"
    }

    /// Year, month and day of a day count from 1970-01-01 (proleptic
    /// Gregorian), counted out year by year: file names need no speed.
    static func civil(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
        var year: Int64 = 1970
        var rest = days
        while rest < 0 { year -= 1; rest += isLeap(year) ? 366 : 365 }
        while rest >= (isLeap(year) ? 366 : 365) { rest -= isLeap(year) ? 366 : 365; year += 1 }
        let lengths: [Int64] = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month: Int64 = 1
        for length in lengths {
            if rest < length { break }
            rest -= length
            month += 1
        }
        return (year, month, rest + 1)
    }
}
