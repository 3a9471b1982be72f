/// What a URI an MPD client sends names, read as MPD 0.23's `LocateUri`
/// reads it: a song or folder of the database, a local file by its whole
/// path, or a stream. Reading it opens and checks nothing on the disk; who
/// may have what is the server's to decide (`MPDCommands.located`).
public enum MPDLocatedURI: Equatable, Sendable {
    /// Below the music directory: looked up in the database, never on the disk
    /// (`..`, `.` and doubled slashes name nothing there, as in MPD's).
    case relative(String)
    /// A local file by its whole path (`/x`, or `file:///x` with any case of `file`).
    case file(String)
    /// A stream of a scheme the player opens (http, https; any case, as MPD's curl input takes them).
    case url(String)

    /// The schemes the player opens, as `urlhandlers` lists them.
    public static let schemes = ["http", "https"]

    /// MPD's reading of `uri`, with its refusals: a `file://` URI whose path
    /// is not whole (`[2] Malformed file:// URI`), a scheme the player does
    /// not open (`[2] Unsupported URI scheme`).
    public static func locate(_ uri: String) throws(MPDFailure) -> MPDLocatedURI {
        let utf8 = uri.utf8
        if utf8.count >= 7, String(decoding: utf8.prefix(7), as: UTF8.self).lowercased() == "file://" {
            let path = String(decoding: utf8.dropFirst(7), as: UTF8.self)
            guard path.utf8.first == UInt8(ascii: "/") else { throw MPDFailure(.argument, "Malformed file:// URI") }
            return .file(path)
        }
        if utf8.first == UInt8(ascii: "/") { return .file(uri) }
        // MPD's `uri_has_scheme`: anything before a `://` (`a/b://c`, `1x://y` too) is a scheme, and only
        // a scheme some input plugin takes is a stream; `://x` has none and is a name in the database.
        let bytes = Array(utf8)
        if let separator = bytes.indices.dropLast(2).first(where: { bytes[$0] == 0x3A && bytes[$0 + 1] == 0x2F && bytes[$0 + 2] == 0x2F }),
           separator > 0 {
            let scheme = String(decoding: bytes[..<separator], as: UTF8.self).lowercased()
            guard schemes.contains(scheme) else { throw MPDFailure(.argument, "Unsupported URI scheme") }
            return .url(uri)
        }
        return .relative(uri)
    }

    /// `path` as a name in the database when it is below one of `folders`
    /// (MPD's `MapToRelativeUTF8`: the folder, then one or more slashes;
    /// the folder itself is the empty name), else nil. Nothing is resolved
    /// (`..` stays, and then names no song).
    public static func relative(_ path: String, in folders: [String]) -> String? {
        for folder in folders {
            let base = folder.utf8.last == UInt8(ascii: "/") ? folder.utf8.dropLast() : folder.utf8[...]
            guard path.utf8.starts(with: base) else { continue }
            let rest = path.utf8.dropFirst(base.count)
            guard rest.first == UInt8(ascii: "/") || (rest.isEmpty && !base.isEmpty) else { continue }
            return String(decoding: rest.drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
        }
        return nil
    }
}
