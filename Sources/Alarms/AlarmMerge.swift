import InterludeCore

extension AlarmStore.Contents {
    /// What a writer holds (`self`), merged over what the file holds now
    /// (`theirs`), keeping what other processes changed since this writer's
    /// `base` (`StateMerge`'s rules): an alarm added elsewhere stays, one
    /// removed elsewhere stays removed, and an alarm changed in both takes
    /// each field this writer changed and the file's others (the same field
    /// changed in both: this writer's, the last to write). An alarm this
    /// writer added under an id the file gave another meanwhile is numbered
    /// anew, after both; `renumbered` says how.
    public func merged(since base: Self, over theirs: Self) -> (contents: Self, renumbered: [AlarmID: AlarmID]) {
        let records = StateMerge.records(base: base.alarms, mine: alarms, theirs: theirs.alarms, id: \.id) { base, mine, theirs in
            mine.merged(since: base, over: theirs)
        }
        var contents = Self(alarms: records.merged, nextID: Swift.max(nextID, theirs.nextID))
        let highest = contents.alarms.map(\.id.rawValue).max() ?? 0
        contents.nextID = Swift.max(contents.nextID, highest + 1)
        var renumbered: [AlarmID: AlarmID] = [:]
        for alarm in records.collided {
            let id = contents.allocateID()
            renumbered[alarm.id] = id
            contents.alarms.append(alarm.withID(id))
        }
        return (contents, renumbered)
    }
}

extension Alarm {
    /// Field by field: this writer's value where it changed it since `base`, else the file's.
    func merged(since base: Alarm, over theirs: Alarm) -> Alarm {
        func pick<Value: Equatable>(_ field: KeyPath<Alarm, Value>) -> Value {
            StateMerge.field(base[keyPath: field], mine: self[keyPath: field], theirs: theirs[keyPath: field])
        }
        return Alarm(id: id, schedule: pick(\.schedule), label: pick(\.label), isEnabled: pick(\.isEnabled),
                     sound: pick(\.sound), volume: pick(\.volume), ringTimeoutSeconds: pick(\.ringTimeoutSeconds),
                     snoozeMinutes: pick(\.snoozeMinutes), handledThrough: pick(\.handledThrough),
                     snoozedUntil: pick(\.snoozedUntil), skips: pick(\.skips), rampSeconds: pick(\.rampSeconds),
                     ringingSince: pick(\.ringingSince), rooms: pick(\.rooms))
    }

    func withID(_ id: AlarmID) -> Alarm {
        Alarm(id: id, schedule: schedule, label: label, isEnabled: isEnabled, sound: sound, volume: volume,
              ringTimeoutSeconds: ringTimeoutSeconds, snoozeMinutes: snoozeMinutes, handledThrough: handledThrough,
              snoozedUntil: snoozedUntil, skips: skips, rampSeconds: rampSeconds, ringingSince: ringingSince, rooms: rooms)
    }
}
