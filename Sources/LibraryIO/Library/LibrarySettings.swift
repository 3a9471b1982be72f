#if canImport(Glibc)
import Glibc
#endif
import InterludeCore
import PlayerModel
import TUI

/// Where the library is: its folders (`library = PATH` lines in the config
/// file, else the music folder the full-screen player opens by default) and
/// its index file (`$XDG_CACHE_HOME/interlude/library.sqlite`).
package struct LibrarySettings {
    package var folders: [String]
    package var indexPath: String
    /// The config file's lines that were not understood, `PATH:LINE: message`.
    package var problems: [String] = []

    /// `config`: the config file as read at start (`UserConfigFile.load`).
    package static func load(environment: [String: String], config: PlayerConfigFile) -> LibrarySettings {
        let problems = config.problems.map(\.description)
        let home = environment["HOME"] ?? ""
        var folders = config.libraryFolders.map { folder in
            var expanded = folder.replacingPrefix("~/", with: home + "/")
            while expanded.count > 1 && expanded.hasSuffix("/") { expanded.removeLast() }
            return expanded
        }
        if folders.isEmpty, let music = Self.musicFolder(environment: environment) {
            folders = [music]
        }
        return LibrarySettings(folders: folders, indexPath: LibraryIndex.defaultPath(environment: environment), problems: problems)
    }

    /// The music folder: `XDG_MUSIC_DIR` from `user-dirs.dirs`, else ~/Music, when it exists.
    package static func musicFolder(environment: [String: String]) -> String? {
        let home = environment["HOME"] ?? ""
        let directories = XDGDirectories(environment: environment)
        var candidates: [String] = []
        if let bytes = try? StateFile(path: directories.configHome + "/user-dirs.dirs").read() {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("XDG_MUSIC_DIR=") {
                var value = String(line.dropFirst("XDG_MUSIC_DIR=".count))
                value.removeAll { $0 == "\"" }
                candidates.append(value.replacingPrefix("$HOME", with: home))
            }
        }
        if !home.isEmpty { candidates.append(home + "/Music") }
        return candidates.first { FileSystemBrowserSource.isDirectory($0) }
    }
}

extension String {
    package func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
