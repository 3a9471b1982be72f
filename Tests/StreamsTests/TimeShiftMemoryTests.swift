@testable import Streams
import Testing

/// The time-shift buffer's memory: chunks end to end in 64 KiB blocks, read
/// back whole across a block's end, and freed a block at a time from the start.
struct TimeShiftMemoryTests {
    /// `count` bytes that say their own offsets (mod 251, so no block boundary lines up with the pattern).
    private func bytes(from offset: Int, count: Int) -> [UInt8] {
        (offset..<offset + count).map { UInt8($0 % 251) }
    }

    @Test func chunksComeBackWholeAcrossBlocks() throws {
        var memory = TimeShiftMemory()
        var offsets: [(offset: Int, count: Int)] = []
        // 700 chunks of 186 to 1,301 bytes: about 8 blocks, many chunks split by a block's end.
        for index in 0..<700 {
            let count = 186 + (index * 389) % 1_116
            let offset = memory.append(bytes(from: memory.end, count: count))
            offsets.append((offset, count))
        }
        #expect(memory.blockCount == (memory.end + TimeShiftMemory.blockBytes - 1) / TimeShiftMemory.blockBytes)
        for (offset, count) in offsets {
            #expect(memory.read(at: offset, count: count) == bytes(from: offset, count: count))
        }
        #expect(memory.read(at: memory.end - 10, count: 11) == nil)
    }

    @Test func releaseFreesWholeBlocksOnly() {
        var memory = TimeShiftMemory()
        let block = TimeShiftMemory.blockBytes
        _ = memory.append(bytes(from: 0, count: block * 3 + 100))
        #expect(memory.blockCount == 4)
        memory.release(before: block - 1)
        #expect(memory.blockCount == 4)
        #expect(memory.read(at: block - 2, count: 2) == nil)
        #expect(memory.read(at: block - 1, count: 2) == bytes(from: block - 1, count: 2))
        memory.release(before: block * 2 + 5)
        #expect(memory.blockCount == 2)
        #expect(memory.read(at: block * 2 + 5, count: block + 95) == bytes(from: block * 2 + 5, count: block + 95))
        // Everything released: the block being written stays while it has room.
        memory.release(before: memory.end)
        #expect(memory.blockCount == 1)
        // Filled to the block's end, then all released: none is left.
        let next = memory.append(bytes(from: memory.end, count: block - 100))
        #expect(next == block * 3 + 100 && memory.end == block * 4)
        #expect(memory.read(at: next, count: block - 100) == bytes(from: next, count: block - 100))
        memory.release(before: memory.end)
        #expect(memory.blockCount == 0)
        let after = memory.append(bytes(from: memory.end, count: 10))
        #expect(memory.read(at: after, count: 10) == bytes(from: after, count: 10))
        #expect(memory.blockCount == 1)
    }
}
