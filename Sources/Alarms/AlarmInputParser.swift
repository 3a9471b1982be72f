import InterludeCore

/// Parses and validates the values of `interlude alarm add`. Every failure
/// names the value the user typed and what would be accepted.
public enum AlarmInputParser {
    /// `HH:MM`, `in DURATION` (also `in90s`), or `YYYY-MM-DDTHH:MM` as positionals.
    public static func parseWhen(_ given: [String], now: WallInstant, zone: ZonedTime) throws(AlarmCommandError) -> AlarmSchedule {
        // "in 20s" quoted as one argument reads as the two words it is.
        let words = given.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
        guard let first = words.first else {
            throw AlarmCommandError("alarm add: missing time (HH:MM, 'in DURATION' or YYYY-MM-DDTHH:MM)")
        }
        if first == "in" || first.hasPrefix("in") && words.count == 1 && first.count > 2 && first.dropFirst(2).first?.isNumber == true {
            let durationText = first == "in" ? words.dropFirst().joined() : String(first.dropFirst(2))
            guard !durationText.isEmpty else { throw AlarmCommandError("alarm add: 'in' needs a duration, like 'in 90s' or 'in 1h30m'") }
            let seconds = try parseDuration(durationText)
            return .relative(firesAt: now.secondsSince1970 + seconds)
        }
        guard words.count == 1 else {
            throw AlarmCommandError("alarm add: unexpected '\(words.dropFirst().joined(separator: " "))' after the time")
        }
        if first.contains("T") {
            let (date, time) = try parseDateTime(first)
            let fire = zone.instant(of: time, on: date)
            guard fire > now.secondsSince1970 else {
                throw AlarmCommandError("alarm add: '\(first)' is in the past")
            }
            return .date(date: date, time: time)
        }
        return .clockTime(time: try parseClockTime(first), repeatDays: .never)
    }

    /// `HH:MM` (or `H:MM`), 00:00-23:59.
    public static func parseClockTime(_ text: String) throws(AlarmCommandError) -> LocalTime {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII) else {
            throw AlarmCommandError("alarm add: invalid time '\(text)' (use HH:MM, like 07:30)")
        }
        guard (0...23).contains(hour) else {
            throw AlarmCommandError("alarm add: invalid time '\(text)': the hour must be 00-23")
        }
        guard (0...59).contains(minute) else {
            throw AlarmCommandError("alarm add: invalid time '\(text)': the minutes must be 00-59")
        }
        return LocalTime(hour: hour, minute: minute)
    }

    /// `YYYY-MM-DDTHH:MM`, a real calendar date.
    public static func parseDateTime(_ text: String) throws(AlarmCommandError) -> (LocalDate, LocalTime) {
        let halves = text.split(separator: "T", omittingEmptySubsequences: false)
        let dateParts = halves.first?.split(separator: "-", omittingEmptySubsequences: false) ?? []
        guard halves.count == 2, dateParts.count == 3, dateParts[0].count == 4, dateParts[1].count == 2, dateParts[2].count == 2,
              let year = Int(dateParts[0]), let month = Int(dateParts[1]), let day = Int(dateParts[2]) else {
            throw AlarmCommandError("alarm add: invalid date and time '\(text)' (use YYYY-MM-DDTHH:MM, like 2025-03-30T07:30)")
        }
        let date = LocalDate(year: year, month: month, day: day)
        guard date.isValid else {
            throw AlarmCommandError("alarm add: invalid date '\(halves[0])': there is no such day")
        }
        let time: LocalTime
        do {
            time = try parseClockTime(String(halves[1]))
        } catch {
            throw AlarmCommandError("alarm add: invalid time '\(halves[1])' in '\(text)' (hours 00-23, minutes 00-59)")
        }
        return (date, time)
    }

    /// `90s`, `5m`, `1h30m`, `2h`, `1h30m15s`: a positive number of seconds, at most a week.
    public static func parseDuration(_ text: String) throws(AlarmCommandError) -> Int64 {
        if text.hasPrefix("-") {
            throw AlarmCommandError("alarm add: invalid duration '\(text)': it must be positive")
        }
        var total: Int64 = 0
        var number = ""
        var sawUnit = false
        for character in text {
            if character.isASCII && character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int64
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default:
                throw AlarmCommandError("alarm add: invalid duration '\(text)' (use forms like 90s, 5m, 1h30m)")
            }
            guard let value = Int64(number), value <= 1_000_000 else {
                throw AlarmCommandError("alarm add: invalid duration '\(text)' (use forms like 90s, 5m, 1h30m)")
            }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty else {
            throw AlarmCommandError("alarm add: invalid duration '\(text)': give a unit (90s, 5m, 1h30m)")
        }
        guard total > 0 else {
            throw AlarmCommandError("alarm add: invalid duration '\(text)': it must be longer than zero")
        }
        guard total <= 7 * 86_400 else {
            throw AlarmCommandError("alarm add: invalid duration '\(text)': at most a week (use a date for later)")
        }
        return total
    }

    /// `weekdays`, `weekends`, `daily`, or a comma list of `mon`...`sun`.
    public static func parseRepeat(_ text: String) throws(AlarmCommandError) -> RepeatDays {
        switch text.lowercased() {
        case "daily": return .daily
        case "weekdays": return .weekdays
        case "weekends": return .weekends
        default: break
        }
        var days = Set<Weekday>()
        for name in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            guard let day = Weekday(rawValue: String(name)) else {
                throw AlarmCommandError("alarm add: unknown day '\(name)' in --repeat (use mon,tue,wed,thu,fri,sat,sun, weekdays, weekends or daily)")
            }
            days.insert(day)
        }
        return RepeatDays(days)
    }

    /// `--sound`: a built-in tone name, a station's `http`/`https` URL,
    /// `playlist:NAME` (a saved playlist; or an `.m3u`/`.m3u8` file's path),
    /// `book:PATH` (a book's folder or file), a folder of audio files, or an
    /// existing, readable audio file. Paths are checked now, by what they are;
    /// what they hold is the player's to open when the alarm is due (and the
    /// tone rings when it does not sound).
    public static func parseSound(_ text: String, fileExists: (String) -> Bool,
                                  command: String = "alarm add") throws(AlarmCommandError) -> AlarmSound {
        if AlarmSound.builtInTones.contains(text) { return .tone(name: text) }
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw AlarmCommandError("\(command): --sound holds a control character (U+\(String(bad.value, radix: 16, uppercase: true)))")
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard !text.contains(" "), text.utf8.count <= 8192 else {
                throw AlarmCommandError("\(command): --sound \(text) is no station URL (a space, or longer than 8192 bytes)")
            }
            return .station(url: text)
        }
        if text.hasPrefix("playlist:") {
            let name = String(text.dropFirst("playlist:".count))
            guard !name.isEmpty else { throw AlarmCommandError("\(command): --sound playlist: needs a playlist's name") }
            return .playlist(path: name)
        }
        if text.hasPrefix("book:") {
            let path = String(text.dropFirst("book:".count))
            guard !path.isEmpty, AudioPathCheck.specialKind(path) == .directory || fileExists(path) else {
                throw AlarmCommandError("\(command): book not found: \(path.isEmpty ? "(no path after book:)" : path)")
            }
            return .book(path: path)
        }
        // A FIFO would block the alarm's open when it is due: named now, by what it is.
        if let kind = AudioPathCheck.specialKind(text) {
            guard kind == .directory else {
                throw AlarmCommandError("\(command): --sound \(text) is \(kind.rawValue), not an audio file")
            }
            return .folder(path: text)
        }
        guard fileExists(text) else {
            throw AlarmCommandError("\(command): sound file not found: \(text) (or use a built-in tone: \(AlarmSound.builtInTones.joined(separator: ", ")))")
        }
        if lowered.hasSuffix(".m3u") || lowered.hasSuffix(".m3u8") { return .playlist(path: text) }
        return .file(path: text)
    }

    /// `--ramp`: whole seconds from silence to the alarm's volume (`Alarm.rampRange`).
    public static func parseRamp(_ text: String, command: String = "alarm add") throws(AlarmCommandError) -> Int {
        guard let seconds = Alarm.rampRange.parse(text) else {
            throw AlarmCommandError("\(command): invalid --ramp '\(text)': \(Alarm.rampRange.accepts)")
        }
        return Int(seconds.rounded())
    }

    /// A label short enough to show (`TextLimit.label`).
    public static func parseLabel(_ text: String) throws(AlarmCommandError) -> String {
        if let problem = TextLimit.label.problem(text) { throw AlarmCommandError("alarm add: --label: \(problem)") }
        return text
    }

    public static func parseSnoozeMinutes(_ text: String) throws(AlarmCommandError) -> Int {
        guard let minutes = Alarm.snoozeRange.parse(text) else {
            throw AlarmCommandError("alarm add: invalid --snooze '\(text)': \(Alarm.snoozeRange.accepts)")
        }
        return minutes
    }

    public static func parseRingSeconds(_ text: String) throws(AlarmCommandError) -> Int {
        guard let seconds = Alarm.ringRange.parse(text) else {
            throw AlarmCommandError("alarm add: invalid --ring '\(text)': \(Alarm.ringRange.accepts)")
        }
        return seconds
    }

    public static func parseID(_ text: String?, command: String) throws(AlarmCommandError) -> AlarmID {
        guard let text else { throw AlarmCommandError("alarm \(command): missing alarm id (see 'interlude alarm list')") }
        guard let value = Alarm.idRange.parse(text) else {
            throw AlarmCommandError("alarm \(command): invalid alarm id '\(text)' (see 'interlude alarm list')")
        }
        return AlarmID(rawValue: value)
    }
}
