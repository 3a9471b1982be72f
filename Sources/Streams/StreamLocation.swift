/// What a playlist entry or a typed argument names: a station's URL, a path
/// for the playlist to resolve, or something refused with the reason.
///
/// Only `http` and `https` are streams. FFmpeg, which opens them, also
/// knows `file:`, `pipe:`, `concat:`, `subfile:`, `data:`, `tcp:` and more;
/// a downloaded playlist holding `concat:/etc/passwd|x` or `pipe:0` must
/// not make the player read a local file or its own standard input, so every
/// other scheme is refused by name instead of handed on.
public enum StreamLocation: Equatable, Sendable {
    case url(StreamURL)
    /// No scheme (or a one-letter one, a Windows drive: `C:\Music\a.mp3`): a path.
    case path(String)
    /// One sentence saying why the entry is not played.
    case refused(String)

    /// The longest URL taken; servers refuse request lines far shorter.
    public static let maximumURLBytes = 8192

    public static func classify(_ entry: String) -> StreamLocation {
        let text = entry
        if let bad = text.unicodeScalars.first(where: isControl) {
            return .refused("the entry holds a control character (U+\(hex(bad.value)))")
        }
        // FFmpeg reads `subfile,,start,N,end,M,,:PATH` as its subfile protocol though
        // the comma makes it no scheme; a path never starts so.
        if text.lowercased().hasPrefix("subfile,") { return .refused("subfile: is not a stream this player opens (http and https are)") }
        guard let colon = text.utf8.firstIndex(of: 0x3A), let scheme = schemeName(text.utf8[..<colon]) else {
            return .path(text)
        }
        if scheme.utf8.count == 1 { return .path(text) }
        let lowered = scheme.lowercased()
        guard let kind = StreamScheme(rawValue: lowered) else {
            return .refused(lowered == "file"
                ? "a file: URL is a local file, not a station"
                : "\(lowered): is not a stream this player opens (http and https are)")
        }
        guard text.utf8.count <= maximumURLBytes else {
            return .refused("the URL is \(text.utf8.count) bytes long; at most \(maximumURLBytes)")
        }
        if text.utf8.contains(0x20) { return .refused("the URL holds a space (write it as %20)") }
        return StreamURL.parse(text, scheme: kind, afterColon: text.utf8.index(after: colon))
    }

    /// RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, or nil.
    private static func schemeName(_ bytes: Substring.UTF8View) -> String? {
        guard let first = bytes.first, isLetter(first),
              bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        return String(Substring(bytes))
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// C0, DEL and C1: never part of a URL or a sane path, and each could end a
    /// request line early (CR, LF) or move a terminal's cursor when shown.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 12) & 0xF], digits[Int(value >> 8) & 0xF], digits[Int(value >> 4) & 0xF], digits[Int(value) & 0xF]])
    }
}

public enum StreamScheme: String, Sendable {
    case http, https
}

/// A station's address, checked: `http(s)://[user@]host[:port]/path`.
public struct StreamURL: Equatable, Sendable {
    /// The URL as given (what FFmpeg is handed).
    public var text: String
    public var scheme: StreamScheme
    /// The host as written (a name, an IPv4 address, or an IPv6 one without its brackets).
    public var host: String
    /// The port when one is written; 1-65535.
    public var port: Int?

    public init(text: String, scheme: StreamScheme, host: String, port: Int?) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The port a connection goes to: the written one, or the scheme's.
    public var effectivePort: Int { port ?? (scheme == .https ? 443 : 80) }

    static func parse(_ text: String, scheme: StreamScheme, afterColon: String.UTF8View.Index) -> StreamLocation {
        let rest = text.utf8[afterColon...]
        guard rest.starts(with: "//".utf8) else {
            return .refused("\(scheme.rawValue): needs // and a host (\(scheme.rawValue)://host/path)")
        }
        let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
        let authorityEnd = rest[authorityStart...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        var authority = Substring(rest[authorityStart..<authorityEnd])
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .refused("the IPv6 address has no closing ]") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return .refused("text after the IPv6 address: \(after)") }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return .refused("the URL names no host") }
        var port: Int?
        if let portText {
            guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let number = Int(portText), (1...65535).contains(number) else {
                return .refused("the port '\(portText.prefix(12))' is not a number from 1 to 65535")
            }
            port = number
        }
        return .url(StreamURL(text: text, scheme: scheme, host: String(host), port: port))
    }
}

extension StreamLocation {
    /// A station (an http(s) or HLS URL), not a file: the queue holds both.
    public static func isStation(_ path: String) -> Bool {
        if case .url = classify(path) { return true }
        return false
    }
}
