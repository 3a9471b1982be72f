#if canImport(Glibc)
import Glibc
#endif

/// True when `path` names a directory (following symbolic links).
package func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
