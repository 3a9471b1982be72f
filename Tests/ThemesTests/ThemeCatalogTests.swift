import FoundationEssentials
import Testing
@testable import Themes

/// Finding themes by name across the user's and the shipped folders.
struct ThemeCatalogTests {
    static let user = "/home/u/.config/interlude/themes"
    static let shipped = "/repo/themes"
    static let installed = "/usr/local/share/interlude/themes"

    private func catalog(_ files: [String: String], unreadable: Set<String> = []) -> ThemeCatalog {
        ThemeCatalog(directories: [Self.user, Self.shipped, Self.installed],
                     files: InMemoryThemeFiles(files: files, unreadable: unreadable))
    }

    @Test("names list default first, then every other theme once, sorted, from all folders")
    func namesAreStableWithDefaultFirst() {
        let catalog = catalog([
            "\(Self.shipped)/light.theme": "", "\(Self.shipped)/default.theme": "", "\(Self.shipped)/256.theme": "",
            "\(Self.user)/zebra.theme": "", "\(Self.user)/light.theme": "", "\(Self.installed)/high-contrast.theme": "",
            "\(Self.shipped)/README": "", "\(Self.shipped)/.theme": "",
        ])
        #expect(catalog.names() == ["default", "256", "high-contrast", "light", "zebra"])
    }

    @Test("default is listed and loads as the built-in theme when no folder has it")
    func defaultIsAlwaysAvailable() throws {
        let catalog = catalog([:])
        #expect(catalog.names() == ["default"])
        let load = try catalog.load("default")
        #expect(load.theme == Theme.standard)
        #expect(load.problems == [])
    }

    @Test("a user theme overrides the shipped theme of the same name")
    func userThemeOverridesShipped() throws {
        let catalog = catalog([
            "\(Self.shipped)/light.theme": "banner = black white",
            "\(Self.user)/light.theme": "banner = black yellow",
            "\(Self.installed)/light.theme": "banner = black green",
        ])
        let load = try catalog.load("light")
        #expect(load.path == "\(Self.user)/light.theme")
        #expect(load.theme.name == "light")
        #expect(load.theme[.banner] == ThemeStyle(.index(0), .index(3)))
    }

    @Test("the shipped folder wins over the installed one")
    func shippedOverridesInstalled() throws {
        let catalog = catalog(["\(Self.shipped)/x.theme": "banner = black white", "\(Self.installed)/x.theme": "banner = black green"])
        #expect(try catalog.load("x").theme[.banner].background == .index(7))
    }

    @Test("a user's broken default is reported and the built-in default is used")
    func brokenUserDefaultFallsBackToBuiltIn() throws {
        let load = try catalog(["\(Self.user)/default.theme": "banner = black\n"]).load("default")
        #expect(load.problems.map(\.description) == ["\(Self.user)/default.theme:1: missing background colour for 'banner'"])
        #expect(load.theme == Theme.standard)
    }

    @Test("an unknown name is an error naming it, the folders searched and the themes there are")
    func unknownNameIsClearError() {
        let catalog = catalog(["\(Self.shipped)/light.theme": ""])
        #expect(throws: ThemeCatalogError.unknownTheme(name: "solarized", searched: [Self.user, Self.shipped, Self.installed],
                                                       available: ["default", "light"])) {
            try catalog.load("solarized")
        }
        let message = ThemeCatalogError.unknownTheme(name: "solarized", searched: [Self.user, Self.shipped], available: ["default"]).description
        #expect(message == "no theme named 'solarized'; looked in \(Self.user), \(Self.shipped) (available: default)")
    }

    @Test("a name that is a path is unknown, never a file outside the folders", arguments: ["../light", "/repo/themes/light", "", "light.theme"])
    func pathLikeNamesAreUnknown(name: String) {
        let catalog = catalog(["\(Self.shipped)/light.theme": ""])
        #expect(throws: ThemeCatalogError.self) { try catalog.load(name) }
    }

    @Test("a listed file that cannot be read is an error naming the path")
    func unreadableFileIsError() {
        let path = "\(Self.user)/locked.theme"
        #expect(throws: ThemeCatalogError.unreadable(path: path)) { try catalog([:], unreadable: [path]).load("locked") }
    }

    @Test("theme cycling steps through names in order and wraps, restarting when the current theme has gone")
    func cyclingWraps() {
        let catalog = catalog(["\(Self.shipped)/light.theme": "", "\(Self.shipped)/256.theme": ""])
        #expect(catalog.name(after: "default") == "256")
        #expect(catalog.name(after: "256") == "light")
        #expect(catalog.name(after: "light") == "default")
        #expect(catalog.name(after: "removed") == "default")
    }

    @Test("the real file system: user folder overrides, missing folders are skipped")
    func realFolders() throws {
        let root = "/tmp/interlude-themes-test-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["user", "shipped"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        }
        try Data("banner = black white\n".utf8).write(to: URL(fileURLWithPath: "\(root)/shipped/mine.theme"))
        try Data("banner = black blue\nbad line\n".utf8).write(to: URL(fileURLWithPath: "\(root)/user/mine.theme"))
        try Data("not a theme".utf8).write(to: URL(fileURLWithPath: "\(root)/shipped/notes.txt"))
        let catalog = ThemeCatalog(directories: ["\(root)/user", "\(root)/missing", "\(root)/shipped"])
        #expect(catalog.names() == ["default", "mine"])
        let load = try catalog.load("mine")
        #expect(load.problems.map(\.description) == ["\(root)/user/mine.theme:2: expected 'element = foreground background [attributes]'"])
        #expect(load.theme == Theme.standard)
    }

    static let executables: [(String, String?)] = [
        ("/work/repo/.build/debug/interlude", "/work/repo/themes"),
        ("/work/repo/.build/x86_64-unknown-linux-gnu/release/interlude", "/work/repo/themes"),
        ("/work/repo/.build/tsan/debug/interlude", "/work/repo/themes"),
        (".build/debug/interlude", "themes"),
        ("/usr/local/bin/interlude", nil),
    ]

    @Test("a development build finds the repository's themes folder from the executable's path", arguments: executables)
    func developmentFolderFromExecutable(executable: String, expected: String?) {
        #expect(ThemeDirectories.development(executablePath: executable) == expected)
    }

    @Test("an installed binary finds the themes below its own prefix, wherever that is",
          arguments: [("/usr/local/bin/interlude", "/usr/local/share/interlude/themes"),
                      ("/usr/bin/interlude", "/usr/share/interlude/themes"),
                      ("/tmp/root/opt/x/bin/interlude", "/tmp/root/opt/x/share/interlude/themes"),
                      ("/bin/interlude", "/share/interlude/themes")])
    func installedFolderFromExecutable(executable: String, expected: String) {
        #expect(ThemeDirectories.installed(executablePath: executable) == expected)
    }

    @Test("the standard folders are the user's, then the repository's in development or else the installed one")
    func standardFolders() {
        #expect(ThemeDirectories.standard(configHome: "/home/u/.config", executablePath: "/r/.build/debug/interlude")
                == ["/home/u/.config/interlude/themes", "/r/themes"])
        #expect(ThemeDirectories.standard(configHome: "/cfg/", executablePath: "/usr/local/bin/interlude")
                == ["/cfg/interlude/themes", "/usr/local/share/interlude/themes"])
        #expect(ThemeDirectories.standard(configHome: "/cfg", executablePath: "/opt/i/bin/interlude")
                == ["/cfg/interlude/themes", "/opt/i/share/interlude/themes"])
    }
}
