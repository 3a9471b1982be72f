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

    private var known: [String: Stamp]
    private var seen: Set<String> = []

    public init(known: [String: Stamp]) { self.known = known }

    /// Called once per file found; a path found twice (through a symlinked
    /// folder) counts once: the second time it is unchanged.
    public mutating func observe(path: String, stamp: Stamp) -> Verdict {
        let first = seen.insert(path).inserted
        guard let old = known[path] else {
            known[path] = stamp
            return .new
        }
        if !first || old == stamp { return .unchanged }
        known[path] = stamp
        return .changed
    }

    /// The indexed paths no call to `observe` named: gone since the last scan.
    public var gone: [String] {
        known.keys.filter { !seen.contains($0) }.sorted()
    }
}
