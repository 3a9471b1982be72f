#if canImport(Glibc)
import Glibc
#endif

/// The process environment as a dictionary, read from `environ` (what
/// `ProcessInfo.processInfo.environment` gave, without Foundation).
package enum ProcessEnvironment {
    package static func current() -> [String: String] {
        var result: [String: String] = [:]
        // Glibc imports `environ` as non-optional; it is only null after
        // clearenv(3), which this program never calls.
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            // "NAME=value"; the value may itself contain '='. An entry without one is skipped.
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                // The first definition wins, as getenv(3) finds it.
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }
}
