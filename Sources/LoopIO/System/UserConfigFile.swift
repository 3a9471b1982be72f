import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The listener's config file, `$XDG_CONFIG_HOME/interlude/config`: read
/// once, as a run starts (a player, a subcommand), and the value passed to
/// whoever needs it. Empty when there is none; a file that cannot be read is
/// one problem, and the defaults are used. A player reports the problems
/// once (with its hook, `EventHook.fromConfig`).
package enum UserConfigFile {
    package static func load() -> PlayerConfigFile {
        let path = XDGDirectories(environment: ProcessEnvironment.current()).interludeConfig + "/config"
        // Most people have no config file: don't go through a read's failure path for it.
        guard access(path, F_OK) == 0 else { return PlayerConfigFile() }
        do throws(StateFileError) {
            guard let bytes = try StateFile(path: path).read() else { return PlayerConfigFile() }
            return PlayerConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path)
        } catch {
            var unread = PlayerConfigFile()
            unread.problems = [ConfigProblem(path: path, line: 0, message: "\(error.description); the defaults are used")]
            return unread
        }
    }
}
