import Testing

/// libmpg123 stays behind the `Decoder` contract. Only
/// its implementation imports `CMpg123`, so no C type of it reaches the engine,
/// the application or a second decoder, and `Interlude` does not depend on it.
struct DecoderImportTests {
    /// The files allowed to import `CMpg123`, relative to `Sources/`.
    static let mpg123Files: Set<String> = ["AudioDecoding/Decoding/Mpg123Decoder.swift"]

    /// Every Swift file under `Sources/` with the modules it imports.
    static func importsBySourceFile() throws -> [(file: String, modules: [String])] {
        let sources = PureModuleImportTests.sourcesDirectory()
        return try SourceListing.swiftFiles(in: sources).map { path in
            (String(path.dropFirst(sources.count + 1)), try SourceListing.importedModules(of: path))
        }
    }

    @Test func onlyTheMpg123DecoderImportsCMpg123() throws {
        let importing = try Self.importsBySourceFile().filter { $0.modules.contains("CMpg123") }.map(\.file)
        #expect(Set(importing) == Self.mpg123Files, "files importing CMpg123: \(importing.sorted())")
    }

    /// FFmpeg's libraries likewise, behind `FFmpegDecoder`; and a
    /// station's reader thread and decoder, behind `Decoders.open` too,
    /// with the reader's time-shift feed (it rebuilds packets from the buffer's bytes)
    /// and its watch (FFmpeg's interrupt callback and `io_open`).
    @Test func onlyTheFFmpegDecodersImportCFFmpeg() throws {
        let importing = try Self.importsBySourceFile().filter { $0.modules.contains("CFFmpeg") }.map(\.file)
        #expect(Set(importing) == ["AudioDecoding/Decoding/FFmpegDecoder.swift", "AudioDecoding/Streaming/StreamReader.swift",
                                   "AudioDecoding/Streaming/StreamDecoder.swift", "AudioDecoding/Streaming/TimeShiftFeed.swift",
                                   "AudioDecoding/Streaming/StreamWatch.swift"],
                "files importing CFFmpeg: \(importing.sorted())")
    }

    /// And libFLAC, behind `FLACDecoder`.
    @Test func onlyTheFLACDecoderImportsCFLAC() throws {
        let importing = try Self.importsBySourceFile().filter { $0.modules.contains("CFLAC") }.map(\.file)
        #expect(Set(importing) == ["AudioDecoding/Decoding/FLACDecoder.swift"], "files importing CFLAC: \(importing.sorted())")
    }

    @Test func noFileOfTheApplicationImportsCMpg123() throws {
        let application = try Self.importsBySourceFile().filter { $0.file.hasPrefix("Interlude/") }
        #expect(!application.isEmpty, "no sources found under Sources/Interlude")
        for (file, modules) in application {
            #expect(!modules.contains("CMpg123"), "\(file) imports CMpg123")
        }
    }

    @Test func importDeclarationsAreReadAndCommentsAreNot() {
        let lines: [Substring] = ["import CMpg123", "@preconcurrency import Glibc", "import struct AudioEngine.Tags",
                                  "/// libmpg123's callbacks: see `import CMpg123` above", "#if canImport(Glibc)"]
        #expect(SourceListing.importedModules(in: lines) == ["CMpg123", "Glibc", "AudioEngine"])
    }
}

extension SourceListing {
    /// The modules a Swift file imports: `import X`, `@attribute import X`,
    /// `import struct X.Y`; not the word in a comment.
    static func importedModules(of path: String) throws -> [String] {
        importedModules(in: try lines(of: path))
    }

    static func importedModules(in lines: [Substring]) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "func", "protocol", "var", "let", "typealias"]
        return lines.compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
            let rest = words[(index + 1)...].drop { kinds.contains($0) }
            guard let target = rest.first else { return nil }
            return String(target.split(separator: ".").first ?? target)
        }
    }
}
