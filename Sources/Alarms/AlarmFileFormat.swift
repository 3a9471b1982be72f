import InterludeCore

/// The JSON shape of `alarms.json`, written and read by hand (no Foundation
/// in the player). It is the shape Swift's synthesized `Codable` gave the
/// alarm types when the file was first written with `JSONEncoder`, so files
/// from earlier versions read back unchanged:
///
///     {"version": 1, "nextID": 3, "alarms": [{"id": 1, "label": "...",
///      "schedule": {"clockTime": {"time": {"hour": 7, "minute": 30},
///                                 "repeatDays": ["mon", "fri"]}},
///      "sound": {"tone": {"name": "classic"}}, "isEnabled": true,
///      "volume": 1, "ringTimeoutSeconds": 60, "snoozeMinutes": 9,
///      "handledThrough": 1750053600, "snoozedUntil": 1750054140}]}
///
/// An enum case is an object with exactly one key, the case name, holding
/// the associated values by label; `snoozedUntil` and `skips` are left out
/// when unset, `rampSeconds` when 0 (no ramp). Sounds: `tone`, `file`,
/// `folder`, `playlist` and `book` (each `path`), `station` (`url`).
enum AlarmFileFormat {
    struct Document: Equatable {
        var version: Int
        var nextID: Int
        var alarms: [Alarm]
    }

    static func encode(_ document: Document) -> JSONValue {
        .object([
            "version": .integer(Int64(document.version)),
            "nextID": .integer(Int64(document.nextID)),
            "alarms": .array(document.alarms.map(encode)),
        ])
    }

    /// The version alone, so a file from a newer program is reported as such
    /// even when the rest of its shape has changed.
    static func version(of json: JSONValue) -> Int? {
        json["version"]?.integerValue.flatMap { Int(exactly: $0) }
    }

    static func decode(_ json: JSONValue) throws(AlarmFileFormatError) -> Document {
        let root = Fields(json, at: "the file")
        return Document(version: try root.int("version"), nextID: try root.int("nextID", in: Alarm.idRange),
                        alarms: try root.array("alarms").map { element throws(AlarmFileFormatError) in try decodeAlarm(element) })
    }

    // MARK: Alarm

    private static func encode(_ alarm: Alarm) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .integer(Int64(alarm.id.rawValue)),
            "schedule": encode(alarm.schedule),
            "label": .string(alarm.label),
            "isEnabled": .bool(alarm.isEnabled),
            "sound": encode(alarm.sound),
            "volume": .double(alarm.volume),
            "ringTimeoutSeconds": .integer(Int64(alarm.ringTimeoutSeconds)),
            "snoozeMinutes": .integer(Int64(alarm.snoozeMinutes)),
            "handledThrough": .integer(alarm.handledThrough),
        ]
        if let snoozedUntil = alarm.snoozedUntil { members["snoozedUntil"] = .integer(snoozedUntil) }
        if let skips = alarm.skips { members["skips"] = .integer(skips) }
        if alarm.rampSeconds > 0 { members["rampSeconds"] = .integer(Int64(alarm.rampSeconds)) }
        if let since = alarm.ringingSince { members["ringingSince"] = .integer(since) }
        if !alarm.rooms.isEmpty { members["rooms"] = .array(alarm.rooms.map { .string($0) }) }
        return .object(members)
    }

    private static func decodeAlarm(_ field: Fields) throws(AlarmFileFormatError) -> Alarm {
        Alarm(id: AlarmID(rawValue: try field.int("id", in: Alarm.idRange)),
              schedule: try decodeSchedule(try field.nested("schedule")),
              label: try field.string("label"),
              isEnabled: try field.bool("isEnabled"),
              sound: try decodeSound(try field.nested("sound")),
              volume: try field.double("volume", in: .volume),
              ringTimeoutSeconds: try field.int("ringTimeoutSeconds", in: Alarm.ringRange),
              snoozeMinutes: try field.int("snoozeMinutes", in: Alarm.snoozeRange),
              handledThrough: try field.int64("handledThrough", in: Alarm.instantRange),
              snoozedUntil: try field.optionalInt64("snoozedUntil", in: Alarm.instantRange),
              skips: try field.optionalInt64("skips", in: Alarm.instantRange),
              rampSeconds: Int(try field.optionalInt64("rampSeconds", in: Alarm.rampFileRange) ?? 0),
              ringingSince: try field.optionalInt64("ringingSince", in: Alarm.instantRange),
              rooms: try field.optionalRooms("rooms"))
    }

    // MARK: Schedule and sound

    private static func encode(_ schedule: AlarmSchedule) -> JSONValue {
        switch schedule {
        case .clockTime(let time, let repeatDays):
            .object(["clockTime": .object(["time": encode(time), "repeatDays": encode(repeatDays)])])
        case .date(let date, let time):
            .object(["date": .object(["date": encode(date), "time": encode(time)])])
        case .relative(let firesAt):
            .object(["relative": .object(["firesAt": .integer(firesAt)])])
        }
    }

    private static func decodeSchedule(_ field: Fields) throws(AlarmFileFormatError) -> AlarmSchedule {
        let (name, values) = try field.enumCase()
        switch name {
        case "clockTime":
            return .clockTime(time: try decodeTime(try values.nested("time")),
                              repeatDays: try decodeRepeatDays(try values.array("repeatDays")))
        case "date":
            return .date(date: try decodeDate(try values.nested("date")), time: try decodeTime(try values.nested("time")))
        case "relative":
            return .relative(firesAt: try values.int64("firesAt", in: Alarm.instantRange))
        default:
            throw AlarmFileFormatError("\(field.path) has unknown kind '\(name)'")
        }
    }

    private static func encode(_ sound: AlarmSound) -> JSONValue {
        switch sound {
        case .tone(let name): .object(["tone": .object(["name": .string(name)])])
        case .file(let path): .object(["file": .object(["path": .string(path)])])
        case .folder(let path): .object(["folder": .object(["path": .string(path)])])
        case .playlist(let path): .object(["playlist": .object(["path": .string(path)])])
        case .book(let path): .object(["book": .object(["path": .string(path)])])
        case .station(let url): .object(["station": .object(["url": .string(url)])])
        }
    }

    private static func decodeSound(_ field: Fields) throws(AlarmFileFormatError) -> AlarmSound {
        let (name, values) = try field.enumCase()
        switch name {
        case "tone": return .tone(name: try values.string("name"))
        case "file": return .file(path: try values.string("path"))
        case "folder": return .folder(path: try values.string("path"))
        case "playlist": return .playlist(path: try values.string("path"))
        case "book": return .book(path: try values.string("path"))
        case "station": return .station(url: try values.string("url"))
        default: throw AlarmFileFormatError("\(field.path) has unknown kind '\(name)'")
        }
    }

    // MARK: Dates and days

    private static func encode(_ time: LocalTime) -> JSONValue {
        .object(["hour": .integer(Int64(time.hour)), "minute": .integer(Int64(time.minute))])
    }

    private static func decodeTime(_ field: Fields) throws(AlarmFileFormatError) -> LocalTime {
        LocalTime(hour: try field.int("hour", in: CountRange(0...23)), minute: try field.int("minute", in: CountRange(0...59)))
    }

    private static func encode(_ date: LocalDate) -> JSONValue {
        .object(["year": .integer(Int64(date.year)), "month": .integer(Int64(date.month)), "day": .integer(Int64(date.day))])
    }

    private static func decodeDate(_ field: Fields) throws(AlarmFileFormatError) -> LocalDate {
        let date = LocalDate(year: try field.int("year", in: Alarm.yearRange), month: try field.int("month", in: CountRange(1...12)),
                             day: try field.int("day", in: CountRange(1...31)))
        guard date.isValid else { throw AlarmFileFormatError("\(field.path) is \(date), a day no calendar has") }
        return date
    }

    /// A list of day names in week order (Monday first).
    private static func encode(_ days: RepeatDays) -> JSONValue {
        .array(Weekday.allCases.filter(days.contains).map { .string($0.rawValue) })
    }

    private static func decodeRepeatDays(_ elements: [Fields]) throws(AlarmFileFormatError) -> RepeatDays {
        var days = Set<Weekday>()
        for element in elements {
            guard let name = element.value.stringValue, let day = Weekday(rawValue: name) else {
                throw AlarmFileFormatError("\(element.path) is not a day name (mon...sun)")
            }
            // The file writes each day once: a day twice is no set of days a program wrote.
            guard days.insert(day).inserted else { throw AlarmFileFormatError("\(element.path) is \(name) again") }
        }
        return RepeatDays(days)
    }
}
