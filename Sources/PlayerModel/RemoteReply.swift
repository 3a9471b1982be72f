import AudioSession
import InterludeCore

/// The control socket's replies, one line each: `{"id":7,"ok":true}`,
/// `{"id":7,"ok":true,"message":"..."}`, `{"id":7,"ok":false,"error":"..."}`,
/// or with a `result` object (status, lists). Event lines never carry `ok`,
/// replies never carry `event`, so a subscriber tells them apart.
public enum RemoteReply {
    /// A result worded for a client, which has no keys: a refusal names none.
    public static func line(id: RemoteID, _ result: CommandResult) -> String {
        switch result {
        case .done(let report?): "{\"id\":\(id.json),\"ok\":true,\"message\":\(JSONWriter().quoted(report.sentence))}"
        case .done(nil): "{\"id\":\(id.json),\"ok\":true}"
        case .refused(let reason): failure(id: id, reason.sentence())
        }
    }

    public static func failure(id: RemoteID, _ message: String) -> String {
        "{\"id\":\(id.json),\"ok\":false,\"error\":\(JSONWriter().quoted(message))}"
    }

    public static func result(id: RemoteID, _ value: JSONValue) -> String {
        "{\"id\":\(id.json),\"ok\":true,\"result\":\(compact(value))}"
    }

    /// One-line JSON with sorted keys (`JSONWriter` indents, for files).
    public static func compact(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number):
            guard number.isFinite else { return "null" }
            return number.rounded() == number && abs(number) < 9.0e15 ? String(Int64(number)) : number.description
        case .string(let text): return JSONWriter().quoted(text)
        case .array(let elements): return "[" + elements.map(compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONWriter().quoted($0) + ":" + compact(members[$0]!) }
                .joined(separator: ",") + "}"
        }
    }

    /// `status`: what the screen shows, as data, and with `engine` what the
    /// playback engine itself reports (`EngineReport`).
    public static func status(_ snapshot: PlayerSnapshot, engine: EngineReport? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "state": .string(snapshot.state.rawValue),
            "title": .string(snapshot.title),
            "artist": .string(snapshot.artist),
            "album": .string(snapshot.album),
            "elapsed": .double((snapshot.elapsed * 1000).rounded() / 1000),
            "duration": snapshot.duration.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
            "volume": .double(snapshot.volume),
            "muted": .bool(snapshot.mutedFrom != nil),
            "speed": .string(snapshot.speed ?? "1.00x"),
            "queueIndex": snapshot.currentIndex.map { .integer(Int64($0)) } ?? .null,
            "queueLength": .integer(Int64(snapshot.queue.count)),
            "alarmRinging": .bool(snapshot.alarmRinging),
            "callActive": .bool(snapshot.callActive),
            "suspended": .bool(snapshot.sessionSuspended),
            "interruption": snapshot.session.interruption.map { .string(interrupterName($0.source)) } ?? .null,
        ]
        if let level = snapshot.mutedFrom { members["unmutedVolume"] = .double(level) }
        if let engine { members["engine"] = engine.json }
        if let behind = snapshot.behindLive {
            members["behindLive"] = .double((behind * 1000).rounded() / 1000)
            members["timeShift"] = .string(snapshot.timeShiftLine ?? "")
        }
        if snapshot.state == .playing || snapshot.state == .paused || snapshot.state == .interrupted,
           let index = snapshot.currentIndex, snapshot.queue.indices.contains(index) {
            members["path"] = .string(snapshot.queue[index].path)
        }
        if let spoken = snapshot.spokenAudio {
            var fields: [String: JSONValue] = [
                "trimSilence": .string(spoken.trimSilence), "voiceBoost": .string(spoken.voiceBoost),
                "timeSaved": .double((spoken.timeSaved * 1000).rounded() / 1000),
            ]
            if let book = spoken.bookTimeSaved { fields["bookTimeSaved"] = .double((book * 1000).rounded() / 1000) }
            if let total = spoken.totalTimeSaved { fields["totalTimeSaved"] = .double((total * 1000).rounded() / 1000) }
            members["spokenAudio"] = .object(fields)
        }
        if let book = snapshot.book {
            members["book"] = .object([
                "path": .string(book.path), "title": .string(book.title),
                "chapter": .integer(Int64(book.currentChapter + 1)), "chapters": .integer(Int64(book.chapters.count)),
                "chapterTitle": .string(book.chapters.indices.contains(book.currentChapter) ? book.chapters[book.currentChapter].title : ""),
            ])
        }
        return .object(members)
    }

    /// "alarm", "call", "suspension", "outputDeviceLost".
    static func interrupterName(_ source: InterruptionSource) -> String {
        switch source {
        case .session(_, let priorityClass): priorityClass.rawValue
        case .suspension: "suspension"
        case .outputDeviceLost: "outputDeviceLost"
        }
    }

    public static func queue(_ snapshot: PlayerSnapshot) -> JSONValue {
        .array(snapshot.queue.enumerated().map { index, entry in
            .object(["index": .integer(Int64(index)), "path": .string(entry.path), "title": .string(entry.title),
                     "current": .bool(index == snapshot.currentIndex)])
        })
    }

    /// `station list`: numbered from 1, as the radio pane and `station play N` count.
    public static func stations(_ rows: [StationRow]) -> JSONValue {
        .array(rows.enumerated().map { index, station in
            .object(["number": .integer(Int64(index + 1)), "name": .string(station.name), "url": .string(station.url)])
        })
    }

    public static func alarms(_ snapshot: PlayerSnapshot) -> JSONValue {
        .array(snapshot.alarms.map { row in
            .object(["id": .integer(Int64(row.id)), "label": .string(row.label), "nextFire": .string(row.nextFire),
                     "schedule": .string(row.schedule), "enabled": .bool(row.isEnabled), "ringing": .bool(row.isRinging),
                     "wake": .string(row.wake)])
        })
    }
}
