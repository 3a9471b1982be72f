#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in one directory, through opendir/readdir, so modules that
/// must not import C (Themes) can list a folder without Foundation.
public enum DirectoryListing {
    /// Entry names other than `.` and `..`, in no particular order; nil when
    /// the directory does not exist or cannot be opened.
    public static func names(in directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // d_name is a fixed-size C array inside dirent; read it in place
            // as the NUL-terminated string readdir guarantees it to be.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
