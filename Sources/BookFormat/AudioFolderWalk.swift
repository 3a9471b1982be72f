#if canImport(Glibc)
import Glibc
#endif
import InterludeCore

/// The audio files of a folder and every folder below it, as the browser
/// lists them: each folder's folders first, then its files, each in natural
/// order ("2" before "10"). `e` on a folder, a folder given to a running
/// player and the socket's `open` of a folder take them so (as cmus adds a
/// folder). Names only: no file is opened, no tag read. Cue sheets are left
/// out (their audio files are in).
public enum AudioFolderWalk {
    /// Deep enough for any artist/album/disc tree; stops a loop of links.
    public static let depth = 16
    /// More files than any one `e` means to queue.
    public static let limit = 20_000

    public static func files(under directory: String, limit: Int = AudioFolderWalk.limit) -> [String] {
        var files: [String] = []
        func joined(_ folder: String, _ name: String) -> String { folder == "/" ? "/" + name : folder + "/" + name }
        func walk(_ folder: String, depth: Int) {
            guard depth <= Self.depth, files.count < limit, let names = DirectoryListing.names(in: folder) else { return }
            var folders: [String] = []
            var audio: [String] = []
            for name in names where !name.hasPrefix(".") {
                if isDirectory(joined(folder, name)) { folders.append(name) } else if AudioFileNames.isAudio(name) { audio.append(name) }
            }
            for name in folders.sorted(by: NaturalOrder.areInIncreasingOrder) { walk(joined(folder, name), depth: depth + 1) }
            for name in audio.sorted(by: NaturalOrder.areInIncreasingOrder) where files.count < limit {
                files.append(joined(folder, name))
            }
        }
        walk(directory, depth: 0)
        return files
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
