/// The part of the time-shift buffer kept in memory: the chunks' bytes end to
/// end, in blocks of `blockBytes`, each reserved when the first byte reaches
/// it and freed when everything in it is released. Like the spill, it is
/// written only at its end and released only from its start, so offsets are
/// counted from the first byte ever written.
///
/// Kept as an array per chunk, each packet (186 bytes for a 64 kbit/s AAC
/// station, 43 a second) cost its array's header and the heap's rounding
/// besides: the reader's heap grew 17.7 KB a second, now 15.7 (the rest is
/// the 8 KB the station sends, the chunks' index and libavformat's).
struct TimeShiftMemory {
    static let blockBytes = 65_536

    /// `blocks[0]` holds the offsets from `firstBlock * blockBytes` on.
    private var blocks: [[UInt8]] = []
    private var firstBlock = 0
    /// The offset after the last byte written.
    private(set) var end = 0
    /// Bytes before this offset are released.
    private(set) var start = 0
    /// Blocks reserved now (`blockBytes` each).
    var blockCount: Int { blocks.count }

    /// Adds `bytes` at `end`; returns the offset they start at.
    mutating func append(_ bytes: [UInt8]) -> Int {
        let offset = end
        var written = 0
        while written < bytes.count {
            let inBlock = end % Self.blockBytes
            if inBlock == 0 {
                var block: [UInt8] = []
                block.reserveCapacity(Self.blockBytes)
                if blocks.isEmpty { firstBlock = end / Self.blockBytes }
                blocks.append(block)
            }
            let run = min(bytes.count - written, Self.blockBytes - inBlock)
            blocks[blocks.count - 1].append(contentsOf: bytes[written..<(written + run)])
            written += run
            end += run
        }
        return offset
    }

    /// The `count` bytes from `offset`; nil unless they are all held.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0, offset >= start, offset <= end, count <= end - offset else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var position = offset
        while position < offset + count {
            let block = blocks[position / Self.blockBytes - firstBlock]
            let inBlock = position % Self.blockBytes
            let run = min(offset + count - position, Self.blockBytes - inBlock)
            bytes.append(contentsOf: block[inBlock..<(inBlock + run)])
            position += run
        }
        return bytes
    }

    /// Nothing before `offset` is read again: the blocks wholly before it are freed.
    mutating func release(before offset: Int) {
        start = min(max(start, offset), end)
        // The block being written holds `end`, which is at or after `start`:
        // it stays unless it is full.
        let whole = min(max(0, start / Self.blockBytes - firstBlock), blocks.count)
        guard whole > 0 else { return }
        blocks.removeFirst(whole)
        firstBlock += whole
    }
}
