import InterludeCore

/// What the full-screen player keeps between runs (as cmus does): the queue,
/// the entry and position the listener was at, the volume and the theme.
/// Written atomically on quit and on SIGTERM/SIGHUP; read at start-up when no
/// file is given, and the queue comes back paused where it was left.
struct SavedPlayerState: Equatable {
    var queue: [String]
    var index: Int
    var seconds: Double
    var volume: Double
    var theme: String?
}

struct PlayerStateStore {
    let file: StateFile

    init(directories: XDGDirectories) {
        file = StateFile(path: directories.interludeState + "/player.json")
    }

    /// The saved state, or nil; a file that cannot be used is named in
    /// `problem` and set aside, so the next save starts clean.
    func load() -> (state: SavedPlayerState?, problem: String?) {
        let bytes: [UInt8]?
        do { bytes = try file.read() } catch { return (nil, error.description) }
        guard let bytes else { return (nil, nil) }
        let reason: String
        do throws(JSONParseError) {
            let json = try JSONParser.parse(bytes)
            if let state = Self.decode(json) { return (state, nil) }
            reason = "it does not hold a queue, an index and a position"
        } catch {
            reason = "it is not valid JSON (\(error.description))"
        }
        let aside = (try? file.setAside(suffix: ".corrupt")) ?? file.path
        return (nil, "player state \(file.path) could not be read: \(reason); moved it to \(aside), starting with an empty queue")
    }

    func save(_ state: SavedPlayerState) throws(StateFileError) {
        let text = JSONWriter().prettyPrinted(Self.encode(state))
        try file.writeAtomically(Array(text.utf8) + [0x0A])
    }

    static func encode(_ state: SavedPlayerState) -> JSONValue {
        var members: [String: JSONValue] = [
            "queue": .array(state.queue.map(JSONValue.string)),
            "index": .integer(Int64(state.index)),
            "position": .double(state.seconds),
            "volume": .double(state.volume),
        ]
        if let theme = state.theme { members["theme"] = .string(theme) }
        return .object(members)
    }

    static func decode(_ json: JSONValue) -> SavedPlayerState? {
        guard let queue = json["queue"]?.arrayValue?.compactMap(\.stringValue),
              let index = json["index"]?.integerValue, index >= 0, Int(index) < max(1, queue.count),
              let seconds = json["position"]?.doubleValue, seconds.isFinite, seconds >= 0 else { return nil }
        let volume = json["volume"]?.doubleValue.map { min(1, max(0, $0)) } ?? 1
        return SavedPlayerState(queue: queue, index: Int(index), seconds: seconds, volume: volume,
                                theme: json["theme"]?.stringValue)
    }
}
