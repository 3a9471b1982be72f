#if canImport(Glibc)
import Glibc
#endif

/// Whether a file a name below the music folder reaches is inside that
/// folder once every link on the way is followed: what keeps `..` behind a
/// link, and a link out of the folder, from reaching any other file. Paths
/// are resolved with `realpath` (no file is opened) and compared byte for
/// byte: two spellings of one accented name are two folders to the kernel.
package enum MPDFolderBounds {
    /// `path` with every link, `.` and `..` resolved, or nil when it is not there.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the resolved `path` is `root` (resolved) or below it.
    package static func contains(_ root: String, _ path: String) -> Bool {
        root == "/" || path.utf8.elementsEqual(root.utf8) || path.utf8.starts(with: (root + "/").utf8)
    }

    /// Whether `path` is there and, resolved, inside the resolved `root`.
    package static func reaches(_ path: String, inside root: String) -> Bool {
        guard let realRoot = realPath(root), let real = realPath(path) else { return false }
        return contains(realRoot, real)
    }
}
