import Streams
import Testing

@Suite struct TimeShiftBufferTests {
    /// A second of a 128 kbit/s stream: 16,000 bytes decoding to 44,100 frames, in
    /// chunks of a tenth of a second (each chunk's bytes say its number).
    static let rate = 44_100
    static let chunkFrames = 4_410
    static func chunk(_ number: Int) -> [UInt8] { [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: 1_600) }

    func make(limitSeconds: Int = 120, memory: Int = 1_000_000, spill: MemoryTimeShiftSpill = MemoryTimeShiftSpill()) throws -> TimeShiftBuffer {
        try #require(TimeShiftBuffer(limit: .seconds(limitSeconds), sampleRate: Self.rate, memoryBudgetBytes: memory, spill: spill))
    }

    func receive(_ buffer: inout TimeShiftBuffer, seconds: Int, from first: Int = 0) throws -> [TimeShiftBuffer.Note] {
        var notes: [TimeShiftBuffer.Note] = []
        for number in first..<(first + seconds * 10) {
            if let note = try buffer.append(Self.chunk(number), frames: Self.chunkFrames) { notes.append(note) }
        }
        return notes
    }

    @Test func whilePausedTheResumePointStaysAndTheLiveEdgeMoves() throws {
        var buffer = try make()
        _ = try receive(&buffer, seconds: 5)
        buffer.heard(5 * Self.rate)
        #expect(buffer.resumeFrame == 5 * Self.rate && buffer.behindLiveLine == "live")
        // Paused: nothing is heard for 65 s while the station goes on.
        _ = try receive(&buffer, seconds: 65, from: 50)
        #expect(buffer.resumeFrame == 5 * Self.rate)
        #expect(buffer.framesBehindLive == 65 * Self.rate)
        #expect(buffer.behindLiveLine == "1:05 behind live")
        // The resume decodes the chunk holding the resume point, which is chunk 50.
        let resume = try #require(try buffer.chunk(containing: buffer.resumeFrame))
        #expect(resume.startFrame == buffer.resumeFrame && resume.bytes == Self.chunk(50))
    }

    @Test func theResumePointIsAFrameInsideAChunk() throws {
        var buffer = try make()
        _ = try receive(&buffer, seconds: 2)
        buffer.seek(to: 0)
        buffer.heard(12_345)
        let chunk = try #require(try buffer.chunk(containing: buffer.resumeFrame))
        #expect(chunk.startFrame == 2 * Self.chunkFrames)
        #expect(buffer.resumeFrame - chunk.startFrame == 12_345 - 2 * Self.chunkFrames)
        #expect(chunk.bytes == Self.chunk(2))
    }

    @Test func jumpToLiveAndSeekBackWithinTheBuffer() throws {
        var buffer = try make()
        _ = try receive(&buffer, seconds: 30)
        buffer.jumpToLive()
        #expect(buffer.framesBehindLive == 0)
        #expect(buffer.seek(by: -10 * Self.rate) == 20 * Self.rate)
        #expect(buffer.behindLiveLine == "0:10 behind live")
        // Past the oldest frame or the live edge the seek stops there.
        #expect(buffer.seek(by: -3600 * Self.rate) == 0)
        #expect(buffer.seek(by: Int.max) == buffer.liveFrame)
        #expect(buffer.seek(by: Int.min) == buffer.oldestFrame)
        #expect(buffer.seek(to: -5) == 0)
        // Hearing more than is held stops at the live edge.
        buffer.heard(Int.max)
        #expect(buffer.resumeFrame == buffer.liveFrame)
    }

    /// Acceptance 4's limit, as bookkeeping: a 2-minute buffer and a 3-minute pause.
    @Test func aFullBufferDropsTheOldestAndMovesTheResumePointForwardWithALine() throws {
        var buffer = try make(limitSeconds: 120)
        _ = try receive(&buffer, seconds: 10)
        buffer.heard(10 * Self.rate)
        let pausedAt = buffer.resumeFrame
        var notes = try receive(&buffer, seconds: 180, from: 100)
        // The span held never passes the limit.
        #expect(buffer.heldFrames <= buffer.limitFrames)
        #expect(buffer.heldFrames == 120 * Self.rate)
        #expect(buffer.oldestFrame == 70 * Self.rate)
        #expect(buffer.resumeFrame == buffer.oldestFrame)
        // One note per chunk dropped from under the resume point, each saying how far it moved;
        // together the resume point moved by the minute the pause went past the limit.
        let moved = notes.reduce(0) { total, note in
            guard case .resumePointMoved(_, let frames, _) = note else { return total }
            return total + frames
        }
        #expect(moved == buffer.resumeFrame - pausedAt)
        #expect(moved == 60 * Self.rate)
        guard case .resumePointMoved(let dropped, let frames, let line) = try #require(notes.first) else { return }
        #expect(dropped == Self.chunkFrames && frames == Self.chunkFrames)
        #expect(line == "the time-shift buffer is full: the oldest audio went and the resume point moved forward by 0:00")
        notes.removeAll()
        // Audio that goes while the listener is at the live edge moves nothing.
        buffer.jumpToLive()
        #expect(try receive(&buffer, seconds: 30, from: 2000).isEmpty)
    }

    @Test func theLineSaysHowFarInOneAppendOfALongChunk() throws {
        var buffer = try make(limitSeconds: 10)
        _ = try buffer.append([1], frames: 5 * Self.rate)
        _ = try buffer.append([2], frames: 5 * Self.rate)
        let note = try buffer.append([3], frames: 5 * Self.rate)
        #expect(note == .resumePointMoved(droppedFrames: 5 * Self.rate, resumeMovedFrames: 5 * Self.rate,
                                          line: "the time-shift buffer is full: the oldest audio went and the resume point moved forward by 0:05"))
    }

    @Test func memoryFirstThenTheSpill() throws {
        let spill = MemoryTimeShiftSpill()
        // Room in memory for ten seconds (100 chunks of 1,600 bytes).
        var buffer = try make(limitSeconds: 60, memory: 160_000, spill: spill)
        _ = try receive(&buffer, seconds: 10)
        #expect(spill.writeCount == 0 && buffer.memoryBytes == 160_000)
        _ = try receive(&buffer, seconds: 20, from: 100)
        #expect(buffer.memoryBytes == 160_000)
        #expect(spill.writeCount == 200 && spill.storage.count == 320_000)
        // A chunk in the spill is read back from it, whole.
        let spilled = try #require(try buffer.chunk(containing: 15 * Self.rate))
        #expect(spilled.bytes == Self.chunk(150) && spill.readCount == 1)
        let inMemory = try #require(try buffer.chunk(containing: 5 * Self.rate))
        #expect(inMemory.bytes == Self.chunk(50) && spill.readCount == 1)
        // Past the limit the memory's chunks go first, and memory takes new ones again.
        _ = try receive(&buffer, seconds: 40, from: 300)
        #expect(buffer.oldestFrame == 10 * Self.rate)
        #expect(buffer.memoryBytes == 160_000)
        // The spill's dropped stretch is released: its chunks are not read again.
        _ = try receive(&buffer, seconds: 20, from: 700)
        #expect(spill.releasedBefore > 0)
        #expect(try buffer.chunk(containing: buffer.oldestFrame) != nil)
        #expect(try buffer.chunk(containing: buffer.oldestFrame - 1) == nil)
        #expect(try buffer.chunk(containing: buffer.liveFrame) == nil)
    }

    @Test func aSpillThatFailsAddsNothingAndSaysWhy() throws {
        let spill = MemoryTimeShiftSpill()
        var buffer = try make(memory: 0, spill: spill)
        _ = try receive(&buffer, seconds: 1)
        spill.failNextWrite = TimeShiftSpillError("cannot write /cache/timeshift: No space left on device")
        #expect(throws: TimeShiftBufferError.spill(TimeShiftSpillError("cannot write /cache/timeshift: No space left on device"))) {
            try buffer.append(Self.chunk(10), frames: Self.chunkFrames)
        }
        #expect(buffer.liveFrame == Self.rate)
        // The next chunk goes on where the spill's last good write ended.
        try buffer.append(Self.chunk(11), frames: Self.chunkFrames)
        #expect(try buffer.chunk(containing: Self.rate)?.bytes == Self.chunk(11))
    }

    @Test func numbersOutOfRangeAreRefusedNotTrapped() throws {
        var buffer = try make()
        for frames in [0, -1, Int.min, Int.max, 2_000_000] {
            #expect(throws: TimeShiftBufferError.self) { try buffer.append([1], frames: frames) }
        }
        #expect(throws: TimeShiftBufferError.self) { try buffer.append([], frames: 10) }
        #expect(buffer.liveFrame == 0)
        buffer.heard(-5)
        buffer.heard(Int.min)
        #expect(buffer.resumeFrame == 0)
        let spill = MemoryTimeShiftSpill()
        #expect(TimeShiftBuffer(limit: .seconds(60), sampleRate: 0, memoryBudgetBytes: 0, spill: spill) == nil)
        #expect(TimeShiftBuffer(limit: .seconds(60), sampleRate: Int.max, memoryBudgetBytes: 0, spill: spill) == nil)
        #expect(TimeShiftBuffer(limit: .seconds(-1), sampleRate: 44_100, memoryBudgetBytes: 0, spill: spill) == nil)
        #expect(TimeShiftBuffer(limit: .seconds(Int64.max), sampleRate: 44_100, memoryBudgetBytes: 0, spill: spill) == nil)
        #expect(TimeShiftBuffer(limit: .seconds(60), sampleRate: 44_100, memoryBudgetBytes: -1, spill: spill) == nil)
        // The default, 30 minutes at 48 kHz.
        #expect(TimeShiftBuffer(limit: .seconds(1800), sampleRate: 48_000, memoryBudgetBytes: 0, spill: spill)?.limitFrames == 86_400_000)
    }

    @Test func manyHoursOfStreamKeepTheBookkeepingSmall() throws {
        var buffer = try make(limitSeconds: 60, memory: 10_000_000)
        for number in 0..<(6 * 3600 * 10) {
            _ = try buffer.append([UInt8(truncatingIfNeeded: number)], frames: Self.chunkFrames)
            if number % 10 == 0 { buffer.heard(Self.rate) }
        }
        #expect(buffer.chunkCount == 600)
        #expect(buffer.memoryBytes == 600)
        #expect(buffer.liveFrame == 6 * 3600 * Self.rate)
    }
}
