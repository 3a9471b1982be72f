/// The dates feeds write, read as podcastparser's `parse_pubdate` reads them:
/// RFC 822/2822 (`Fri, 21 Nov 1997 09:55:06 -0600`, with Python's
/// `parsedate_tz` leniency: no day name, two-digit years, no seconds, zone
/// names) and ISO 8601 (`2003-12-13T18:30:02Z`, `+02:00`). Seconds since the
/// epoch; nil for what is no date. A date without a zone is read as UTC
/// (podcastparser takes the machine's local zone there).
public enum FeedDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = ["UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "AST": -400, "ADT": -300, "EST": -500,
                                       "EDT": -400, "CST": -600, "CDT": -500, "MST": -700, "MDT": -600, "PST": -800, "PDT": -700]
    /// Years a feed's date may name: the range keeps the day count's arithmetic far from overflow.
    static let years = 1..<10_000

    public static func parse(_ text: String) -> Int64? {
        if text.isEmpty { return nil }
        if let date = commonRFC822(text) { return date }
        return rfc822(text) ?? iso8601(text)
    }

    /// The form nearly every feed writes, `[Day, ]D[D] Mon YYYY HH:MM[:SS] ZONE`
    /// (words apart by white space), read over its bytes: the value `rfc822` gives it.
    /// Nil for any other text (`rfc822` reads that, step by step).
    static func commonRFC822(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { commonRFC822(bytes: $0) }
    }

    /// `parse` of UTF-8 bytes (an element's text as read) with white space
    /// around it trimmed: a String made only past the shortcut.
    static func parse(trimming bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let trimmed = UnsafeBufferPointer(rebasing: bytes[String.trimmedRange(bytes)])
        if trimmed.isEmpty { return nil }
        return commonRFC822(bytes: trimmed) ?? parse(String(decoding: trimmed, as: UTF8.self))
    }

    static func commonRFC822(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        do {
            var index = 0
            func number(maxDigits: Int) -> Int? {
                var value = 0
                let start = index
                while index < bytes.count, index - start < maxDigits, (48...57).contains(bytes[index]) {
                    value = value * 10 + Int(bytes[index] - 48)
                    index += 1
                }
                return index == start ? nil : value
            }
            func skip(_ byte: UInt8) -> Bool {
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            /// The white space `rfc822` splits words at: at least one. Not a
            /// carriage return: there, before a line feed, the two are one
            /// Character, which `rfc822` does not split at.
            func skipSpace() -> Bool {
                let start = index
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A {
                    index += 1
                }
                return index > start
            }
            func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
            // A day's name: a first word ending with a comma is dropped, whatever it says.
            if bytes.count > 4, isLetter(bytes[0]), isLetter(bytes[1]), isLetter(bytes[2]), bytes[3] == UInt8(ascii: ",") {
                index = 4
                guard skipSpace() else { return nil }
            }
            guard let day = number(maxDigits: 2), skipSpace(), index + 3 <= bytes.count,
                  isLetter(bytes[index]), isLetter(bytes[index + 1]), isLetter(bytes[index + 2]) else { return nil }
            let monthKey = [bytes[index] | 0x20, bytes[index + 1] | 0x20, bytes[index + 2] | 0x20]
            guard let month = monthBytes.firstIndex(of: monthKey) else { return nil }
            index += 3
            guard skipSpace() else { return nil }
            let yearStart = index
            guard var year = number(maxDigits: 4), index - yearStart == 4 || index - yearStart == 2, skipSpace(),
                  let hour = number(maxDigits: 2), skip(UInt8(ascii: ":")), let minute = number(maxDigits: 2) else { return nil }
            var second = 0
            if skip(UInt8(ascii: ":")) {
                guard let value = number(maxDigits: 2) else { return nil }
                second = value
            }
            guard skipSpace(), index < bytes.count else { return nil }
            var offset = 0
            let zone = bytes[index...]
            if let sign = zone.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                guard zone.count == 5, zone.dropFirst().allSatisfy({ (48...57).contains($0) }) else { return nil }
                let digits = zone.dropFirst().reduce(0) { $0 * 10 + Int($1 - 48) }
                offset = sign == UInt8(ascii: "-") ? -digits : digits
            } else {
                guard zone.count <= 3, zone.allSatisfy(isLetter) else { return nil }
                // A zone name `rfc822` does not know is no offset there either.
                offset = zones[String(decoding: zone, as: UTF8.self).uppercased()] ?? 0
            }
            if year < 100 { year += year > 68 ? 1900 : 2000 }
            guard years.contains(year), (0...31).contains(day) else { return nil }
            let magnitude = abs(offset)
            let offsetSeconds = (offset < 0 ? -1 : 1) * (magnitude / 100 * 3600 + magnitude % 100 * 60)
            return timestamp(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second) - Int64(offsetSeconds)
        }
    }

    static let monthBytes: [[UInt8]] = months.map { Array($0.utf8) }

    /// Python's `email._parseaddr._parsedate_tz`, step by step.
    static func rfc822(_ text: String) -> Int64? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        guard !words.isEmpty else { return nil }
        if words[0].hasSuffix(",") || dayNames.contains(words[0].lowercased()) {
            words.removeFirst()
        } else if let comma = words[0].lastIndex(of: ",") {
            words[0] = String(words[0][words[0].index(after: comma)...])
        }
        if words.count == 3 {
            let parts = words[0].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 3 { words = parts + Array(words[1...]) }
        }
        if words.count == 4 {
            let last = words[3]
            let sign = last.firstIndex(of: "+") ?? last.firstIndex(of: "-")
            if let sign, sign != last.startIndex {
                words[3] = String(last[..<sign])
                words.append(String(last[sign...]))
            } else {
                words.append("")
            }
        }
        guard words.count >= 5 else { return nil }
        var day = words[0], month = words[1].lowercased(), year = words[2], time = words[3], zone = words[4]
        guard !day.isEmpty, !month.isEmpty, !year.isEmpty else { return nil }
        if monthNumber(month) == nil {
            (day, month) = (month, day.lowercased())
        }
        guard let monthIndex = monthNumber(month) else { return nil }
        if day.hasSuffix(",") { day.removeLast() }
        if let colon = year.firstIndex(of: ":"), colon != year.startIndex { (year, time) = (time, year) }
        if year.hasSuffix(",") { year.removeLast() }
        guard let yearFirst = year.first else { return nil }
        if !yearFirst.isASCII || !yearFirst.isNumber { (year, zone) = (zone, year) }
        if time.hasSuffix(",") { time.removeLast() }
        var clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if clock.count == 1 && time.contains(".") { clock = time.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        if clock.count == 2 { clock.append("0") }
        guard clock.count == 3, let yearValue = pythonInt(year), let dayNumber = pythonInt(day), let hour = pythonInt(clock[0]),
              let minute = pythonInt(clock[1]), let second = pythonInt(clock[2]) else { return nil }
        var yearNumber = yearValue
        if yearNumber < 100 { yearNumber += yearNumber > 68 ? 1900 : 2000 }
        guard years.contains(yearNumber), (0...31).contains(dayNumber), (0...99).contains(hour), (0...99).contains(minute),
              (0...99).contains(second) else { return nil }
        var offset = 0
        let upperZone = zone.uppercased()
        if let named = zones[upperZone] {
            offset = named
        } else if let value = pythonInt(upperZone), (-9999...9999).contains(value) {
            offset = value
        }
        let magnitude = abs(offset)
        let offsetSeconds = (offset < 0 ? -1 : 1) * (magnitude / 100 * 3600 + magnitude % 100 * 60)
        return timestamp(year: yearNumber, month: monthIndex, day: dayNumber, hour: hour, minute: minute, second: second)
            - Int64(offsetSeconds)
    }

    static let dayNames: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let fullMonths = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// 1-12 for a month's three-letter or full English name, as `_monthnames` lists them.
    static func monthNumber(_ name: String) -> Int? {
        if let index = months.firstIndex(of: name) { return index + 1 }
        if let index = fullMonths.firstIndex(of: name) { return index + 1 }
        return nil
    }

    /// Python's `int(text)` for short numbers: an optional sign, ASCII digits, at most 9 of them.
    static func pythonInt(_ text: String) -> Int? {
        var digits = Substring(text.trimmingFeedWhitespace())
        var negative = false
        if let sign = digits.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits)
        else { return nil }
        return negative ? -value : value
    }

    /// `YYYY-MM-DDTHH:MM:SS` then `Z`, `+HH:MM` or `-HH:MM` (or nothing).
    static func iso8601(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58, bytes[16] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              years.contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...61).contains(second) else { return nil }
        let rest = bytes[19...]
        var offset = 0
        if rest.count == 6, rest.first == 43 || rest.first == 45, rest[rest.startIndex + 3] == 58,
           let hours = number(20..<22), let minutes = number(23..<25) {
            offset = (hours * 3600 + minutes * 60) * (rest.first == 45 ? -1 : 1)
        }
        return timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second) - Int64(offset)
    }

    /// Seconds since 1970-01-01T00:00:00Z of a proleptic Gregorian date (days from civil, Howard Hinnant's).
    static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
