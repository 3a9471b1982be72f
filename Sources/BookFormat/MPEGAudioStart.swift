/// Whether a file starts as MPEG audio, which is what libmpg123 is given:
/// a frame header at its start, or after the ID3v2 tags before it (a few
/// files carry two), with a little padding tolerated, and the next frame's
/// header where the first one says it is. Padding: zero bytes (taggers pad
/// past the size they declare), or less than a frame of other bytes (a
/// stream recorded from its middle starts with a frame's tail), which must
/// then be followed by a run of `junkChain` frames. Never a sync found
/// further on: libmpg123 itself resyncs up to megabytes into a file, and so
/// decoded a mono AIFF as two minutes of stereo noise from false syncs in
/// its PCM.
public enum MPEGAudioStart {
    /// Zero bytes skipped before the first frame.
    static let paddingLimit = 4096
    /// ID3v2 tags skipped one after another.
    static let tagLimit = 4
    /// Frames in a row, each where the one before says, after other bytes.
    static let junkChain = 4

    /// The file at `path`, whose first bytes `head` holds, and `block` the
    /// bytes at an offset past them (after a long ID3v2 tag) when the caller
    /// read those too; the file is read only for what neither holds.
    public static func isMPEGAudio(path: String, head: [UInt8], block: (offset: Int, bytes: [UInt8])? = nil) -> Bool {
        let file = TagFile(path: path, head: head)
        return isMPEGAudio { offset, count in
            if let block, offset >= block.offset, count <= block.offset + block.bytes.count - offset {
                let start = offset - block.offset
                return Array(block.bytes[start..<start + count])
            }
            return file.bytes(at: offset, count: count)
        }
    }

    /// `read(offset, count)`: up to `count` of the file's bytes at `offset`,
    /// fewer at its end. Asked for little at a time (the padding in blocks,
    /// then a header's four bytes at each frame), so a file whose first frames
    /// lie in the head already read is not read again.
    public static func isMPEGAudio(_ read: (Int, Int) -> [UInt8]) -> Bool {
        var offset = 0
        for _ in 0..<tagLimit {
            guard let length = id3v2Length(read(offset, 10)) else { break }
            offset += length
        }
        // The first byte that is not zero padding.
        var start: Int?
        for block in stride(from: 0, to: paddingLimit, by: 512) {
            let bytes = read(offset + block, 512)
            if let index = bytes.firstIndex(where: { $0 != 0 }) {
                start = offset + block + index
                break
            }
            if bytes.count < 512 { return false }
        }
        guard let start else { return false }
        if chain(from: start, frames: 2, read) { return true }
        // Less than a frame of other bytes, then a longer run of frames.
        let junk = read(start, MPEGFrameHeader.maximumLength + 3)
        for skip in 1..<max(1, junk.count - 3) where MPEGFrameHeader(junk, at: skip) != nil {
            if chain(from: start + skip, frames: junkChain, read) { return true }
        }
        return false
    }

    /// Whether `frames` frame headers follow one another from `start`, each
    /// of the same stream; a run that reaches the end of the file counts as
    /// whole (a file of one frame, or the last cut short).
    static func chain(from start: Int, frames: Int, _ read: (Int, Int) -> [UInt8]) -> Bool {
        guard let first = MPEGFrameHeader(read(start, 4), at: 0) else { return false }
        var at = start + first.frameLength
        for _ in 1..<frames {
            let bytes = read(at, 4)
            if bytes.count < 4 { return true }
            guard let next = MPEGFrameHeader(bytes, at: 0), first.continues(with: next) else { return false }
            at += next.frameLength
        }
        return true
    }

    /// The length of the ID3v2 tag these ten bytes start (header, body, footer);
    /// nil where they are not an ID3v2 header.
    public static func id3v2Length(_ header: [UInt8]) -> Int? {
        guard header.count == 10, header.starts(with: "ID3".utf8), header[3] < 0xFF, header[4] < 0xFF,
              header[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = header[6..<10].reduce(0) { $0 << 7 | Int($1) }
        return 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
    }
}
