/// Why `ThemeCatalog` could not produce a theme for a name.
public enum ThemeCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `NAME.theme` in any searched folder.
    case unknownTheme(name: String, searched: [String], available: [String])
    /// The file is listed but could not be read (permissions, removed meanwhile).
    case unreadable(path: String)

    public var description: String {
        switch self {
        case let .unknownTheme(name, searched, available):
            "no theme named '\(name)'; looked in \(searched.joined(separator: ", ")) (available: \(available.joined(separator: ", ")))"
        case let .unreadable(path):
            "cannot read theme file \(path); check that it exists and is readable"
        }
    }
}
