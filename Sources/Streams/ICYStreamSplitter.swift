/// A stream with ICY metadata interleaved, split back into audio and blocks:
/// `metaint` bytes of audio, one length byte (the block's size in 16-byte
/// units, so 0-4080 bytes), the block, and again. Chunks arrive as the network
/// delivers them, so a block or the length byte may straddle two chunks.
///
/// Pure bookkeeping over bytes: no allocation beyond the block being
/// gathered (at most 4080 bytes), no number from the stream used unchecked.
public struct ICYStreamSplitter: Sendable {
    /// What one pushed chunk held, in stream order.
    public enum Piece: Equatable, Sendable {
        case audio(ArraySlice<UInt8>)
        /// A non-empty block; an empty one (length byte 0, "no change") gives nothing.
        case metadata(ICYMetadata)
    }

    /// How the stream stood when it ended.
    public enum End: Equatable, Sendable {
        /// Between pieces, or inside the audio.
        case clean
        /// Inside a block: `received` of its `expected` bytes came (the length byte itself counts as 0).
        case blockCutShort(received: Int, expected: Int)
    }

    public let metaint: Int
    private var audioLeft: Int
    private var blockExpected: Int?
    private var block: [UInt8] = []

    /// Nil for a `metaint` outside `ICYHeaders.metaintRange`.
    public init?(metaint: Int) {
        guard ICYHeaders.metaintRange.contains(metaint) else { return nil }
        self.metaint = metaint
        audioLeft = metaint
    }

    public mutating func push(_ chunk: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var index = chunk.startIndex
        while index < chunk.endIndex {
            if let expected = blockExpected {
                let take = min(expected - block.count, chunk.endIndex - index)
                block += chunk[index..<(index + take)]
                index += take
                if block.count == expected {
                    let metadata = ICYMetadata.parse(block)
                    if !metadata.fields.isEmpty { pieces.append(.metadata(metadata)) }
                    block.removeAll(keepingCapacity: true)
                    blockExpected = nil
                    audioLeft = metaint
                }
            } else if audioLeft == 0 {
                // The length byte: 0...255 units of 16, so at most 4080, never more.
                let expected = Int(chunk[index]) * 16
                index += 1
                if expected == 0 { audioLeft = metaint } else { blockExpected = expected }
            } else {
                let take = min(audioLeft, chunk.endIndex - index)
                pieces.append(.audio(chunk[index..<(index + take)]))
                index += take
                audioLeft -= take
            }
        }
        return pieces
    }

    /// Where the stream stopped, once the connection has ended.
    public var end: End {
        guard let expected = blockExpected else { return .clean }
        return .blockCutShort(received: block.count, expected: expected)
    }
}
