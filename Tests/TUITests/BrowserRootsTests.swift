import PlayerModel
import Testing
@testable import TUI

/// The browser reaches above the music folder (`..` at its top too, `~` the
/// home folder) and the books folder is a root of its own; a book's file
/// there opens the book, never music from 0:00.
struct BrowserRootsTests {
    static let source = MemoryBrowserSource(folders: [
        "/home/ann": [BrowserEntry(name: "Audiobooks", path: "/home/ann/Audiobooks", isDirectory: true),
                      BrowserEntry(name: "Music", path: "/home/ann/Music", isDirectory: true)],
        "/home/ann/Music": [BrowserEntry(name: "Mira Voss", path: "/home/ann/Music/Mira Voss", isDirectory: true)],
        "/home/ann/Music/Mira Voss": [
            BrowserEntry(name: "Second", path: "/home/ann/Music/Mira Voss/Second", isDirectory: true),
            BrowserEntry(name: "First", path: "/home/ann/Music/Mira Voss/First", isDirectory: true),
            BrowserEntry(name: "loose.mp3", path: "/home/ann/Music/Mira Voss/loose.mp3", isDirectory: false),
            BrowserEntry(name: "The Keeper.m4b", path: "/home/ann/Music/Mira Voss/The Keeper.m4b", isDirectory: false),
        ],
        "/home/ann/Music/Mira Voss/First": [
            BrowserEntry(name: "10 b.mp3", path: "/home/ann/Music/Mira Voss/First/10 b.mp3", isDirectory: false),
            BrowserEntry(name: "2 a.mp3", path: "/home/ann/Music/Mira Voss/First/2 a.mp3", isDirectory: false),
        ],
        "/home/ann/Music/Mira Voss/Second": [
            BrowserEntry(name: "1 c.mp3", path: "/home/ann/Music/Mira Voss/Second/1 c.mp3", isDirectory: false),
        ],
        "/home/ann/Audiobooks": [
            BrowserEntry(name: "Harbour Tales", path: "/home/ann/Audiobooks/Harbour Tales", isDirectory: true),
            BrowserEntry(name: "Keeper.m4b", path: "/home/ann/Audiobooks/Keeper.m4b", isDirectory: false),
        ],
        "/home/ann/Audiobooks/Harbour Tales": [
            BrowserEntry(name: "01.mp3", path: "/home/ann/Audiobooks/Harbour Tales/01.mp3", isDirectory: false),
            BrowserEntry(name: "02.mp3", path: "/home/ann/Audiobooks/Harbour Tales/02.mp3", isDirectory: false),
        ],
    ])

    func press(_ state: inout InterfaceState, _ keys: [Key]) -> [InterfaceAction] {
        keys.flatMap { state.handle($0, snapshot: PlayerSnapshot(), source: Self.source) }
    }

    func state() -> InterfaceState {
        InterfaceState(browser: BrowserModel(root: "/home/ann/Music", books: "/home/ann/Audiobooks", home: "/home/ann",
                                             source: Self.source))
    }

    @Test("the music folder's top offers .. and the books folder; the books folder's top offers the way back")
    func rootsAndParent() {
        var ui = state()
        #expect(ui.browser?.visible.map(\.title) == ["..", "books: ~/Audiobooks", "Mira Voss"])
        #expect(ui.browser?.selected?.name == "Mira Voss")
        _ = press(&ui, [.named(.up), .named(.enter)])
        #expect(ui.browser?.directory == "/home/ann/Audiobooks")
        #expect(ui.browser?.visible.map(\.title) == ["..", "music: ~/Music", "Harbour Tales", "Keeper.m4b"])
        #expect(ui.browser?.selected?.title == "music: ~/Music", "the way back is selected, as .. selects the folder left")
        _ = press(&ui, [.named(.enter)])
        #expect(ui.browser?.directory == "/home/ann/Music")
        _ = press(&ui, [.named(.home), .named(.enter)])
        #expect(ui.browser?.directory == "/home/ann", "above the music folder")
        #expect(ui.browser?.selected?.name == "Music")
    }

    @Test("~ goes to the home folder, whichever pane is focused")
    func home() {
        var ui = state()
        _ = press(&ui, [Key.character("2"), Key.character("~")])
        #expect(ui.focus == .browser && ui.browser?.directory == "/home/ann")
        #expect(ui.browser?.selected?.name == "Audiobooks")
    }

    @Test("in the books folder enter on a file opens its book (the folder, or a file loose there); b too; an M4B is a book anywhere")
    func booksOpenAsBooks() {
        var ui = state()
        _ = press(&ui, [.named(.up), .named(.enter), .named(.down)])
        #expect(ui.browser?.selected?.name == "Harbour Tales")
        _ = press(&ui, [.named(.enter), .named(.down), .named(.down)])
        #expect(ui.browser?.selected?.name == "02.mp3")
        #expect(press(&ui, [.named(.enter)]) == [.player(.openBook("/home/ann/Audiobooks/Harbour Tales"))])
        #expect(press(&ui, [Key.character("b")]) == [.player(.openBook("/home/ann/Audiobooks/Harbour Tales"))])
        _ = press(&ui, [.named(.home), .named(.enter), .named(.end)])
        #expect(press(&ui, [.named(.enter)]) == [.player(.openBook("/home/ann/Audiobooks/Keeper.m4b"))])

        var music = state()
        _ = press(&music, [.named(.enter), .named(.end)])
        #expect(press(&music, [.named(.enter)]) == [.player(.openBook("/home/ann/Music/Mira Voss/The Keeper.m4b"))])
        // Any other file in the music folder is music.
        #expect(press(&music, [.named(.up), .named(.enter)])
                == [.player(.playQueue(["/home/ann/Music/Mira Voss/loose.mp3", "/home/ann/Music/Mira Voss/The Keeper.m4b"],
                                       startAt: 0))])
    }

    @Test("e on a folder adds its audio files and its folders', in the browser's order, folders first, natural order")
    func addAFolderRecursively() {
        var ui = state()
        #expect(press(&ui, [Key.character("e")]) == [.player(.enqueue([
            "/home/ann/Music/Mira Voss/First/2 a.mp3", "/home/ann/Music/Mira Voss/First/10 b.mp3",
            "/home/ann/Music/Mira Voss/Second/1 c.mp3",
            "/home/ann/Music/Mira Voss/loose.mp3", "/home/ann/Music/Mira Voss/The Keeper.m4b",
        ]))])
        // The ways up and across are not folders to add.
        _ = press(&ui, [.named(.home)])
        #expect(press(&ui, [Key.character("e")]).isEmpty)
        _ = press(&ui, [.named(.down)])
        #expect(press(&ui, [Key.character("e")]).isEmpty)
    }
}
