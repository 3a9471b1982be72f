import Foundation
import TestSupport

/// A private `$XDG_DATA_HOME` and the binary's `podcast` commands over it,
/// with a private `$XDG_CONFIG_HOME` (no config file unless `configure`
/// writes one; `environment` leaves it out, for players with their own).
struct PodcastHome {
    let data = ScratchFiles.makeDirectory("podcast-data")
    let config = ScratchFiles.makeDirectory("podcast-config")
    var environment: [String: String] { ["XDG_DATA_HOME": data] }

    /// Writes the config file the commands read.
    func configure(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: config + "/interlude", withIntermediateDirectories: true)
        try text.write(toFile: config + "/interlude/config", atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String], timeout: Double = 120) throws -> ProcessResult {
        try InterludeBinary.run(["podcast"] + arguments, environment: environment.merging(["XDG_CONFIG_HOME": config]) { $1 },
                                timeout: timeout)
    }

    /// `podcast add URL`'s id ("added TITLE (N episodes), id ID").
    func add(_ url: String) throws -> String? {
        let result = try run(["add", url])
        guard result.succeeded else { return nil }
        return result.stdoutText.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// `podcast list [NAME] --json`.
    func listJSON(_ name: String? = nil) throws -> [[String: Any]] {
        let result = try run(["list"] + (name.map { [$0] } ?? []) + ["--json"])
        guard result.succeeded else { return [] }
        return (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]) ?? []
    }
}

/// Feeds written by `Tests/Fixtures/podcast_feeds.py`, and podcastparser's reading of one.
enum GeneratedFeeds {
    static let script = "\(InterludeBinary.packageRoot)/Tests/Fixtures/podcast_feeds.py"
    static let pythonPath = ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"]

    static func generate(into folder: String, seed: Int) throws {
        try ProcessRunner.check("python3", [script, "generate", folder, String(seed)])
    }

    /// podcastparser's podcast title, new URL and episodes of the file served at `url`.
    static func oracle(file: String, url: String) throws -> [String: Any] {
        let result = try ProcessRunner.check("python3", [script, "oracle", file, url], environment: pythonPath)
        return (try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]) ?? [:]
    }
}
