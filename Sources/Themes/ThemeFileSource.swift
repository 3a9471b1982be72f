/// The two file operations `ThemeCatalog` needs, as a seam so catalog
/// behaviour (order, overriding, errors) is tested without touching disk.
public protocol ThemeFileSource: Sendable {
    /// Names of the `.theme` files directly in `directory`, or none when it
    /// does not exist or cannot be listed (a missing user folder is normal).
    func themeFileNames(in directory: String) -> [String]
    /// The text of the file, or nil when it cannot be read.
    func text(ofFile path: String) -> String?
}
