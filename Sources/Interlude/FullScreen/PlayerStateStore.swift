import Books
import InterludeCore

/// What the full-screen player keeps between runs (as cmus does): the queue,
/// the entry and position the listener was at, the volume and the theme,
/// and the book when a book played last (BookPlayer and Voice reopen it; its
/// place is in its own state file). Written atomically on quit and on
/// SIGTERM/SIGHUP; read at start-up when no file is given: the book comes
/// back, else the queue, paused where it was left.
struct SavedPlayerState: Equatable {
    var queue: [String]
    var index: Int
    var seconds: Double
    var volume: Double
    var theme: String?
    /// The book that played last (its folder or file); nil when music did.
    var book: String? = nil
}

/// `$XDG_STATE_HOME/interlude/player.json`. Two players (`--new`) may both
/// save it: each save takes the file's lock and keeps what the other saved
/// since this one read it (`save`).
final class PlayerStateStore {
    let file: StateFile
    /// The state as this player last read or wrote it: what another player
    /// changed since is told from it. Nil until one of them happened.
    private(set) var base: SavedPlayerState?

    /// A place within a queue entry: no longer than the longest book, which
    /// keeps its conversion to frames far from overflowing.
    static let positionRange = DurationRange(seconds: 0...Double(Book.longestMilliseconds) / 1000)

    init(directories: XDGDirectories) {
        file = StateFile(path: directories.interludeState + "/player.json")
    }

    private static let wording = StateFileWording(
        name: "player state", fallback: "starting with an empty queue",
        fallbackAfterSettingAside: "started with an empty queue")

    /// The saved state, or nil; a file that cannot be used (not JSON, or
    /// holding values no player writes) is named in `problem` and set aside,
    /// so the next save starts clean.
    func load() -> (state: SavedPlayerState?, problem: String?) {
        let loaded = file.load(Self.wording, now: SystemClock().wallNow) { bytes throws(StateFileDamage) in
            try Self.decode(bytes)
        }
        base = loaded.value
        return (loaded.value, loaded.problem)
    }

    /// Saves `state` under the file's lock. What another player saved since
    /// this one last read or wrote the file is kept where this one changed
    /// nothing (the place in the queue, the volume and the theme are each one
    /// field; of a field both changed, the last saved wins), so nothing stale
    /// is written back. A player that never read the file writes its state whole.
    func save(_ state: SavedPlayerState) throws(StateFileError) {
        let bytes = try bytes(of: state)
        let written: Result<SavedPlayerState, StateFileError> = try file.locked {
            var merged = state
            if let base, let onDisk = try? file.read(), let theirs = try? Self.decode(onDisk) {
                merged = Self.merge(state, since: base, over: theirs)
            }
            do throws(StateFileError) {
                try file.writeAtomically(merged == state ? bytes : try self.bytes(of: merged))
            } catch {
                return .failure(error)
            }
            return .success(merged)
        }
        base = try written.get()
    }

    /// At the end of a run in which a book played last: the book is saved as
    /// what played last; the queue saved before (or read at start) stays.
    func saveBookPlayedLast(_ path: String, volume: Double, theme: String?) throws(StateFileError) {
        // Read first when this run has not: the queue saved by an earlier run is kept, not written over.
        if base == nil { _ = load() }
        var state = base ?? SavedPlayerState(queue: [], index: 0, seconds: 0, volume: volume, theme: theme)
        state.book = path
        state.volume = volume
        state.theme = theme
        try save(state)
    }

    /// Field by field (`StateMerge.field`): the queue with its entry and place is one, the book another.
    static func merge(_ mine: SavedPlayerState, since base: SavedPlayerState, over theirs: SavedPlayerState) -> SavedPlayerState {
        struct Place: Equatable {
            var queue: [String]
            var index: Int
            var seconds: Double
        }
        func place(_ state: SavedPlayerState) -> Place { Place(queue: state.queue, index: state.index, seconds: state.seconds) }
        let merged = StateMerge.field(place(base), mine: place(mine), theirs: place(theirs))
        return SavedPlayerState(queue: merged.queue, index: merged.index, seconds: merged.seconds,
                                volume: StateMerge.field(base.volume, mine: mine.volume, theirs: theirs.volume),
                                theme: StateMerge.field(base.theme, mine: mine.theme, theirs: theirs.theme),
                                book: StateMerge.field(base.book, mine: mine.book, theirs: theirs.book))
    }

    /// The file's bytes; a state that `decode` would refuse is not written
    /// (it would be set aside at the next start).
    private func bytes(of state: SavedPlayerState) throws(StateFileError) -> [UInt8] {
        let json = Self.encode(state)
        do throws(StateFileDamage) { _ = try Self.decode(json) } catch {
            throw StateFileError(path: file.path, operation: "save", systemMessage: "\(error.reason), which it would not read back")
        }
        return Array(JSONWriter().prettyPrinted(json).utf8) + [0x0A]
    }

    static func encode(_ state: SavedPlayerState) -> JSONValue {
        var members: [String: JSONValue] = [
            "queue": .array(state.queue.map(JSONValue.string)),
            "index": .integer(Int64(state.index)),
            "position": .double(state.seconds),
            "volume": .double(state.volume),
        ]
        if let theme = state.theme { members["theme"] = .string(theme) }
        if let book = state.book { members["book"] = .string(book) }
        return .object(members)
    }

    static func decode(_ bytes: [UInt8]) throws(StateFileDamage) -> SavedPlayerState {
        let json: JSONValue
        do throws(JSONParseError) { json = try JSONParser.parse(bytes) } catch {
            throw StateFileDamage(bytes.isEmpty ? "it is empty" : "it is not valid JSON (\(error.description))")
        }
        return try decode(json)
    }

    /// The state, or why the file cannot be one: every value in the range a
    /// player writes, checked before anything converts it (a position of
    /// 1e300 seconds would trap where it becomes frames).
    static func decode(_ json: JSONValue) throws(StateFileDamage) -> SavedPlayerState {
        guard let entries = json["queue"]?.arrayValue, let index = json["index"]?.integerValue,
              let seconds = json["position"]?.doubleValue else {
            throw StateFileDamage("it does not hold a queue, an index and a position")
        }
        let queue = entries.compactMap(\.stringValue)
        guard queue.count == entries.count else { throw StateFileDamage("its queue holds something that is not a path") }
        let indexRange = CountRange(0...max(0, queue.count - 1))
        guard let entry = indexRange.checked(index) else {
            throw StateFileDamage("its index \(index) is not \(indexRange.accepts) (the queue has \(queue.count) entries)")
        }
        guard positionRange.contains(seconds) else {
            throw StateFileDamage("its position \(seconds) s is not a place from 0 to \(Book.longestMilliseconds / 3_600_000) h")
        }
        let volume = json["volume"]?.doubleValue ?? 1
        guard json["volume"] == nil || json["volume"]?.doubleValue != nil, DecimalRange.volume.contains(volume) else {
            throw StateFileDamage("its volume is not \(DecimalRange.volume.accepts)")
        }
        let theme = json["theme"]
        guard theme == nil || theme?.stringValue != nil else { throw StateFileDamage("its theme is not a name") }
        let book = json["book"]
        guard book == nil || book?.stringValue?.hasPrefix("/") == true else { throw StateFileDamage("its book is not a whole path") }
        return SavedPlayerState(queue: queue, index: entry, seconds: seconds, volume: volume, theme: theme?.stringValue,
                                book: book?.stringValue)
    }
}
