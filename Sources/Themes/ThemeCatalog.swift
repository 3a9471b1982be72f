/// The themes available by name, from an ordered list of folders.
///
/// `directories` is in precedence order, highest first: a `NAME.theme` in an
/// earlier folder hides one of the same name in a later folder, which is how
/// a user theme overrides a shipped one. The app decides the list (see
/// `ThemeDirectories.standard`); folders that do not exist are skipped.
/// `default` is always available: when no folder has `default.theme` it is
/// the built-in `Theme.standard`.
public struct ThemeCatalog: Sendable {
    public static let fileExtension = ".theme"
    public static let defaultName = "default"

    public let directories: [String]
    private let files: any ThemeFileSource

    public init(directories: [String], files: any ThemeFileSource = LocalThemeFiles()) {
        self.directories = directories
        self.files = files
    }

    /// Every theme name, `default` first, then the rest sorted by name.
    /// Read from disk on each call, so a theme added while running shows up.
    public func names() -> [String] {
        var names: Set<String> = [Self.defaultName]
        for directory in directories {
            for file in files.themeFileNames(in: directory) {
                let name = String(file.dropLast(Self.fileExtension.count))
                if !name.isEmpty { names.insert(name) }
            }
        }
        names.remove(Self.defaultName)
        return [Self.defaultName] + names.sorted()
    }

    /// The file a name resolves to, or nil (also for `default` when it is built in).
    public func path(of name: String) -> String? {
        // A name is a file name, never a path: `--theme ../x` must not reach outside the folders.
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let file = name + Self.fileExtension
        for directory in directories where files.themeFileNames(in: directory).contains(file) {
            return directory.hasSuffix("/") ? directory + file : directory + "/" + file
        }
        return nil
    }

    /// Reads and parses the theme. Problems in the file do not throw: the
    /// result then carries them and the default theme (see `ThemeLoad`).
    public func load(_ name: String) throws(ThemeCatalogError) -> ThemeLoad {
        guard let path = path(of: name) else {
            if name == Self.defaultName {
                return ThemeLoad(requestedName: name, path: "", theme: .standard, problems: [])
            }
            throw .unknownTheme(name: name, searched: directories, available: names())
        }
        guard let text = files.text(ofFile: path) else { throw .unreadable(path: path) }
        return ThemeParser.parse(text, name: name, path: path)
    }

    /// The theme after `current` in `names()`, wrapping around; the first
    /// theme when `current` has gone. What the theme-cycle key steps through.
    public func name(after current: String) -> String {
        let all = names()
        guard let index = all.firstIndex(of: current) else { return all[0] }
        return all[(index + 1) % all.count]
    }
}
