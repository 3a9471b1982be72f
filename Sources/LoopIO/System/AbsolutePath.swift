#if canImport(Glibc)
import Glibc
#endif

/// A path as the listener gave it, made absolute (symbolic links resolved where it exists).
package enum AbsolutePath {
    /// `realpath(3)`; the path as given (made absolute by hand) when it does not resolve.
    package static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return directory + "/" + path
    }
}
