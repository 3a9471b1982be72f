import LoopIO
import LibraryIO
import BookFormat
import Books
import InterludeCore
import PlayerModel
import Streams

/// Whether a path given to the player (on the command line, to a running
/// player, on the socket's `open`) opens as a book or plays as music: the
/// one rule every entry point asks, so the same path is the same thing
/// however it arrives. The listener can always say which (`--book`,
/// `--music`; `open PATH book|music`).
extension OpenKind {
    /// A book: an M4B (the audiobook's own container); a file with chapters
    /// (ID3v2, MP4, Ogg, a cue sheet beside it); a folder of audio files
    /// or a file inside the books folder (`books` in the config, else
    /// ~/Audiobooks); a folder or file with a book's saved place. Music:
    /// anything else (an album's folder, a song, a station, the books folder
    /// itself).
    package static func guess(_ path: String, booksFolder: String?, store: BookStateStore?) -> OpenKind {
        if case .url = StreamLocation.classify(path) { return .music }
        let absolute = AbsolutePath.absolute(path)
        if let store, StateFile.isReadableFile(store.file(for: BookID(absolutePath: absolute)).path) { return .book }
        let inBooks = booksFolder.map { folder in
            let root = AbsolutePath.absolute(folder)
            return absolute.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        } ?? false
        if let names = DirectoryListing.names(in: absolute) {
            return inBooks && !BookFolderOrder.audioFiles(names).isEmpty ? .book : .music
        }
        if inBooks || absolute.lowercased().hasSuffix(".m4b") { return .book }
        return BookOpener.isBook([absolute], forced: false) ? .book : .music
    }

    /// The books folder: `books = PATH` in the config (`~/` expanded), else
    /// ~/Audiobooks when it is a folder; nil when neither is.
    package static func booksFolder(environment: [String: String], configured: String?) -> String? {
        let home = environment["HOME"] ?? ""
        if var folder = configured {
            if folder == "~" { folder = home } else if folder.hasPrefix("~/") { folder = home + folder.dropFirst(1) }
            while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
            return folder
        }
        guard !home.isEmpty else { return nil }
        let standard = home + "/Audiobooks"
        return DirectoryListing.names(in: standard) == nil ? nil : standard
    }
}
