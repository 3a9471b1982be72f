/// How the frame-size fields of a run of frames are written. ID3v2.3 uses
/// plain big-endian integers and ID3v2.4 syncsafe ones, but iTunes (and
/// others copying it) wrote 2.4 tags with plain sizes. Taken literally, such a
/// size is wrong as soon as a frame is 128 bytes or longer, and the walk
/// loses its place in the tag.
enum FrameSizeEncoding: Equatable, Sendable {
    case bigEndian
    case syncsafe

    func decode(_ bytes: ArraySlice<UInt8>) -> Int {
        switch self {
        case .bigEndian: return bytes.reduce(0) { ($0 << 8) | Int($1) }
        case .syncsafe: return SyncsafeInteger.decodeIgnoringHighBits(bytes)
        }
    }

    /// The encoding a run of frames in a tag of this version uses. For 2.4 it
    /// walks the frame headers both ways (as mutagen and TagLib do) and keeps
    /// the reading that lands on more well-formed frame IDs and ends exactly
    /// at the end of the data or at padding; on a tie the spec's syncsafe
    /// wins. The two readings differ only once a frame reaches 128 bytes.
    static func detect(majorVersion: UInt8, frames: ArraySlice<UInt8>) -> FrameSizeEncoding {
        guard majorVersion == 4 else { return .bigEndian }
        let asSyncsafe = walk(frames, .syncsafe)
        let asBigEndian = walk(frames, .bigEndian)
        if asBigEndian.endsCleanly != asSyncsafe.endsCleanly {
            return asBigEndian.endsCleanly ? .bigEndian : .syncsafe
        }
        return asBigEndian.validFrames > asSyncsafe.validFrames ? .bigEndian : .syncsafe
    }

    /// Follows the size fields from frame to frame without reading bodies:
    /// linear in the number of frames, each step at least 10 bytes.
    private static func walk(_ frames: ArraySlice<UInt8>, _ encoding: FrameSizeEncoding)
        -> (validFrames: Int, endsCleanly: Bool)
    {
        var offset = frames.startIndex
        var valid = 0
        while frames.endIndex - offset >= ID3v2FrameHeader.length {
            if frames[offset] == 0 {
                return (valid, true)  // padding
            }
            guard ID3v2FrameHeader.isValidID(frames[offset..<(offset + 4)]) else {
                return (valid, false)
            }
            let size = encoding.decode(frames[(offset + 4)..<(offset + 8)])
            valid += 1
            offset += ID3v2FrameHeader.length + size
        }
        // A short remainder is fine only if it is padding.
        let ends = offset <= frames.endIndex && frames[min(offset, frames.endIndex)...].allSatisfy { $0 == 0 }
        return (valid, ends)
    }
}
