import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `interlude library` as a user runs it: folders from the config file, the
/// index in the cache folder, problems reported once while the scan goes on.
@Suite(.serialized, .enabled(if: InterludeBinary.isAvailable()))
struct LibraryCommandTests {
    struct Home {
        let directory: String
        var environment: [String: String] {
            ["XDG_CONFIG_HOME": directory + "/config", "XDG_CACHE_HOME": directory + "/cache", "HOME": directory]
        }
        var indexPath: String { directory + "/cache/interlude/library.sqlite" }
    }

    static func home(folders: [String]) throws -> Home {
        let directory = ScratchFiles.makeDirectory("library-home")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        let lines = folders.map { "library = \($0)" }.joined(separator: "\n") + "\n"
        try lines.write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        return Home(directory: directory)
    }

    /// Runs the binary; as root, without the capabilities that let root read
    /// any folder, so a folder's mode 000 means to it what it means to a user.
    static func run(_ arguments: [String], _ home: Home) throws -> ProcessResult {
        if getuid() == 0 {
            return try ProcessRunner.run("/usr/bin/setpriv", ["--bounding-set=-dac_override,-dac_read_search",
                                                              InterludeBinary.path()] + arguments,
                                         environment: home.environment, timeout: 120)
        }
        return try InterludeBinary.run(arguments, environment: home.environment)
    }

    @Test func unreadableFolderAndNonUTF8NameAreReportedOnceAndTheScanGoesOn() throws {
        let directory = ScratchFiles.makeDirectory("library-problems")
        let frameRun = try LibraryTreeGenerator.frameRun()
        let music = directory + "/music"
        try LibraryTreeGenerator(root: music, fileCount: 40).write(frameRun: frameRun)
        let locked = music + "/Locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try Data(frameRun).write(to: URL(fileURLWithPath: locked + "/hidden.mp3"))
        #expect(chmod(locked, 0) == 0)
        defer { chmod(locked, 0o755) }
        // "caf\xE9.mp3": Latin-1 bytes, not UTF-8.
        var name = Array((music + "/caf").utf8) + [0xE9] + Array(".mp3".utf8) + [0]
        let descriptor = name.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let home = try Self.home(folders: [music, directory + "/missing"])

        let result = try Self.run(["library", "scan"], home)
        #expect(result.succeeded, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("cannot read folder \(locked): permission denied; skipped") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("the name is not UTF-8") && $0.contains(music + "/caf") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("library folder \(directory)/missing: no such file or directory; skipped") }.count == 1, "\(lines)")
        #expect(result.stdoutText.hasPrefix("library: 40 files in 2 folders: 40 read"), "\(result.stdoutText)")

        let search = try Self.run(["library", "search", "song", "--json"], home)
        #expect(search.succeeded)
        let rows = search.stdoutText.split(separator: "\n")
        // Titles 1 and 4 (mod 6) are "曲 N さくら" and "Chanson n°N été".
        #expect(rows.count == (0..<40).filter { $0 % 6 != 1 && $0 % 6 != 4 }.count)
        for row in rows {
            let value = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any]
            #expect((value?["title"] as? String)?.hasPrefix("Track ") == true)
        }
    }

    @Test func statsAndSearchRebuildADeletedIndexFirst() throws {
        let directory = ScratchFiles.makeDirectory("library-stats")
        try LibraryTreeGenerator(root: directory + "/music", fileCount: 200).write(frameRun: try LibraryTreeGenerator.frameRun())
        let home = try Self.home(folders: [directory + "/music"])
        let stats = try InterludeBinary.run(["library", "stats", "--json"], environment: home.environment)
        #expect(stats.succeeded, "\(stats.summary)")
        #expect(stats.stderrText == "interlude: no library index at \(home.indexPath) yet; building it\n")
        let value = try JSONSerialization.jsonObject(with: stats.stdout) as? [String: Any]
        #expect(value?["tracks"] as? Int == 200)
        #expect(value?["albums"] as? Int == 20)

        let cjk = try InterludeBinary.run(["library", "search", "artist:歌手", "year:1960-1999"], environment: home.environment)
        #expect(cjk.succeeded && cjk.stderrText.isEmpty, "\(cjk.summary)")
        #expect(!cjk.stdoutText.isEmpty)
        for line in cjk.stdoutText.split(separator: "\n") { #expect(line.hasPrefix("歌手 ")) }

        let bad = try InterludeBinary.run(["library", "search", "x", "--sort", "colour"], environment: home.environment)
        #expect(bad.exitStatus == 2)
        #expect(bad.stderrText.hasPrefix("interlude library: unknown sort column 'colour' (known: artist, album"))
    }
}
