#if canImport(Glibc)
import Glibc
#endif

package func fileSizeBytes(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
}
