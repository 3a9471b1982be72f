import InterludeCore
import SpokenAudio

/// The JSON of a book's state file, version 1:
///
///     { "version": 1, "path": "/books/Dune",
///       "position": { "milliseconds": 812345, "file": "03.mp3", "offsetMilliseconds": 12345 },
///       "speed": 1.25, "updated": 1764460800123, "durationMilliseconds": 3723000,
///       "nextBookmark": 3, "trimSilence": "medium", "voiceBoost": "-18", "timeSavedMilliseconds": 61234,
///       "bookmarks": [ { "id": 1, "milliseconds": 5000, "note": "map", "created": 1764460000000 } ] }
///
/// Instants are milliseconds since the Unix epoch.
public enum BookStateFormat {
    public static let currentVersion = 1

    /// Positions and lengths: exactly the places a book can have (`Book`
    /// leaves out files past its longest), so every place saves and loads.
    public static let positionRange = CountRange(0...Book.longestMilliseconds, unit: "milliseconds")
    /// Bookmark numbers, small enough to type.
    public static let bookmarkRange = CountRange(1...Int(Int32.max))
    /// Instants, milliseconds since 1970, up to the end of year 9999.
    public static let instantRange = CountRange(0...253_402_300_799_999, unit: "milliseconds since 1970")

    public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func encode(_ state: BookState) -> JSONValue {
        var position: [String: JSONValue] = ["milliseconds": .integer(Int64(state.positionMilliseconds))]
        if let fileName = state.fileName {
            position["file"] = .string(fileName)
            position["offsetMilliseconds"] = .integer(Int64(state.fileOffsetMilliseconds))
        }
        var document: [String: JSONValue] = [
            "version": .integer(Int64(currentVersion)),
            "position": .object(position),
            "speed": .double(state.speed),
            "updated": .integer(milliseconds(state.updated)),
            "nextBookmark": .integer(Int64(state.nextBookmarkID)),
            "bookmarks": .array(state.bookmarks.map { mark in
                var entry: [String: JSONValue] = [
                    "id": .integer(Int64(mark.id)),
                    "milliseconds": .integer(Int64(mark.positionMilliseconds)),
                    "created": .integer(milliseconds(mark.created)),
                ]
                if let note = mark.note { entry["note"] = .string(note) }
                return .object(entry)
            }),
        ]
        if let path = state.path { document["path"] = .string(path) }
        if let duration = state.durationMilliseconds { document["durationMilliseconds"] = .integer(Int64(duration)) }
        if let trim = state.trimSilence { document["trimSilence"] = .string(trim.rawValue) }
        if let boost = state.voiceBoost { document["voiceBoost"] = .string(boost.word) }
        if state.timeSavedMilliseconds > 0 { document["timeSavedMilliseconds"] = .integer(Int64(state.timeSavedMilliseconds)) }
        return .object(document)
    }

    public static func decode(_ json: JSONValue) throws(DecodeError) -> BookState {
        guard case .object = json else { throw DecodeError("the top level is not an object") }
        guard let version = json["version"]?.integerValue else { throw DecodeError("\"version\" is missing") }
        guard version == Int64(currentVersion) else {
            throw DecodeError("it has version \(version), this program reads version \(currentVersion)")
        }
        guard let position = json["position"], let milliseconds = position["milliseconds"]?.integerValue,
              positionRange.contains(milliseconds) else {
            throw DecodeError("\"position\" needs \"milliseconds\", \(positionRange.accepts)")
        }
        var fileName: String?
        var offset: Int64 = 0
        if let file = position["file"] {
            guard let name = file.stringValue, let value = position["offsetMilliseconds"]?.integerValue,
                  positionRange.contains(value) else {
                throw DecodeError("\"position\".\"file\" needs a name and \"offsetMilliseconds\", \(positionRange.accepts)")
            }
            fileName = name
            offset = value
        }
        let speed = json["speed"]?.doubleValue ?? BookState.defaultSpeed
        guard DecimalRange.playbackSpeed.contains(speed) else {
            throw DecodeError("\"speed\" \(speed) is not \(DecimalRange.playbackSpeed.accepts)")
        }
        guard let updated = json["updated"]?.integerValue else { throw DecodeError("\"updated\" is missing") }
        guard instantRange.contains(updated) else { throw DecodeError("\"updated\" is not \(instantRange.accepts)") }
        var bookmarks: [Bookmark] = []
        for (index, entry) in (json["bookmarks"]?.arrayValue ?? []).enumerated() {
            guard let id = entry["id"]?.integerValue, bookmarkRange.contains(id),
                  let at = entry["milliseconds"]?.integerValue, positionRange.contains(at),
                  let created = entry["created"]?.integerValue, instantRange.contains(created) else {
                throw DecodeError("bookmark \(index + 1) needs \"id\" (\(bookmarkRange.accepts)), \"milliseconds\" "
                                  + "(\(positionRange.accepts)) and \"created\" (\(instantRange.accepts))")
            }
            let note = entry["note"]
            guard note == nil || note?.stringValue != nil else { throw DecodeError("bookmark \(id): \"note\" is not text") }
            bookmarks.append(Bookmark(id: Int(id), positionMilliseconds: Int(at), note: note?.stringValue,
                                      created: instant(created)))
        }
        guard Set(bookmarks.map(\.id)).count == bookmarks.count else { throw DecodeError("two bookmarks share a number") }
        // Optional (files written before it existed have none).
        let duration = json["durationMilliseconds"]
        guard duration == nil || positionRange.contains(duration?.integerValue ?? -1) else {
            throw DecodeError("\"durationMilliseconds\" is not \(positionRange.accepts)")
        }
        let nextBookmark = json["nextBookmark"]?.integerValue
        guard nextBookmark == nil || bookmarkRange.contains(nextBookmark ?? 0) else {
            throw DecodeError("\"nextBookmark\" is not \(bookmarkRange.accepts)")
        }
        // Spoken audio's settings and the time saved: optional, each checked.
        var trim: TrimStrength?
        if let text = json["trimSilence"] {
            guard let word = text.stringValue, let strength = TrimStrength(rawValue: word) else {
                throw DecodeError("\"trimSilence\" is not \(TrimStrength.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            trim = strength
        }
        var boost: VoiceBoost?
        if let text = json["voiceBoost"] {
            guard let word = text.stringValue, word != "on", let value = VoiceBoost(parsing: word) else {
                throw DecodeError("\"voiceBoost\" is not \"off\" or a loudness from -24 to -12")
            }
            boost = value
        }
        let saved = json["timeSavedMilliseconds"]
        guard saved == nil || positionRange.contains(saved?.integerValue ?? -1) else {
            throw DecodeError("\"timeSavedMilliseconds\" is not \(positionRange.accepts)")
        }
        var state = BookState(positionMilliseconds: Int(milliseconds), fileName: fileName, fileOffsetMilliseconds: Int(offset),
                              speed: speed, bookmarks: bookmarks,
                              nextBookmarkID: nextBookmark.map { Int($0) },
                              updated: instant(updated), path: json["path"]?.stringValue,
                              durationMilliseconds: duration?.integerValue.map { Int($0) })
        state.trimSilence = trim
        state.voiceBoost = boost
        state.timeSavedMilliseconds = saved?.integerValue.map { Int($0) } ?? 0
        return state
    }

    static func milliseconds(_ instant: WallInstant) -> Int64 {
        let (seconds, attoseconds) = instant.sinceEpoch.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    static func instant(_ milliseconds: Int64) -> WallInstant {
        WallInstant(sinceEpoch: .milliseconds(milliseconds))
    }
}
