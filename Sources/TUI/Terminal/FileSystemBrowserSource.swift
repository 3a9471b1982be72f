import BookFormat
import PlayerModel
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The browser's folders from the real file system: folders and audio
/// files (`AudioFileNames`: MP3, M4A/M4B, FLAC, Ogg, Opus, WAV) and cue sheets (hidden ones left out), files with their tag titles.
public struct FileSystemBrowserSource: BrowserSource {
    public init() {}

    public func entries(in directory: String) -> [BrowserEntry]? {
        guard let names = DirectoryListing.names(in: directory) else { return nil }
        var entries: [BrowserEntry] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory == "/" ? "/" + name : directory + "/" + name
            if Self.isDirectory(path) {
                entries.append(BrowserEntry(name: name, path: path, isDirectory: true))
            } else if AudioFileNames.isAudio(name) {
                let tags = AudioTags.read(path: path)
                entries.append(BrowserEntry(name: name, path: path, isDirectory: false,
                                            title: tags.title ?? AudioTags.displayName(ofPath: path),
                                            artist: tags.artist ?? ""))
            } else if name.lowercased().hasSuffix(".cue") {
                // A cue sheet is an album: enter or e on it queues its tracks (the dispatcher expands it).
                let album = (try? CueTrack.tracks(ofSheet: path).get())?.first?.track
                entries.append(BrowserEntry(name: name, path: path, isDirectory: false,
                                            title: album?.album ?? name, artist: album?.performer ?? ""))
            }
        }
        return entries
    }

    /// The walk of `e` on a folder: names only, no tags read (`AudioFolderWalk`).
    public func audioFiles(under directory: String, limit: Int) -> [String] {
        AudioFolderWalk.files(under: directory, limit: limit)
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
