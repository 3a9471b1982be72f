/// The tags of an ASF file (WMA), read from its Header Object with no
/// decoding library: the Content Description Object (title, author: five
/// 16-bit lengths, then UTF-16LE strings) and the Extended Content
/// Description Object (name and value pairs: WM/AlbumTitle, WM/TrackNumber,
/// WM/Year and the like, strings or numbers), mapped through the Vorbis
/// comment names. Objects are a GUID, a 64-bit little-endian size and their
/// data; every size is checked against the header's bytes.
enum ASFTags {
    /// The Header Object's GUID (75B22630-668E-11CF-A6D9-00AA0062CE6C as stored).
    static let header: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let contentDescription: [UInt8] = [0x33, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    static let extendedContentDescription: [UInt8] = [0x40, 0xA4, 0xD0, 0xD2, 0x07, 0xE3, 0xD2, 0x11, 0x97, 0xF0, 0x00, 0xA0, 0xC9, 0x5E, 0xA8, 0x50]

    /// ASF's names for the fields the Vorbis comment names map.
    static let names: [String: String] = [
        "WM/ALBUMTITLE": "ALBUM", "WM/ALBUMARTIST": "ALBUMARTIST", "WM/TRACKNUMBER": "TRACKNUMBER",
        "WM/TRACK": "TRACKNUMBER", "WM/PARTOFSET": "DISCNUMBER", "WM/YEAR": "DATE", "WM/GENRE": "GENRE",
        // ffmpeg's muxer writes the year as "date".
        "DATE": "DATE",
    ]

    static func read(_ file: TagFile, into reading: inout TagReading) {
        let top = file.bytes(at: 0, count: 30)
        guard top.count == 30, top.starts(with: header) else { return }
        let size = le(top[16..<24])
        guard size > 30, size <= ContainerTagReader.blockLimit else { return }
        let bytes = file.bytes(at: 0, count: size)[...]
        var fields: [(name: String, value: String)] = []
        var offset = 30
        for _ in 0..<min(le(top[24..<28]), 1000) {
            guard bytes.endIndex - offset >= 24 else { break }
            let length = le(bytes[offset + 16..<offset + 24])
            guard length >= 24, length <= bytes.endIndex - offset else { break }
            let id = bytes[offset..<offset + 16]
            let data = bytes[offset + 24..<offset + length]
            if id.elementsEqual(contentDescription) {
                fields += content(data)
            } else if id.elementsEqual(extendedContentDescription) {
                fields += extended(data)
            }
            offset += length
        }
        reading.tags = reading.tags.filling(from: AudioTags(fields: fields))
    }

    /// Title, author, copyright, description, rating: the first two are tags.
    static func content(_ data: ArraySlice<UInt8>) -> [(name: String, value: String)] {
        guard data.count >= 10 else { return [] }
        let lengths = (0..<5).map { le(data[data.startIndex + 2 * $0..<data.startIndex + 2 * $0 + 2]) }
        var cursor = data.startIndex + 10
        var fields: [(name: String, value: String)] = []
        for (index, length) in lengths.enumerated() {
            guard length <= data.endIndex - cursor else { break }
            let text = utf16(data[cursor..<cursor + length])
            cursor += length
            if index < 2, !text.isEmpty { fields.append((index == 0 ? "TITLE" : "ARTIST", text)) }
        }
        return fields
    }

    /// A 16-bit count of descriptors: a name (length, UTF-16LE), a value type
    /// (0 text, 2 a 32-bit boolean, 3 a 32-bit number, 4 a 64-bit one, 5 a
    /// 16-bit one; 1, bytes, is skipped), the value's length and the value.
    static func extended(_ data: ArraySlice<UInt8>) -> [(name: String, value: String)] {
        guard data.count >= 2 else { return [] }
        var cursor = data.startIndex + 2
        var fields: [(name: String, value: String)] = []
        for _ in 0..<le(data[data.startIndex..<data.startIndex + 2]) {
            guard data.endIndex - cursor >= 2 else { break }
            let nameLength = le(data[cursor..<cursor + 2])
            guard nameLength + 4 <= data.endIndex - cursor - 2 else { break }
            let name = utf16(data[cursor + 2..<cursor + 2 + nameLength]).uppercased()
            cursor += 2 + nameLength
            let type = le(data[cursor..<cursor + 2])
            let valueLength = le(data[cursor + 2..<cursor + 4])
            cursor += 4
            guard valueLength <= data.endIndex - cursor else { break }
            let value = data[cursor..<cursor + valueLength]
            cursor += valueLength
            guard let mapped = names[name] else { continue }
            let text: String? = switch type {
            case 0: utf16(value)
            case 3, 4, 5: String(le(value))
            default: nil
            }
            if let text, !text.isEmpty { fields.append((mapped, text)) }
        }
        return fields
    }

    /// A little-endian number of up to 8 bytes (the high bit of the eighth
    /// dropped, so no size becomes negative).
    static func le(_ bytes: ArraySlice<UInt8>) -> Int {
        Int(bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & UInt64(Int.max))
    }

    /// UTF-16LE up to its NUL terminator; unpaired surrogates become U+FFFD.
    static func utf16(_ bytes: ArraySlice<UInt8>) -> String {
        var units: [UInt16] = []
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let unit = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
            if unit == 0 { break }
            units.append(unit)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
