import Foundation
import Testing

/// docs/architecture.md maps the folders: every folder under `Sources/` is
/// named there (as `` `Sources/PATH/` ``; a folder whose subfolders are all
/// named counts as named through them, and a C target's `include/` belongs to
/// its target), and every `Sources/` path it names exists, so the map stays
/// true when folders are added, moved or removed.
struct ArchitectureDocTests {
    static var packageRoot: String {
        let sources = PureModuleImportTests.sourcesDirectory()
        return String(sources.dropLast("/Sources".count))
    }

    /// The `Sources/.../` paths written in backticks in the document.
    static func namedFolders(in text: String) -> Set<String> {
        var names: Set<String> = []
        for (index, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        where index % 2 == 1 {
            for part in piece.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where part.hasPrefix("Sources/") && part.hasSuffix("/") && part.count > "Sources/".count {
                names.insert(String(part.dropLast()))
            }
        }
        return names
    }

    static func folders() throws -> [String] {
        let root = packageRoot
        var isDirectory: ObjCBool = false
        return try FileManager.default.subpathsOfDirectory(atPath: root + "/Sources")
            .filter { FileManager.default.fileExists(atPath: root + "/Sources/" + $0, isDirectory: &isDirectory)
                && isDirectory.boolValue }
            .filter { !$0.hasSuffix("/include") && $0 != "include" }
            .map { "Sources/" + $0 }
            .sorted()
    }

    @Test func everySourceFolderIsNamedInTheArchitectureDocument() throws {
        let document = try String(contentsOfFile: Self.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let named = Self.namedFolders(in: document)
        let folders = try Self.folders()
        #expect(folders.count > 20, "expected the whole source tree")
        let missing = folders.filter { folder in
            !named.contains(folder) && !named.contains { $0.hasPrefix(folder + "/") }
        }
        #expect(missing.isEmpty, "not named in docs/architecture.md: \(missing.joined(separator: ", "))")
        let stale = named.filter { !folders.contains($0) }.sorted()
        #expect(stale.isEmpty, "named in docs/architecture.md but not in Sources/: \(stale.joined(separator: ", "))")
    }

    @Test func theScannerReadsBacktickedFolderNames() {
        let text = "| `Sources/A/`, `Sources/B/C/` | x |\nplain Sources/D/ and `Sources/E.swift` and `Sources/F/`"
        #expect(Self.namedFolders(in: text) == ["Sources/A", "Sources/B/C", "Sources/F"])
    }

    /// The README is what a new user reads in two minutes: short, with the two
    /// set-up commands, the keys and the alarm commands.
    @Test func theReadmeIsShortAndShowsTheCommandsTheKeysAndTheAlarms() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 150, "README.md has \(lines) lines")
        for needle in ["make run", "make test", "## Keys", "| `space` | play / pause |", "`z` / `x`",
                       "interlude alarm add", "interlude alarm list", "docs/architecture.md"] {
            #expect(readme.contains(needle), "README.md does not show \(needle)")
        }
    }
}
