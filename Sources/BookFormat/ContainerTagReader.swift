import Glibc
import InterludeCore

/// Title, artist and album from the tags of the formats beyond MP3, read
/// without a decoding library: a FLAC's or an Ogg stream's Vorbis comments
/// and an MP4's `ilst` atoms. The folder browser lists a folder's files with
/// their titles, and opening FFmpeg's libraries for that (25 MB resident, and
/// a demuxer per file) would cost more than the listing is worth.
///
/// Reads only what it needs: a FLAC's metadata blocks and an MP4's boxes are
/// walked by their headers (a cover picture or a sample table is skipped, not
/// read); an Ogg stream's comment packet is read from its first pages. Every
/// length is checked against what was read, so damage gives no tags, never a
/// crash; invalid UTF-8 becomes U+FFFD.
public struct ContainerTags: Equatable, Sendable {
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
    }

    /// The tags of the file at `path` (FLAC, Ogg Vorbis or Opus, MP4/M4A/M4B);
    /// nil for another format, a file it cannot read, or one without tags.
    public static func read(path: String) -> ContainerTags? {
        guard let file = try? SystemCall.retrying({ open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { close(file) }
        let head = bytes(file, at: 0, count: 12)
        if head.starts(with: "fLaC".utf8) { return flac(file) }
        if head.starts(with: "OggS".utf8) { return ogg(bytes(file, at: 0, count: oggLimit)) }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) { return mp4(file) }
        return nil
    }

    /// How far into an Ogg stream the comment packet is looked for: comments
    /// come right after the identification header, but may carry a picture.
    static let oggLimit = 1 << 20
    /// The largest comment block or `udta` box read.
    static let blockLimit = 1 << 20

    // MARK: Vorbis comments

    /// A Vorbis comment block: vendor string, then `count` entries of
    /// "NAME=value", each length-prefixed (32-bit little-endian).
    public static func vorbisComments(_ bytes: ArraySlice<UInt8>) -> ContainerTags? {
        var cursor = bytes.startIndex
        func u32() -> Int? {
            guard bytes.endIndex - cursor >= 4 else { return nil }
            let value = (0..<4).reduce(0) { $0 | Int(bytes[cursor + $1]) << (8 * $1) }
            cursor += 4
            return value
        }
        guard let vendor = u32(), bytes.endIndex - cursor >= vendor else { return nil }
        cursor += vendor
        guard let count = u32() else { return nil }
        var tags = ContainerTags()
        for _ in 0..<min(count, 100_000) {
            guard let length = u32(), bytes.endIndex - cursor >= length else { break }
            let entry = bytes[cursor..<cursor + length]
            cursor += length
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: entry[..<equals], as: UTF8.self).uppercased()
            let value = String(decoding: entry[(equals + 1)...], as: UTF8.self)
            guard !value.isEmpty else { continue }
            switch name {
            case "TITLE": tags.title = tags.title ?? value
            case "ARTIST": tags.artist = tags.artist ?? value
            case "ALBUM": tags.album = tags.album ?? value
            default: break
            }
        }
        return tags == ContainerTags() ? nil : tags
    }

    /// FLAC: "fLaC", then metadata blocks (a byte of last-flag and type, a
    /// 24-bit length); type 4 holds the Vorbis comments.
    static func flac(_ file: Int32) -> ContainerTags? {
        var offset = 4
        for _ in 0..<128 {
            let header = bytes(file, at: offset, count: 4)
            guard header.count == 4 else { return nil }
            let length = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            if header[0] & 0x7f == 4 {
                guard length <= blockLimit else { return nil }
                return vorbisComments(bytes(file, at: offset + 4, count: length)[...])
            }
            if header[0] & 0x80 != 0 { return nil }
            offset += 4 + length
        }
        return nil
    }

    /// Ogg: the first logical stream's second packet, reassembled from the
    /// pages' segment tables: "\u{3}vorbis" or "OpusTags", then the comments.
    public static func ogg(_ bytes: [UInt8]) -> ContainerTags? {
        var offset = 0
        var serial: ArraySlice<UInt8>?
        var packets: [[UInt8]] = [[]]
        while packets.count <= 2, bytes.count - offset >= 27 {
            guard bytes[offset..<offset + 4].elementsEqual("OggS".utf8) else { return nil }
            let segments = Int(bytes[offset + 26])
            let tableEnd = offset + 27 + segments
            guard tableEnd <= bytes.count else { return nil }
            let pageSerial = bytes[offset + 14..<offset + 18]
            var data = tableEnd
            let sameStream = serial.map { $0.elementsEqual(pageSerial) } ?? true
            serial = serial ?? pageSerial
            for index in offset + 27..<tableEnd {
                let length = Int(bytes[index])
                guard data + length <= bytes.count else { return nil }
                if sameStream {
                    packets[packets.count - 1] += bytes[data..<data + length]
                    // A segment shorter than 255 ends its packet.
                    if length < 255 { packets.append([]) }
                }
                data += length
            }
            offset = data
        }
        guard packets.count > 2 else { return nil }
        let packet = packets[1]
        for magic in ["\u{3}vorbis", "OpusTags"] where packet.starts(with: magic.utf8) {
            return vorbisComments(packet[magic.utf8.count...])
        }
        return nil
    }

    // MARK: MP4

    /// MP4: `moov` > `udta` > `meta` > `ilst`, whose items (`©nam`, `©ART`,
    /// `©alb`) each hold a `data` box of UTF-8 text. The `moov` box is found
    /// by the top-level boxes' headers (muxers often write it last), and only
    /// its `udta` child is read.
    static func mp4(_ file: Int32) -> ContainerTags? {
        guard let movie = box("moov", in: file, from: 0, to: Int.max),
              let userData = box("udta", in: file, from: movie.start, to: movie.end),
              userData.end - userData.start <= blockLimit else { return nil }
        let data = bytes(file, at: userData.start, count: userData.end - userData.start)
        return userDataTags(data[...])
    }

    /// The tags of a `udta` box's content.
    public static func userDataTags(_ data: ArraySlice<UInt8>) -> ContainerTags? {
        guard let meta = child("meta", in: data) else { return nil }
        // ISO's `meta` is a full box (version and flags first); QuickTime's is not.
        let content = meta.count >= 8 && meta.dropFirst(4).prefix(4).elementsEqual("hdlr".utf8) ? meta : meta.dropFirst(4)
        guard let list = child("ilst", in: content) else { return nil }
        var tags = ContainerTags()
        forEachChild(in: list) { type, item in
            guard let value = child("data", in: item), value.count >= 8,
                  value[value.startIndex + 1..<value.startIndex + 4].elementsEqual([0, 0, 1]) else { return }
            let text = String(decoding: value.dropFirst(8), as: UTF8.self)
            guard !text.isEmpty else { return }
            switch type {
            case [0xa9] + Array("nam".utf8): tags.title = tags.title ?? text
            case [0xa9] + Array("ART".utf8): tags.artist = tags.artist ?? text
            case [0xa9] + Array("alb".utf8): tags.album = tags.album ?? text
            default: break
            }
        }
        return tags == ContainerTags() ? nil : tags
    }

    /// Each box in `data`: its four-byte type and its content.
    static func forEachChild(in data: ArraySlice<UInt8>, _ body: ([UInt8], ArraySlice<UInt8>) -> Void) {
        var offset = data.startIndex
        while data.endIndex - offset >= 8 {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            var header = 8
            if size == 1 {
                guard data.endIndex - offset >= 16 else { return }
                size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1 & 0x7f) }
                header = 16
            } else if size == 0 {
                size = data.endIndex - offset
            }
            guard size >= header, size <= data.endIndex - offset else { return }
            body(Array(data[offset + 4..<offset + 8]), data[offset + header..<offset + size])
            offset += size
        }
    }

    static func child(_ type: String, in data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var found: ArraySlice<UInt8>?
        forEachChild(in: data) { boxType, content in
            if found == nil, boxType.elementsEqual(type.utf8) { found = content }
        }
        return found
    }

    /// A box of `type` among the boxes from `start` to `end` in the file, by
    /// their headers only: its content's range.
    static func box(_ type: String, in file: Int32, from start: Int, to end: Int) -> (start: Int, end: Int)? {
        var offset = start
        for _ in 0..<10_000 where offset < end {
            let header = bytes(file, at: offset, count: 16)
            guard header.count >= 8 else { return nil }
            var size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var length = 8
            if size == 1 {
                guard header.count == 16 else { return nil }
                size = header[8..<16].reduce(0) { $0 << 8 | Int($1 & 0x7f) }
                length = 16
            }
            // Size 0: to the end of the file (or of the parent).
            let boxEnd = size == 0 ? end : offset + size
            if header[4..<8].elementsEqual(type.utf8) {
                return size == 0 || size >= length ? (offset + length, boxEnd) : nil
            }
            guard size >= length else { return nil }
            offset = boxEnd
        }
        return nil
    }

    /// Up to `count` bytes at `offset`; fewer at the end of the file or on an error.
    static func bytes(_ file: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let result = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress! + got, count - got, off_t(offset + got)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            got += result
        }
        return Array(buffer[0..<got])
    }
}
