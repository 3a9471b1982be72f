/// A playlist's bytes as text. `.m3u8` is UTF-8 by definition; plain `.m3u`
/// has no declared encoding: players on Linux write UTF-8, older Windows ones
/// Latin-1 (Winamp's), so UTF-8 is tried first and Latin-1, which decodes any
/// byte sequence, is the fallback.
public enum PlaylistText {
    public static func decode(_ bytes: [UInt8]) -> String {
        var body = bytes[...]
        // A byte-order mark some Windows editors put in front of UTF-8.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) { return text }
        return String(body.map { Character(Unicode.Scalar($0)) })
    }
}
