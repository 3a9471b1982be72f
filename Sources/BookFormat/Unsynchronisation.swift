/// Undoes the ID3v2 unsynchronisation scheme: writers insert 0x00 after every
/// 0xFF so that tag bytes never look like an MPEG frame sync (0xFF Ex), and
/// readers drop a 0x00 that follows a 0xFF. ID3v2.3 applies it to the whole
/// tag after the header, ID3v2.4 to individual frames.
enum Unsynchronisation {
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var previousWasFF = false
        for byte in bytes {
            if previousWasFF && byte == 0x00 {
                previousWasFF = false
                continue
            }
            decoded.append(byte)
            previousWasFF = byte == 0xFF
        }
        return decoded
    }
}
