/// Song ids as MPD gives them: one per queue entry for as long as the entry
/// stays, a new one for each entry added, and the playlist's version, which
/// grows with every change (`plchanges`). The player's queue is read after
/// each command and event; the entries that stay in place keep their ids.
public struct MPDQueueIDs: Sendable {
    public private(set) var paths: [String] = []
    public private(set) var ids: [Int] = []
    /// The version each entry last changed in (for `plchanges`).
    public private(set) var changedIn: [Int] = []
    /// Each entry's lines of a song reply once written (empty before), kept
    /// with the entry as its id is: `playlistinfo` over 10,000 entries wrote
    /// each one's path and tags anew, in more time than MPD's whole answer.
    public private(set) var songLines: [[UInt8]] = []
    /// MPD starts a fresh queue at version 1 and makes it 2 with the first change... and so on.
    public private(set) var version = 1
    private var nextID = 1

    public init() {}

    /// Reads the queue now; true when it changed. An entry that moved (a
    /// path the queue held before, elsewhere now) keeps its id, as MPD's
    /// `move` keeps it, and counts as changed in this version.
    @discardableResult
    public mutating func update(_ queue: [String]) -> Bool {
        guard queue != paths else { return false }
        version = version >= Int(Int32.max) ? 1 : version + 1
        var newIDs = [Int](repeating: 0, count: queue.count)
        var newChanged = [Int](repeating: version, count: queue.count)
        var newLines = [[UInt8]](repeating: [], count: queue.count)
        var unclaimed: [String: [Int]] = [:]
        for (index, path) in paths.enumerated() {
            if index < queue.count && queue[index] == path {
                newIDs[index] = ids[index]
                newChanged[index] = changedIn[index]
                newLines[index] = songLines[index]
            } else {
                unclaimed[path, default: []].append(index)
            }
        }
        for (index, path) in queue.enumerated() where newIDs[index] == 0 {
            if var old = unclaimed[path], !old.isEmpty {
                let from = old.removeFirst()
                newIDs[index] = ids[from]
                newLines[index] = songLines[from]
                unclaimed[path] = old
            } else {
                newIDs[index] = nextID
                nextID = nextID >= Int(Int32.max) ? 1 : nextID + 1
            }
        }
        ids = newIDs
        changedIn = newChanged
        songLines = newLines
        paths = queue
        return true
    }

    /// Keeps the entry at `index`'s song lines (nothing when there is no such entry).
    public mutating func keep(songLines lines: [UInt8], at index: Int) {
        guard songLines.indices.contains(index) else { return }
        songLines[index] = lines
    }

    public func position(ofID id: Int) -> Int? { ids.firstIndex(of: id) }

    /// The positions changed after `version` (all of them for a version from another run).
    public func changed(since: Int) -> [Int] {
        guard since <= version else { return Array(paths.indices) }
        return paths.indices.filter { changedIn[$0] > since }
    }
}
