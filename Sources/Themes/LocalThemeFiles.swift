// FoundationEssentials only for listing a directory and reading a file; it
// brings no ICU and no C module into this target's imports.
import FoundationEssentials

/// `ThemeFileSource` over the real file system.
public struct LocalThemeFiles: ThemeFileSource {
    public init() {}

    public func themeFileNames(in directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(ThemeCatalog.fileExtension) }
    }

    public func text(ofFile path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        // Invalid UTF-8 becomes U+FFFD, which the parser then reports on its line.
        return String(decoding: data, as: UTF8.self)
    }
}
