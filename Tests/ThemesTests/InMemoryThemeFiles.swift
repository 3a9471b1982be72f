@testable import Themes

/// Theme folders held in a dictionary (path -> text), for catalog tests.
struct InMemoryThemeFiles: ThemeFileSource {
    var files: [String: String]
    /// Files listed in a folder but unreadable, like a file with mode 000.
    var unreadable: Set<String> = []

    func themeFileNames(in directory: String) -> [String] {
        (Array(files.keys) + unreadable).compactMap { path in
            guard let slash = path.lastIndex(of: "/"), path[..<slash] == directory else { return nil }
            let name = String(path[path.index(after: slash)...])
            return name.hasSuffix(".theme") ? name : nil
        }
    }

    func text(ofFile path: String) -> String? { unreadable.contains(path) ? nil : files[path] }
}
