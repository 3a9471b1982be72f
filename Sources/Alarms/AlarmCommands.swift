import InterludeCore

/// What `interlude alarm ...` does, apart from scanning arguments: each
/// function validates everything first and saves only when all is well, so a
/// rejected request leaves the alarm file untouched.
public struct AlarmCommands {
    /// The values of `alarm add`, as typed.
    public struct AddRequest: Sendable, Equatable {
        public var when: [String]
        public var label: String?
        public var repeatDays: String?
        public var sound: String?
        public var snoozeMinutes: String?
        public var ringSeconds: String?
        public var ramp: String?
        /// `--rooms kitchen,bedroom`: the Snapcast rooms it rings in.
        public var rooms: String?

        public init(when: [String], label: String? = nil, repeatDays: String? = nil, sound: String? = nil,
                    snoozeMinutes: String? = nil, ringSeconds: String? = nil, ramp: String? = nil, rooms: String? = nil) {
            self.when = when
            self.label = label
            self.repeatDays = repeatDays
            self.sound = sound
            self.snoozeMinutes = snoozeMinutes
            self.ringSeconds = ringSeconds
            self.ramp = ramp
            self.rooms = rooms
        }
    }

    /// Text for stdout, and warnings (a damaged file set aside) for stderr.
    public struct Output: Sendable, Equatable {
        public var standardOutput: String
        public var warnings: [String]
    }

    public let store: AlarmStore
    public let now: WallInstant
    public let zone: ZonedTime
    public let fileExists: (String) -> Bool

    public init(store: AlarmStore, now: WallInstant, timeZone: TimeZoneRules, fileExists: @escaping (String) -> Bool) {
        self.store = store
        self.now = now
        self.zone = ZonedTime(timeZone: timeZone)
        self.fileExists = fileExists
    }

    private var calculator: NextFireCalculator { NextFireCalculator(zone: zone) }
    private var format: AlarmTimeFormat { AlarmTimeFormat(zone: zone) }

    public func add(_ request: AddRequest) throws(AlarmCommandError) -> Output {
        var schedule = try AlarmInputParser.parseWhen(request.when, now: now, zone: zone)
        if let text = request.repeatDays {
            let days = try AlarmInputParser.parseRepeat(text)
            guard case .clockTime(let time, _) = schedule else {
                throw AlarmCommandError("alarm add: --repeat \(text) only applies to an HH:MM alarm")
            }
            schedule = .clockTime(time: time, repeatDays: days)
        }
        let sound = try request.sound.map { text throws(AlarmCommandError) in try AlarmInputParser.parseSound(text, fileExists: fileExists) }
        let snooze = try request.snoozeMinutes.map { text throws(AlarmCommandError) in try AlarmInputParser.parseSnoozeMinutes(text) }
        let ring = try request.ringSeconds.map { text throws(AlarmCommandError) in try AlarmInputParser.parseRingSeconds(text) }
        let ramp = try request.ramp.map { text throws(AlarmCommandError) in try AlarmInputParser.parseRamp(text) }
        let label = try AlarmInputParser.parseLabel(request.label ?? "")
        let rooms = try request.rooms.map { text throws(AlarmCommandError) in
            guard let names = Alarm.rooms(parsing: text) else {
                throw AlarmCommandError("alarm add: invalid --rooms '\(text)': up to \(Alarm.roomLimit) names separated by commas, "
                                        + "each 1-\(Alarm.roomNameLimit) bytes")
            }
            return names
        }

        var added: Alarm?
        let warnings = try update { contents in
            var alarm = Alarm(id: contents.allocateID(), schedule: schedule, label: label,
                              handledThrough: now.secondsSince1970)
            if let sound { alarm.sound = sound }
            if let snooze { alarm.snoozeMinutes = snooze }
            if let ring { alarm.ringTimeoutSeconds = ring }
            if let ramp { alarm.rampSeconds = ramp }
            if let rooms { alarm.rooms = rooms }
            contents.alarms.append(alarm)
            added = alarm
        }
        let alarm = added!
        let next = calculator.nextFire(of: schedule, after: alarm.handledThrough).map(format.table) ?? "never"
        return Output(standardOutput: "alarm \(alarm.id) added, next at \(next)\n", warnings: warnings)
    }

    public func list(json: Bool) throws(AlarmCommandError) -> Output {
        let (contents, warnings) = load()
        let alarms = contents.alarms.sorted { $0.id < $1.id }
        if json { return Output(standardOutput: listJSON(alarms), warnings: warnings) }
        let header = ["ID", "TIME", "REPEAT", "LABEL", "ENABLED", "NEXT"]
        let rows = alarms.map { alarm in
            [alarm.id.description, format.scheduleTime(alarm.schedule), format.repeatText(alarm.schedule),
             alarm.label, alarm.isEnabled ? "yes" : "no", nextText(alarm)]
        }
        guard !rows.isEmpty else { return Output(standardOutput: "no alarms (add one with 'interlude alarm add 07:30')\n", warnings: warnings) }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let lines = ([header] + rows).map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }.joined(separator: "  ")
        }
        return Output(standardOutput: lines.joined(separator: "\n") + "\n", warnings: warnings)
    }

    public func remove(_ idText: String?) throws(AlarmCommandError) -> Output {
        let id = try AlarmInputParser.parseID(idText, command: "rm")
        let warnings = try update { contents throws(AlarmCommandError) in
            guard contents.alarms.contains(where: { $0.id == id }) else {
                throw AlarmCommandError("alarm rm: no alarm with id \(id)", isBadInput: false)
            }
            contents.alarms.removeAll { $0.id == id }
        }
        return Output(standardOutput: "alarm \(id) removed\n", warnings: warnings)
    }

    public func setEnabled(_ idText: String?, _ enabled: Bool) throws(AlarmCommandError) -> Output {
        let command = enabled ? "enable" : "disable"
        let id = try AlarmInputParser.parseID(idText, command: command)
        var changed: Alarm?
        let warnings = try update { contents throws(AlarmCommandError) in
            guard let index = contents.alarms.firstIndex(where: { $0.id == id }) else {
                throw AlarmCommandError("alarm \(command): no alarm with id \(id)", isBadInput: false)
            }
            if enabled && !contents.alarms[index].isEnabled {
                // Occurrences while it was disabled are not missed.
                contents.alarms[index].handledThrough = now.secondsSince1970
            }
            contents.alarms[index].isEnabled = enabled
            if !enabled { contents.alarms[index].snoozedUntil = nil }
            changed = contents.alarms[index]
        }
        let next = changed.flatMap(nextFire).map { ", next at " + format.table($0) } ?? ""
        return Output(standardOutput: "alarm \(id) \(command)d\(next)\n", warnings: warnings)
    }

    /// Skips the next regular ring of a repeating alarm; the one after rings.
    public func skip(_ idText: String?) throws(AlarmCommandError) -> Output {
        let id = try AlarmInputParser.parseID(idText, command: "skip")
        var skipped: Alarm?
        let warnings = try update { contents throws(AlarmCommandError) in
            guard let index = contents.alarms.firstIndex(where: { $0.id == id }) else {
                throw AlarmCommandError("alarm skip: no alarm with id \(id)", isBadInput: false)
            }
            guard contents.alarms[index].skipNext(calculator, now: now.secondsSince1970) != nil else {
                let why = contents.alarms[index].isEnabled ? "rings once (remove it instead)" : "is disabled"
                throw AlarmCommandError("alarm skip: alarm \(id) \(why)", isBadInput: false)
            }
            skipped = contents.alarms[index]
        }
        let skips = skipped?.skips.map(format.dayAndTime) ?? ""
        let next = skipped.flatMap(nextFire).map { ", next at " + format.table($0) } ?? ""
        return Output(standardOutput: "alarm \(id) skips \(skips)\(next)\n", warnings: warnings)
    }

    /// The NEXT column: when it rings, and the ring it skips.
    private func nextText(_ alarm: Alarm) -> String {
        let next = nextFire(alarm).map(format.table) ?? "-"
        guard let skips = pendingSkip(alarm) else { return next }
        return next + " (skips " + format.dayAndTime(skips) + ")"
    }

    /// The skipped ring while it is still ahead.
    private func pendingSkip(_ alarm: Alarm) -> Int64? {
        guard alarm.isEnabled, let skips = alarm.skips, skips > now.secondsSince1970 else { return nil }
        return skips
    }

    private func nextFire(_ alarm: Alarm) -> Int64? {
        guard alarm.isEnabled else { return nil }
        let regular = calculator.nextFire(of: alarm.schedule, after: max(alarm.handledThrough, now.secondsSince1970 - 1))
        return [alarm.snoozedUntil, regular].compactMap { $0 }.min()
    }

    private func load() -> (AlarmStore.Contents, [String]) {
        let result = store.load(now: now)
        return (result.contents, result.problem.map { [$0] } ?? [])
    }

    /// Read, change, save under the alarm file's lock (`AlarmStore.update`), so
    /// that a running player's save and this one cannot overwrite each other;
    /// the player picks the change up from the file. Returns the warnings (a
    /// damaged file set aside); a rejected change saves nothing.
    private func update(_ change: (inout AlarmStore.Contents) throws(AlarmCommandError) -> Void) throws(AlarmCommandError) -> [String] {
        let result: (contents: AlarmStore.Contents, problem: String?, failure: AlarmCommandError?)
        do {
            result = try store.update(now: now, change)
        } catch {
            throw AlarmCommandError("alarms not saved: \(error.description)", isBadInput: false)
        }
        if let failure = result.failure { throw failure }
        return result.problem.map { [$0] } ?? []
    }

    /// One object per alarm, keys sorted; `nextFire` is left out when it never rings.
    private func listJSON(_ alarms: [Alarm]) -> String {
        let listed: [JSONValue] = alarms.map { alarm in
            var members: [String: JSONValue] = [
                "id": .integer(Int64(alarm.id.rawValue)),
                "time": .string(format.scheduleTime(alarm.schedule)),
                "repeat": .string(format.repeatText(alarm.schedule)),
                "label": .string(alarm.label),
                "enabled": .bool(alarm.isEnabled),
                "sound": .string(alarm.sound.description),
                "volume": .double(alarm.volume),
                "snoozeMinutes": .integer(Int64(alarm.snoozeMinutes)),
                "ringSeconds": .integer(Int64(alarm.ringTimeoutSeconds)),
                "rampSeconds": .integer(Int64(alarm.rampSeconds)),
            ]
            if let next = nextFire(alarm) { members["nextFire"] = .string(format.iso8601(next)) }
            if let skips = pendingSkip(alarm) { members["skips"] = .string(format.iso8601(skips)) }
            if !alarm.rooms.isEmpty { members["rooms"] = .array(alarm.rooms.map { .string($0) }) }
            return .object(members)
        }
        return JSONWriter(escapesSlashes: false).prettyPrinted(.array(listed)) + "\n"
    }
}
