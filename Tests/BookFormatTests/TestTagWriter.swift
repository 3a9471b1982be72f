@testable import BookFormat

/// A small ID3v2 writer for tests: it builds valid tags (and deliberately
/// odd ones, like iTunes' plain 2.4 sizes) byte by byte, independent of the
/// parser's code, so parser tests and the mutation test need no files.
struct TestTagWriter {
    var majorVersion: UInt8 = 4
    /// iTunes' bug: 2.4 frames with plain big-endian sizes.
    var plainSizesIn24 = false
    var unsynchronise = false
    var extendedHeader = false
    var footer = false
    var padding = 0

    // MARK: tag and frames

    func tag(_ frames: [[UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        if extendedHeader {
            // 2.3: size 6 excluding itself, 2 flag bytes, 4 bytes padding size.
            // 2.4: syncsafe size 6 including itself, 1 flag byte count, 1 flag byte.
            body += majorVersion == 3 ? [0, 0, 0, 6, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 6, 1, 0]
        }
        for frame in frames { body += frame }
        body += [UInt8](repeating: 0, count: padding)
        if majorVersion == 3 && unsynchronise { body = Self.unsynchronised(body) }
        var flags: UInt8 = 0
        if unsynchronise { flags |= 0x80 }
        if extendedHeader { flags |= 0x40 }
        if footer { flags |= 0x10 }
        var bytes = Array("ID3".utf8) + [majorVersion, 0, flags] + Self.syncsafe(body.count) + body
        if footer { bytes += Array("3DI".utf8) + [majorVersion, 0, flags] + Self.syncsafe(body.count) }
        return bytes
    }

    func frame(_ id: String, _ body: [UInt8], formatFlags: UInt8 = 0) -> [UInt8] {
        var body = body
        var formatFlags = formatFlags
        if majorVersion == 4 && unsynchronise {
            body = Self.unsynchronised(body)
            formatFlags |= 0x02
        }
        let size = majorVersion == 3 || plainSizesIn24 ? Self.bigEndian(body.count) : Self.syncsafe(body.count)
        return Array(id.utf8) + size + [0, formatFlags] + body
    }

    // MARK: frame bodies

    func text(_ id: String, _ value: String, _ encoding: ID3v2TextEncoding = .latin1) -> [UInt8] {
        frame(id, [encoding.rawValue] + Self.encode(value, encoding))
    }

    func chapter(
        _ elementID: String, start: UInt32, end: UInt32, title: String? = nil,
        encoding: ID3v2TextEncoding = .latin1, extra: [[UInt8]] = []
    ) -> [UInt8] {
        // Embedded frames are written plain: unsynchronisation applies once,
        // to the CHAP frame as a whole.
        var inner = self
        inner.unsynchronise = false
        var body = Array(elementID.utf8) + [0]
        for value in [start, end, 0xFFFF_FFFF, 0xFFFF_FFFF] { body += Self.bigEndian(Int(value)) }
        if let title { body += inner.text("TIT2", title, encoding) }
        for frame in extra { body += frame }
        return frame("CHAP", body)
    }

    func tableOfContents(
        _ elementID: String, topLevel: Bool = true, ordered: Bool = true, children: [String],
        title: String? = nil
    ) -> [UInt8] {
        var body = Array(elementID.utf8) + [0]
        body.append((topLevel ? 0x02 : 0) | (ordered ? 0x01 : 0))
        body.append(UInt8(children.count))
        for child in children { body += Array(child.utf8) + [0] }
        var inner = self
        inner.unsynchronise = false
        if let title { body += inner.text("TIT2", title) }
        return frame("CTOC", body)
    }

    // MARK: encodings

    static func encode(_ value: String, _ encoding: ID3v2TextEncoding) -> [UInt8] {
        switch encoding {
        case .latin1:
            return value.unicodeScalars.map { UInt8($0.value) }
        case .utf8:
            return Array(value.utf8)
        case .utf16WithBOM:
            return [0xFF, 0xFE] + value.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16BigEndian:
            return value.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The writer's side of unsynchronisation: a 0x00 after every 0xFF that
    /// is followed by 0x00 or a byte >= 0xE0, or that ends the data.
    static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            guard byte == 0xFF else { continue }
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if next == nil || next == 0x00 || next! >= 0xE0 { out.append(0) }
        }
        return out
    }
}
