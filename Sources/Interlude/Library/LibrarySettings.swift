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
        var folders: [String] = []
        var problems: [String] = []
        if let config = PlayerConfigFile.read(environment: environment) {
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

extension PlayerConfigFile {
    /// `$XDG_CONFIG_HOME/interlude/config` read, or nil when there is none.
    static func read(environment: [String: String]) -> PlayerConfigFile? {
        let path = XDGDirectories(environment: environment).interludeConfig + "/config"
        guard access(path, F_OK) == 0, let bytes = try? StateFile(path: path).read() else { return nil }
        return PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
    }
}
