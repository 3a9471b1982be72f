import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The listener's config file, read for one setting; its problems are
/// reported once, by the event hook's reading of it. Empty when there is none.
package enum UserConfigFile {
    package static func load() -> PlayerConfigFile {
        let path = XDGDirectories(environment: ProcessEnvironment.current()).interludeConfig + "/config"
        guard access(path, F_OK) == 0, let bytes = try? StateFile(path: path).read() else { return PlayerConfigFile() }
        return PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
    }
}
