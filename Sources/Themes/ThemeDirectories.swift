/// Where themes are looked for, in precedence order: the user's folder,
/// then the shipped themes: the repository's `themes/` when running from a
/// development build, else the installed copy beside the binary's prefix.
public enum ThemeDirectories {
    /// Below the installation prefix (`make install`'s `PREFIX`, `/usr` in the package).
    public static let installedBelowPrefix = "share/interlude/themes"

    /// `$XDG_CONFIG_HOME/interlude/themes`, given the resolved config home.
    public static func user(configHome: String) -> String {
        (configHome.hasSuffix("/") ? configHome : configHome + "/") + "interlude/themes"
    }

    /// The repository's `themes/` when the executable lives under a SwiftPM
    /// `.build` folder, else nil.
    ///
    /// The binary is `<root>/.build/debug/interlude`, but `/proc/self/exe`
    /// resolves the `debug` symlink to `<root>/.build/<triple>/debug/...`, and
    /// a scratch path adds levels of its own; so rather than a fixed
    /// `../../themes`, take whatever precedes the last `.build` component.
    public static func development(executablePath: String) -> String? {
        let components = executablePath.split(separator: "/", omittingEmptySubsequences: false)
        guard let build = components.lastIndex(of: ".build") else { return nil }
        let root = components[..<build].joined(separator: "/")
        if root.isEmpty { return executablePath.hasPrefix("/") ? "/themes" : "themes" }
        return root + "/themes"
    }

    /// `PREFIX/share/interlude/themes` for an executable `PREFIX/bin/interlude`
    /// (`/proc/self/exe`, symlinks resolved): wherever the tree was installed
    /// or unpacked, its themes are found. Nil for a path without two components
    /// above the binary.
    public static func installed(executablePath: String) -> String? {
        var components = executablePath.split(separator: "/", omittingEmptySubsequences: false)
        // The binary's own name, then its folder (`bin`): what is left is the prefix.
        guard components.count >= 3 else { return nil }
        components.removeLast(2)
        let prefix = components.joined(separator: "/")
        return (prefix.isEmpty && executablePath.hasPrefix("/") ? "" : prefix) + "/" + installedBelowPrefix
    }

    /// The folders the app hands to `ThemeCatalog`: the build tree's themes
    /// only when running from it, so an installed binary never reads a source tree.
    public static func standard(configHome: String, executablePath: String) -> [String] {
        let shipped = development(executablePath: executablePath) ?? installed(executablePath: executablePath)
        return [user(configHome: configHome)] + [shipped].compactMap { $0 }
    }
}
