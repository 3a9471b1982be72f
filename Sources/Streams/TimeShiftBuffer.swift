import InterludeCore

/// The time-shift buffer's bookkeeping: a bounded timeline of what a live
/// stream sent, so that a pause of any cause resumes at the frame the
/// listener stopped hearing (design.md 4.1). Pure: the bytes are the
/// station's (encoded, about 16 KB/s at 128 kbit/s, where decoded PCM would
/// be 176 KB/s), each chunk labelled with the frames it decodes to; the
/// player decodes a chunk from its start and drops the frames before the
/// resume point.
///
/// Frames are counted from the start of the stream (0) at the engine's
/// output rate, so a station that changes its format mid-way keeps one
/// timeline. Newer chunks go to memory while `memoryBudgetBytes` allows, then
/// to the spill; when the span from the oldest frame to the live edge would
/// pass the limit, the oldest chunks go, and a resume point among them moves
/// forward to the new oldest frame, said in one line.
public struct TimeShiftBuffer {
    public struct Chunk: Equatable, Sendable {
        public var startFrame: Int
        public var frames: Int
        public var bytes: [UInt8]
    }

    /// What an append changed beyond the append itself.
    public enum Note: Equatable, Sendable {
        /// The buffer was full: the oldest `droppedFrames` went, and the resume
        /// point (which was among them) moved forward by `resumeMovedFrames`.
        case resumePointMoved(droppedFrames: Int, resumeMovedFrames: Int, line: String)
    }

    public let sampleRate: Int
    public let limitFrames: Int
    public let memoryBudgetBytes: Int

    /// The frame after the newest received: the live edge.
    public private(set) var liveFrame = 0
    /// The resume point: the next frame the listener will hear.
    public private(set) var resumeFrame = 0
    /// Bytes held in memory now.
    public private(set) var memoryBytes = 0

    private let spill: any TimeShiftSpill
    private var spillEnd = 0
    private var memory = TimeShiftMemory()
    private var chunks: [Stored] = []
    /// Chunks before this index have been dropped (compacted now and then, so a drop is O(1)).
    private var head = 0

    /// 32 bytes a chunk (an AAC station sends 43 a second).
    private struct Stored {
        var startFrame: Int
        /// In `memory`, else in the spill.
        var offset: Int
        var frames: Int32
        var byteCount: Int32
        var inMemory: Bool
    }

    /// 8 kHz to 384 kHz.
    public static let sampleRates = 8_000...384_000
    /// One second to ten hours.
    public static let limits = Duration.seconds(1)...Duration.seconds(36_000)
    /// The most one chunk may say it decodes to (about 22 s at 48 kHz) and hold.
    public static let chunkFrames = 1...1_048_576
    public static let chunkBytes = 1...16_777_216

    /// Nil when the rate or the limit is out of range, or the budget is negative.
    public init?(limit: Duration, sampleRate: Int, memoryBudgetBytes: Int, spill: any TimeShiftSpill) {
        guard Self.sampleRates.contains(sampleRate), Self.limits.contains(limit), memoryBudgetBytes >= 0 else { return nil }
        self.sampleRate = sampleRate
        // Within the ranges above: at most 36,000 * 384,000, far inside Int.
        limitFrames = Int(limit.components.seconds) * sampleRate
        self.memoryBudgetBytes = memoryBudgetBytes
        self.spill = spill
    }

    /// The oldest frame still held (the live edge when nothing is).
    public var oldestFrame: Int { head < chunks.count ? chunks[head].startFrame : liveFrame }
    /// Frames from the resume point to the live edge.
    public var framesBehindLive: Int { liveFrame - resumeFrame }
    public var heldFrames: Int { liveFrame - oldestFrame }
    public var chunkCount: Int { chunks.count - head }
    /// "live", or "1:05 behind live".
    public var behindLiveLine: String {
        framesBehindLive == 0 ? "live" : "\(clockText(Double(framesBehindLive) / Double(sampleRate))) behind live"
    }

    /// Adds what the station sent next. Returns a note when the limit dropped
    /// audio from under the resume point; throws when the spill cannot take
    /// the chunk (nothing is added then).
    @discardableResult
    public mutating func append(_ bytes: [UInt8], frames: Int) throws(TimeShiftBufferError) -> Note? {
        guard Self.chunkFrames.contains(frames) else { throw .chunkOutOfRange("a chunk of \(frames) frames; from 1 to \(Self.chunkFrames.upperBound)") }
        guard Self.chunkBytes.contains(bytes.count) else { throw .chunkOutOfRange("a chunk of \(bytes.count) bytes; from 1 to \(Self.chunkBytes.upperBound)") }
        let stored: Stored
        // Memory the limit frees once this chunk is in counts already: a full
        // buffer keeps its newest audio in memory, not in the spill.
        // (Both counts are within `chunkFrames` and `chunkBytes`, far inside Int32.)
        if memoryBytes - memoryFreed(byLiveEdge: liveFrame + frames) + bytes.count <= memoryBudgetBytes {
            stored = Stored(startFrame: liveFrame, offset: memory.append(bytes), frames: Int32(frames),
                            byteCount: Int32(bytes.count), inMemory: true)
            memoryBytes += bytes.count
        } else {
            do { try spill.write(bytes, at: spillEnd) } catch { throw .spill(error) }
            stored = Stored(startFrame: liveFrame, offset: spillEnd, frames: Int32(frames), byteCount: Int32(bytes.count), inMemory: false)
            spillEnd += bytes.count
        }
        chunks.append(stored)
        liveFrame += frames
        return enforceLimit()
    }

    /// The listener heard `frames` more (the engine's heard position moved).
    public mutating func heard(_ frames: Int) {
        guard frames > 0 else { return }
        resumeFrame += min(frames, framesBehindLive)
    }

    public mutating func jumpToLive() { resumeFrame = liveFrame }

    /// Moves the resume point to `frame`, kept within what is held; returns where it went.
    @discardableResult
    public mutating func seek(to frame: Int) -> Int {
        resumeFrame = min(max(frame, oldestFrame), liveFrame)
        return resumeFrame
    }

    /// Moves the resume point by `delta` frames (negative: back), within what is held.
    @discardableResult
    public mutating func seek(by delta: Int) -> Int {
        let (target, overflow) = resumeFrame.addingReportingOverflow(delta)
        return seek(to: overflow ? (delta < 0 ? Int.min : Int.max) : target)
    }

    /// The chunk that holds `frame`, with its bytes (read back from the spill
    /// when it is there); nil when the frame is not held.
    public func chunk(containing frame: Int) throws(TimeShiftBufferError) -> Chunk? {
        guard frame >= oldestFrame, frame < liveFrame else { return nil }
        // The last chunk whose start is at or before `frame`.
        var low = head, high = chunks.count - 1
        while low < high {
            let middle = low + (high - low + 1) / 2
            if chunks[middle].startFrame <= frame { low = middle } else { high = middle - 1 }
        }
        let stored = chunks[low]
        guard !stored.inMemory else {
            // Always held: what is in memory is released only with its chunk's drop.
            guard let bytes = memory.read(at: stored.offset, count: Int(stored.byteCount)) else { return nil }
            return Chunk(startFrame: stored.startFrame, frames: Int(stored.frames), bytes: bytes)
        }
        do {
            return Chunk(startFrame: stored.startFrame, frames: Int(stored.frames),
                         bytes: try spill.read(at: stored.offset, count: Int(stored.byteCount)))
        } catch { throw .spill(error) }
    }

    private func memoryFreed(byLiveEdge edge: Int) -> Int {
        var freed = 0
        var index = head
        while index < chunks.count, edge - chunks[index].startFrame > limitFrames {
            if chunks[index].inMemory { freed += Int(chunks[index].byteCount) }
            index += 1
        }
        return freed
    }

    private mutating func enforceLimit() -> Note? {
        let oldestBefore = oldestFrame
        while head < chunks.count, liveFrame - chunks[head].startFrame > limitFrames {
            let dropped = chunks[head]
            if dropped.inMemory {
                memoryBytes -= Int(dropped.byteCount)
                memory.release(before: dropped.offset + Int(dropped.byteCount))
            } else {
                spill.release(before: dropped.offset + Int(dropped.byteCount))
            }
            head += 1
        }
        if head > 64 && head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        let dropped = oldestFrame - oldestBefore
        guard resumeFrame < oldestFrame else { return nil }
        let moved = oldestFrame - resumeFrame
        resumeFrame = oldestFrame
        let seconds = clockText(Double(moved) / Double(sampleRate))
        return .resumePointMoved(droppedFrames: dropped, resumeMovedFrames: moved,
                                 line: "the time-shift buffer is full: the oldest audio went and the resume point moved forward by \(seconds)")
    }
}

public enum TimeShiftBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    case chunkOutOfRange(String)
    case spill(TimeShiftSpillError)

    public var description: String {
        switch self {
        case .chunkOutOfRange(let what): return "the time-shift buffer refused \(what)"
        case .spill(let error): return "the time-shift buffer's file: \(error.description)"
        }
    }
}
