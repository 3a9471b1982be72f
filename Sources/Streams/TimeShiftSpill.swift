/// Where the time-shift buffer keeps what does not fit in its memory budget:
/// in the player, a private file (0600) under `$XDG_CACHE_HOME/interlude/`;
/// in tests, an array that counts the calls. The buffer writes each chunk
/// once, at the end of what it wrote before, reads chunks back whole, and
/// says when a stretch at the start is no longer needed.
public protocol TimeShiftSpill: AnyObject {
    /// Writes `bytes` at `offset`, which is always where the previous write ended.
    func write(_ bytes: [UInt8], at offset: Int) throws(TimeShiftSpillError)
    func read(at offset: Int, count: Int) throws(TimeShiftSpillError) -> [UInt8]
    /// Nothing before `offset` will be read again (a file may punch the hole).
    func release(before offset: Int)
}

/// The spill's failure in one sentence, with the path: "cannot write PATH: No space left on device".
public struct TimeShiftSpillError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A spill in memory, for tests and for a buffer told to keep everything in memory.
public final class MemoryTimeShiftSpill: TimeShiftSpill {
    public private(set) var storage: [UInt8] = []
    /// Bytes released at the start (kept as zeros here; a file would free them).
    public private(set) var releasedBefore = 0
    public private(set) var writeCount = 0
    public private(set) var readCount = 0
    /// When set, the next write fails with it (a full disk).
    public var failNextWrite: TimeShiftSpillError?

    public init() {}

    public func write(_ bytes: [UInt8], at offset: Int) throws(TimeShiftSpillError) {
        if let failure = failNextWrite {
            failNextWrite = nil
            throw failure
        }
        guard offset == storage.count else { throw TimeShiftSpillError("write at \(offset), the end is \(storage.count)") }
        storage += bytes
        writeCount += 1
    }

    public func read(at offset: Int, count: Int) throws(TimeShiftSpillError) -> [UInt8] {
        guard offset >= releasedBefore, count >= 0, offset <= storage.count, count <= storage.count - offset else {
            throw TimeShiftSpillError("read of \(count) bytes at \(offset) outside \(releasedBefore)..<\(storage.count)")
        }
        readCount += 1
        return Array(storage[offset..<(offset + count)])
    }

    public func release(before offset: Int) {
        let end = min(max(offset, releasedBefore), storage.count)
        for index in releasedBefore..<end { storage[index] = 0 }
        releasedBefore = end
    }
}
