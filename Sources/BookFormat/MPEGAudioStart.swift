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

    /// The file at `path`, whose first bytes `head` holds (read past them only
    /// where an ID3v2 tag is longer).
    public static func isMPEGAudio(path: String, head: [UInt8]) -> Bool {
        let file = TagFile(path: path, head: head)
        return isMPEGAudio { file.bytes(at: $0, count: $1) }
    }

    /// `read(offset, count)`: up to `count` of the file's bytes at `offset`,
    /// fewer at its end.
    public static func isMPEGAudio(_ read: (Int, Int) -> [UInt8]) -> Bool {
        var offset = 0
        for _ in 0..<tagLimit {
            guard let length = id3v2Length(read(offset, 10)) else { break }
            offset += length
        }
        let wanted = paddingLimit + (junkChain + 1) * MPEGFrameHeader.maximumLength + 4
        let window = read(offset, wanted)
        let atEnd = window.count < wanted
        guard let start = window.prefix(paddingLimit).firstIndex(where: { $0 != 0 }) else { return false }
        if chain(in: window, from: start, frames: 2, atEnd: atEnd) { return true }
        // Less than a frame of other bytes, then a longer run of frames.
        for junk in 1..<MPEGFrameHeader.maximumLength where chain(in: window, from: start + junk, frames: junkChain, atEnd: atEnd) {
            return true
        }
        return false
    }

    /// Whether `frames` frame headers follow one another from `start`, each
    /// of the same stream; a run that reaches the end of a file (`atEnd`)
    /// counts as whole.
    static func chain(in window: [UInt8], from start: Int, frames: Int, atEnd: Bool) -> Bool {
        guard let first = MPEGFrameHeader(window, at: start) else { return false }
        var at = start + first.frameLength
        for _ in 1..<frames {
            if atEnd && at > window.count - 4 { return true }
            guard let next = MPEGFrameHeader(window, at: at), first.continues(with: next) else { return false }
            at += next.frameLength
        }
        return true
    }

    /// The length of the ID3v2 tag these ten bytes start (header, body, footer);
    /// nil where they are not an ID3v2 header.
    static func id3v2Length(_ header: [UInt8]) -> Int? {
        guard header.count == 10, header.starts(with: "ID3".utf8), header[3] < 0xFF, header[4] < 0xFF,
              header[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = header[6..<10].reduce(0) { $0 << 7 | Int($1) }
        return 10 + size + (header[5] & 0x10 != 0 ? 10 : 0)
    }
}
