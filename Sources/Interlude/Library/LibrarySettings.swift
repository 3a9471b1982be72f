#if canImport(Glibc)
import Glibc
#endif
import InterludeCore
import PlayerModel

/// Where the library is: its folders (`library = PATH` lines in the config
/// file, else the music folder the full-screen player opens by default) and
/// its index file (`$XDG_CACHE_HOME/interlude/library.sqlite`).
struct LibrarySettings {
    var folders: [String]
    var indexPath: String
    /// The config file's lines that were not understood, `PATH:LINE: message`.
    var problems: [String] = []

    static func load(environment: [String: String]) -> LibrarySettings {
        let directories = XDGDirectories(environment: environment)
        let path = directories.interludeConfig + "/config"
        var folders: [String] = []
        var problems: [String] = []
        if access(path, F_OK) == 0, let bytes = try? StateFile(path: path).read() {
            let config = PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
            problems = config.problems.map(\.description)
            let home = environment["HOME"] ?? ""
            folders = config.libraryFolders.map { folder in
                var expanded = folder.replacingPrefix("~/", with: home + "/")
                while expanded.count > 1 && expanded.hasSuffix("/") { expanded.removeLast() }
                return expanded
            }
        }
        if folders.isEmpty, let music = FullScreenCommand.musicFolder(environment: environment) {
            folders = [music]
        }
        return LibrarySettings(folders: folders, indexPath: LibraryIndex.defaultPath(environment: environment), problems: problems)
    }
}
