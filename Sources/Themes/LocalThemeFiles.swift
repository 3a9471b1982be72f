import InterludeCore

/// `ThemeFileSource` over the real file system, through InterludeCore's
/// small C wrappers, so Themes itself imports neither C nor Foundation.
public struct LocalThemeFiles: ThemeFileSource {
    public init() {}

    public func themeFileNames(in directory: String) -> [String] {
        (DirectoryListing.names(in: directory) ?? []).filter { $0.hasSuffix(ThemeCatalog.fileExtension) }
    }

    public func text(ofFile path: String) -> String? {
        guard let bytes = try? StateFile(path: path).read() else { return nil }
        // Invalid UTF-8 becomes U+FFFD, which the parser then reports on its line.
        return String(decoding: bytes, as: UTF8.self)
    }
}
