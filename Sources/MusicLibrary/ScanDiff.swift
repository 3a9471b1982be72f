/// What a rescan does with each file it finds, against what the index
/// holds: read the new and the changed (size or modification time differs),
/// leave the rest, and afterwards drop what was not found.
public struct ScanDiff: Sendable {
    public struct Stamp: Equatable, Sendable {
        public let size: Int64
        public let modifiedNanoseconds: Int64
        public init(size: Int64, modifiedNanoseconds: Int64) {
            self.size = size
            self.modifiedNanoseconds = modifiedNanoseconds
        }
    }

    public enum Verdict: Equatable, Sendable {
        case new, changed, unchanged
    }

    /// Each path's stamp (nil until found, for a path the index did not
    /// hold) and whether this scan found it: one dictionary, so a file found
    /// costs one hash of its path (String hashing normalizes, and a first
    /// scan hashed every path three times).
    private struct Entry {
        var stamp: Stamp?
        var seen = false

        mutating func observe(_ found: Stamp) -> Verdict {
            if seen { return .unchanged }
            seen = true
            let old = stamp
            stamp = found
            guard let old else { return .new }
            return old == found ? .unchanged : .changed
        }
    }

    private var known: [String: Entry]

    public init(known: [String: Stamp]) { self.known = known.mapValues { Entry(stamp: $0) } }

    /// Called once per file found; a path found twice (through a symlinked
    /// folder) counts once: the second time it is unchanged.
    public mutating func observe(path: String, stamp: Stamp) -> Verdict {
        known[path, default: Entry()].observe(stamp)
    }

    /// The indexed paths no call to `observe` named: gone since the last scan.
    public var gone: [String] {
        known.compactMap { $0.value.seen ? nil : $0.key }.sorted()
    }
}
