import Foundation

/// A home for `interlude library` commands in a test: a config naming the
/// music folder, the index in a cache of its own.
public enum LibraryHome {
    /// The environment of a library of `music`, its config and cache under `directory`.
    public static func environment(directory: String, music: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "library = \(music)\n".write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": directory + "/config", "XDG_CACHE_HOME": directory + "/cache", "HOME": directory]
    }

    /// Every indexed track (`library search path: --json`) by its path;
    /// throws with the command's summary when the search fails.
    public static func rows(environment: [String: String]) throws -> [String: [String: Any]] {
        let search = try InterludeBinary.run(["library", "search", "path:", "--json"], environment: environment)
        guard search.succeeded else { throw ProcessError.notReady("library search failed: \(search.summary)") }
        var rows: [String: [String: Any]] = [:]
        for line in search.stdoutText.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let path = object["path"] as? String else { throw ProcessError.notReady("not a track: \(line)") }
            rows[path] = object
        }
        return rows
    }
}
