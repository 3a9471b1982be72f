/// What stops a library command, as one sentence naming the file.
package enum LibraryError: Error, CustomStringConvertible {
    case index(path: String, reason: String)

    package var description: String {
        switch self {
        case .index(let path, let reason): "cannot use the library index \(path): \(reason)"
        }
    }
}
