/// Where themes are looked for, in precedence order: the user's folder,
/// then the repository's `themes/` when running from a development build,
/// then the installed copy.
public enum ThemeDirectories {
    public static let installed = "/usr/local/share/interlude/themes"

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

    /// The folders the app hands to `ThemeCatalog`.
    public static func standard(configHome: String, executablePath: String) -> [String] {
        [user(configHome: configHome)] + [development(executablePath: executablePath)].compactMap { $0 } + [installed]
    }
}
