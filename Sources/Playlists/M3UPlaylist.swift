import Streams

/// Extended M3U (and M3U8): `#EXTM3U` on the first line, then for each file
/// an optional `#EXTINF:SECONDS,TITLE` line and the file's path. Other `#`
/// lines are comments (or extensions other players write) and are skipped.
public enum M3UPlaylist {
    /// The entries of a playlist stored in `folder`, relative lines resolved
    /// against it: the first `limit` of them (the caller refuses a playlist
    /// that reaches its own limit, without resolving millions of lines first).
    public static func parse(_ text: String, folder: String, limit: Int = .max) -> [PlaylistEntry] {
        var entries: [PlaylistEntry] = []
        var info: (seconds: Int?, title: String?)?
        // Lines end in LF or CRLF (Windows players; one Character in Swift); a lone CR is not a break any player writes.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if trimmed.hasPrefix("#EXTINF:") { info = extinf(trimmed.dropFirst("#EXTINF:".count)) }
                continue
            }
            var location = String(trimmed)
            if location.hasPrefix("file://") { location = percentDecoded(String(location.dropFirst("file://".count))) }
            // A station's URL is kept as it is; every other line is a path.
            let path = if case .url = StreamLocation.classify(location) { location }
                else { PlaylistPath.resolve(location, against: folder) }
            entries.append(PlaylistEntry(path: path, seconds: info?.seconds, title: info?.title))
            info = nil
            if entries.count >= limit { break }
        }
        return entries
    }

    /// The playlist text for `entries`, stored in `folder`: paths under it relative.
    public static func write(_ entries: [PlaylistEntry], folder: String) -> String {
        var text = "#EXTM3U\n"
        for entry in entries {
            if entry.seconds != nil || entry.title != nil {
                // Line breaks in a title would start a new line of the playlist.
                let title = (entry.title ?? "").map { $0 == "\n" || $0 == "\r" ? " " : $0 }
                text += "#EXTINF:\(entry.seconds ?? -1),\(String(title))\n"
            }
            text += location(of: entry.path, inFolder: folder) + "\n"
        }
        return text
    }

    /// The line for `path`: relative under the folder, or absolute; a `file://`
    /// URL when the plain line would not read back as that path (a name with
    /// a line break, one that starts with `#`, a blank or `file://`: all
    /// legal in a Linux file name), with those bytes percent-encoded.
    static func location(of path: String, inFolder folder: String) -> String {
        if case .url = StreamLocation.classify(path) { return path }
        let line = PlaylistPath.line(for: path, inFolder: folder)
        let readsBack = !line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            && !line.hasPrefix("#") && !line.hasPrefix(" ") && !line.hasPrefix("\t") && !line.hasPrefix("file://")
        if readsBack { return line }
        var url = Array("file://".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in PlaylistPath.normalize(path).utf8 {
            if byte < 0x21 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#") || byte == 0x7F {
                url += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                url.append(byte)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    /// `SECONDS,TITLE` (attributes such as `tvg-id="x"` before the comma, as IPTV lists write, are skipped).
    private static func extinf(_ rest: Substring) -> (Int?, String?) {
        guard let comma = rest.firstIndex(of: ",") else { return (seconds(rest), nil) }
        let title = String(rest[rest.index(after: comma)...])
        return (seconds(rest[..<comma]), title.isEmpty ? nil : title)
    }

    private static func seconds(_ field: Substring) -> Int? {
        let number = field.prefix(while: { $0 != " " })
        // Some writers put fractional seconds; -1 means unknown.
        guard let value = Double(number), value >= 0, value < 1e9 else { return nil }
        return Int(value.rounded())
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
