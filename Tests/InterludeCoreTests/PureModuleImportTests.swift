import Testing

/// Acceptance 9: AudioSession and Alarms import no C module (no Glibc, no
/// Darwin, no system-library target), so they build and test anywhere and
/// cannot reach the system except through InterludeCore's `Clock` and
/// `StateFile`. Full Foundation is excluded too (it re-exports Glibc).
struct PureModuleImportTests {
    static let forbidden = ["Glibc", "Musl", "Darwin", "SwiftGlibc", "Foundation", "CAlsa", "CMpg123", "CNcursesw", "CFFmpeg", "CSQLite", "CInterludeShims", "Dispatch", "CXML2", "CCurl"]

    static func sourcesDirectory() -> String {
        // #filePath is .../Tests/InterludeCoreTests/PureModuleImportTests.swift
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/Sources"
    }

    @Test("pure module imports no C module", arguments: ["AudioSession", "Alarms", "Themes", "TUI/Keys", "PlayerModel", "Playlists", "ReplayGain", "MusicLibrary", "Streams", "Podcasts", "SpokenAudio"])
    func pureModuleImportsNoCModule(module: String) throws {
        let directory = Self.sourcesDirectory() + "/" + module
        let files = try SourceListing.swiftFiles(in: directory)
        #expect(!files.isEmpty, "no sources found in \(directory)")
        for file in files {
            for line in try SourceListing.lines(of: file) {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                // Only declarations: `import X` possibly after attributes, not the word in a comment.
                guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
                      words[..<importIndex].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                // `import X`, `@_exported import X`, `import struct X.Y`, `@preconcurrency import X`
                let target = words[words.count > importIndex + 2 && ["struct", "class", "enum", "func", "protocol", "var", "let", "typealias"].contains(String(words[importIndex + 1])) ? importIndex + 2 : importIndex + 1]
                let moduleName = String(target.split(separator: ".").first ?? target)
                #expect(!Self.forbidden.contains(moduleName), "\(file) imports \(moduleName)")
            }
        }
    }
}
