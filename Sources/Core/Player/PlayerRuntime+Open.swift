import LoopIO
import BookFormat
import InterludeCore
import PlayerModel
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// The socket's `open`: a path as a book when it is one, else as music,
/// by the rule every entry point shares (`OpenKind.guess`).
extension PlayerRuntime {
    /// The books folder: `books` in the config, else ~/Audiobooks when it exists.
    package var booksFolder: String? {
        OpenKind.booksFolder(environment: ProcessEnvironment.current(), configured: configuration.settings.booksFolder)
    }

    package func open(_ path: String, as kind: OpenKind?) -> CommandResult {
        if !StreamLocation.isStation(path) && access(path, F_OK) != 0 {
            return .refused(reason: .problem("\(path): \(Errno(errno).message)"))
        }
        switch kind ?? OpenKind.guess(path, booksFolder: booksFolder, store: configuration.bookStore) {
        case .book:
            return perform(.openBook(path))
        case .music:
            let paths = AudioFolderWalk.isDirectory(path) ? AudioFolderWalk.files(under: path) : [path]
            guard !paths.isEmpty else { return .refused(reason: .problem("no audio files in \(path) or its folders")) }
            return perform(.playQueue(paths, startAt: 0))
        }
    }
}
