import Testing

/// The player must not link any Foundation module: statically linked
/// FoundationEssentials alone costs about 2.5 MB of resident memory. Every
/// module under Sources/ is checked (the libFuzzer replayer excepted, which
/// is not part of the player); tests may import Foundation freely.
struct FoundationFreeSourcesTests {
    static let foundationModules: Set<String> = ["Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"]
    static let excludedModules: Set<String> = ["ChapterFuzzer"]

    @Test func noSourceOutsideTheFuzzerImportsAFoundationModule() throws {
        let sources = PureModuleImportTests.sourcesDirectory()
        let files = try SourceListing.swiftFiles(in: sources)
            .filter { file in !Self.excludedModules.contains(where: { file.hasPrefix(sources + "/" + $0 + "/") }) }
        #expect(files.count > 50, "expected the whole source tree under \(sources)")
        var offenders: [String] = []
        for file in files {
            for line in try SourceListing.lines(of: file) {
                if let module = Self.importedModule(line), Self.foundationModules.contains(module) {
                    offenders.append("\(file): \(line.trimmingPrefixWhitespace)")
                }
            }
        }
        #expect(offenders.isEmpty, "Foundation imported by:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the import scanner sees every spelling of an import", arguments: [
        ("import Foundation", "Foundation"),
        ("@preconcurrency import FoundationEssentials", "FoundationEssentials"),
        ("@_exported import FoundationInternationalization", "FoundationInternationalization"),
        ("import struct FoundationEssentials.Date", "FoundationEssentials"),
        ("  import Foundation // indented in an #if", "Foundation"),
        ("// import Foundation", nil),
        ("/// Foundation is not imported here", nil),
    ])
    func importScannerSeesEverySpelling(line: String, module: String?) {
        #expect(Self.importedModule(Substring(line)) == module)
    }

    /// The module an `import` declaration names, or nil for any other line.
    static func importedModule(_ line: Substring) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
              words[..<importIndex].allSatisfy({ $0.hasPrefix("@") }) else { return nil }
        let kinds: Set<Substring> = ["struct", "class", "enum", "func", "protocol", "var", "let", "typealias"]
        let target = kinds.contains(words[importIndex + 1]) && importIndex + 2 < words.count ? words[importIndex + 2] : words[importIndex + 1]
        return String(target.split(separator: ".").first ?? target)
    }
}

private extension Substring {
    var trimmingPrefixWhitespace: Substring { drop(while: { $0 == " " || $0 == "\t" }) }
}
