/// Reads a POSIX `TZ` rule string, with the RFC 8536 §3.3.1 extensions:
///
///     std offset [dst [offset] [,start[/time],end[/time]]]
///
/// - names: three or more letters (`CET`), or `<...>` with letters, digits,
///   `+` and `-` (`<+1030>`);
/// - offsets: `[+|-]hh[:mm[:ss]]`, hours 0-24, counted *west* of UTC (so
///   `CET-1` is one hour ahead); a missing daylight offset is one hour ahead
///   of standard time;
/// - dates: `Jn` (1-365, no leap day), `n` (0-365), `Mm.w.d`;
/// - times: `[+|-]hhh[:mm[:ss]]`, hours -167 to 167, default 02:00.
///
/// A daylight name without a rule gets the US rule (`M3.2.0,M11.1.0`), the
/// fallback glibc uses too.
struct POSIXRuleParser {
    private let text: String
    private let characters: [UInt8]
    private var position = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text.utf8)
    }

    mutating func parse() throws(TimeZoneError) -> POSIXTimeZoneRule {
        let standardName = try name()
        let standardOffset = try offset()
        let standard = LocalTimeType(utcOffset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
        guard !atEnd else { return POSIXTimeZoneRule(standard: standard, daylightSaving: nil) }

        let daylightName = try name()
        var daylightOffset = standardOffset + 3600
        if let next = peek, next != UInt8(ascii: ",") { daylightOffset = try offset() }
        let daylightType = LocalTimeType(utcOffset: daylightOffset, isDaylightSaving: true, abbreviation: daylightName)

        let start: POSIXTransitionRule, end: POSIXTransitionRule
        if atEnd {
            start = POSIXTransitionRule(day: .monthWeekDay(month: 3, week: 2, weekday: 0))
            end = POSIXTransitionRule(day: .monthWeekDay(month: 11, week: 1, weekday: 0))
        } else {
            try expect(",")
            start = try transition()
            try expect(",")
            end = try transition()
        }
        guard atEnd else { throw failure("unexpected '\(rest)' at the end") }
        return POSIXTimeZoneRule(standard: standard,
                                 daylightSaving: .init(type: daylightType, start: start, end: end))
    }

    // MARK: Grammar

    private mutating func name() throws(TimeZoneError) -> String {
        let begin = position
        if peek == UInt8(ascii: "<") {
            position += 1
            let inner = position
            while let character = peek, character != UInt8(ascii: ">") {
                guard isLetter(character) || isDigit(character) || character == UInt8(ascii: "+") || character == UInt8(ascii: "-") else {
                    throw failure("unexpected '\(Character(Unicode.Scalar(character)))' in a <quoted> zone name")
                }
                position += 1
            }
            guard peek == UInt8(ascii: ">") else { throw failure("a '<' zone name is not closed with '>'") }
            let name = String(decoding: characters[inner..<position], as: UTF8.self)
            position += 1
            guard name.utf8.count >= 3 else { throw failure("zone name '<\(name)>' is shorter than three characters") }
            return name
        }
        while let character = peek, isLetter(character) { position += 1 }
        let name = String(decoding: characters[begin..<position], as: UTF8.self)
        guard name.utf8.count >= 3 else {
            throw failure(name.isEmpty ? "expected a zone name at '\(rest)'" : "zone name '\(name)' is shorter than three letters")
        }
        return name
    }

    /// An offset, returned as seconds *east* of UTC (POSIX counts west).
    private mutating func offset() throws(TimeZoneError) -> Int64 {
        -(try signedDuration(maximumHours: 24, what: "offset"))
    }

    private mutating func transition() throws(TimeZoneError) -> POSIXTransitionRule {
        let day: POSIXTransitionRule.Day
        if peek == UInt8(ascii: "J") {
            position += 1
            let n = try number(what: "day after 'J'")
            guard (1...365).contains(n) else { throw failure("day J\(n) is not within J1-J365") }
            day = .julianSkippingLeapDay(n)
        } else if peek == UInt8(ascii: "M") {
            position += 1
            let month = try number(what: "month after 'M'")
            try expect(".")
            let week = try number(what: "week")
            try expect(".")
            let weekday = try number(what: "weekday")
            guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                throw failure("M\(month).\(week).\(weekday) needs month 1-12, week 1-5 and weekday 0-6")
            }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            let n = try number(what: "day of the year")
            guard (0...365).contains(n) else { throw failure("day \(n) is not within 0-365") }
            day = .zeroBasedDayOfYear(n)
        }
        guard peek == UInt8(ascii: "/") else { return POSIXTransitionRule(day: day) }
        position += 1
        return POSIXTransitionRule(day: day, timeOfDay: try signedDuration(maximumHours: 167, what: "time"))
    }

    /// `[+|-]h[h[h]][:mm[:ss]]` in seconds, sign applied.
    private mutating func signedDuration(maximumHours: Int64, what: String) throws(TimeZoneError) -> Int64 {
        var sign: Int64 = 1
        if peek == UInt8(ascii: "+") { position += 1 } else if peek == UInt8(ascii: "-") { sign = -1; position += 1 }
        let hours = try number(what: "hours of the \(what)")
        guard hours <= maximumHours else { throw failure("\(what) hours \(hours) are more than \(maximumHours)") }
        var seconds = hours * 3600
        for unit: Int64 in [60, 1] {
            guard peek == UInt8(ascii: ":") else { break }
            position += 1
            let value = try number(what: unit == 60 ? "minutes of the \(what)" : "seconds of the \(what)")
            guard value <= 59 else { throw failure("\(what) has \(value) \(unit == 60 ? "minutes" : "seconds"), more than 59") }
            seconds += value * unit
        }
        return sign * seconds
    }

    private mutating func number(what: String) throws(TimeZoneError) -> Int64 {
        let begin = position
        // Three digits cover every field (hours up to 167, days up to 365).
        while let character = peek, isDigit(character), position - begin < 3 { position += 1 }
        guard position > begin else { throw failure("expected the \(what) at '\(rest)'") }
        if let character = peek, isDigit(character) { throw failure("the \(what) has too many digits") }
        return characters[begin..<position].reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    private mutating func expect(_ literal: Unicode.Scalar) throws(TimeZoneError) {
        guard peek == UInt8(ascii: literal) else {
            throw failure(atEnd ? "ends early: expected '\(literal)'" : "expected '\(literal)' at '\(rest)'")
        }
        position += 1
    }

    // MARK: Characters

    private var peek: UInt8? { position < characters.count ? characters[position] : nil }
    private var atEnd: Bool { position >= characters.count }
    private var rest: String { String(decoding: characters[position...], as: UTF8.self) }

    private func isLetter(_ character: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(character) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(character)
    }

    private func isDigit(_ character: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character)
    }

    private func failure(_ reason: String) -> TimeZoneError {
        TimeZoneError(subject: "rule '\(text)'", reason: reason)
    }
}
