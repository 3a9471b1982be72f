/// Text a station sends (an ICY title, a PLS title): UTF-8 when it is valid
/// UTF-8, else Latin-1. Shoutcast-era encoders write whatever their operating
/// system's code page was; Latin-1 decodes any byte, so a title is never lost,
/// only perhaps shown with the wrong accents.
enum StreamText {
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        return text
    }

    /// `bytes` without the spaces, tabs, carriage returns and NULs around it
    /// (an ICY block is padded with NULs to a multiple of 16).
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isPadding(_ byte: UInt8) -> Bool { byte == 0 || byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isPadding($0) }),
              let last = bytes.lastIndex(where: { !isPadding($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }
}
