/// A lyrics file's bytes as text. LRC files declare no encoding: UTF-8 (with
/// or without the byte-order mark Windows editors write) is what current
/// tools write, UTF-16 with its mark what some Windows ones do, and older
/// Windows tools wrote Windows-1252, which decodes any byte and differs from
/// Latin-1 where lyrics need it (’ “ ” … – in 0x80-0x9F).
public enum LyricsText {
    public static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return ID3v2TextEncoding.utf16WithBOM.decode(bytes)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map(windows1252))
        return text
    }

    /// Windows-1252's character for a byte: Latin-1's but in 0x80-0x9F; the
    /// five bytes it leaves undefined stay C1 controls, which the screen
    /// shows as U+FFFD.
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard byte >= 0x80, byte <= 0x9F else { return Unicode.Scalar(byte) }
        let value = high[Int(byte - 0x80)]
        return Unicode.Scalar(value) ?? Unicode.Scalar(byte)
    }

    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
