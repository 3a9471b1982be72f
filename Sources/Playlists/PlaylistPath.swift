/// Paths as M3U players agree on them: a relative line names a file relative
/// to the playlist's own folder, so a folder of music with its playlist can be
/// moved or mounted elsewhere and still play.
public enum PlaylistPath {
    /// `line` as an absolute path: kept when absolute, else joined to `folder`;
    /// `.` and `..` components are removed (a playlist one folder up from the
    /// music writes `../Album/01.mp3`).
    public static func resolve(_ line: String, against folder: String) -> String {
        normalize(line.hasPrefix("/") ? line : folder + "/" + line)
    }

    /// How a playlist in `folder` names `path`: relative when the file is
    /// under the folder, else absolute (a path to a sibling tree through `..`
    /// breaks when the playlist alone is moved, which is worse than absolute).
    public static func line(for path: String, inFolder folder: String) -> String {
        let file = normalize(path)
        let base = normalize(folder)
        let prefix = base == "/" ? "/" : base + "/"
        guard file.hasPrefix(prefix), file.count > prefix.count else { return file }
        return String(file.dropFirst(prefix.count))
    }

    /// The folder part of a path (`/a/b.m3u` -> `/a`).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes empty, `.` and `..` components of an absolute path.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(component)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }
}
