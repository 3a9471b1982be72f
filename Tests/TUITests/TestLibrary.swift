import TUI
#if canImport(Glibc)
import Glibc
#endif

/// A folder tree in memory for the browser.
struct MemoryBrowserSource: BrowserSource {
    var folders: [String: [BrowserEntry]]

    func entries(in directory: String) -> [BrowserEntry]? { folders[directory] }

    static let library = MemoryBrowserSource(folders: [
        "/music": [
            BrowserEntry(name: "Albums", path: "/music/Albums", isDirectory: true),
            BrowserEntry(name: "10 ten.mp3", path: "/music/10 ten.mp3", isDirectory: false, title: "Ten"),
            BrowserEntry(name: "2 two.mp3", path: "/music/2 two.mp3", isDirectory: false, title: "Two"),
            BrowserEntry(name: "1 one.mp3", path: "/music/1 one.mp3", isDirectory: false, title: "静夜思", artist: "李白"),
        ],
        "/music/Albums": [
            BrowserEntry(name: "a.mp3", path: "/music/Albums/a.mp3", isDirectory: false, title: "さくら"),
        ],
    ])
}

enum Locale {
    /// wcwidth needs a UTF-8 locale; the app sets it at start, tests here.
    static let prepared: Bool = {
        TextWidth.prepareLocale()
        return true
    }()
}
