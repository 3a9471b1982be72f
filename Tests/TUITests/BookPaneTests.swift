import PlayerModel
import Testing
@testable import TUI

/// The books, chapters and bookmarks panes, the sleep timer in the status
/// line, and the audiobook keys, drawn into an in-memory terminal.
struct BookPaneTests {
    init() { _ = Locale.prepared }
    let source = MemoryBrowserSource.library

    static let chapters: [BookInfo.Chapter] = [
        .init(title: "Opening Credits", startMilliseconds: 0, durationMilliseconds: 20_000),
        .init(title: "第二章 帰郷", startMilliseconds: 20_000, durationMilliseconds: 754_000),
        .init(title: "Épilogue", startMilliseconds: 774_000, durationMilliseconds: 3_600_000),
    ]

    func snapshot(sleep: (String, Double)? = nil) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.title = "The Book"
        snapshot.state = .playing
        snapshot.elapsed = 30
        snapshot.duration = 4374
        snapshot.book = BookInfo(path: "/books/The Book", title: "The Book", chapters: Self.chapters, currentChapter: 1,
                                 bookmarks: [.init(id: 1, positionMilliseconds: 65_000, note: "the twist"),
                                             .init(id: 3, positionMilliseconds: 3_725_000, note: nil)],
                                 sleepSetting: sleep?.0, sleepRemaining: sleep?.1)
        snapshot.books = [
            BookRow(path: "/books/The Book", title: "The Book", author: "A. Writer", percent: 1, timeLeft: 4344,
                    isCurrent: true),
            BookRow(path: "/books/Other", title: "Other", author: nil, percent: 100, timeLeft: 0, isCurrent: false),
        ]
        return snapshot
    }

    func state() -> InterfaceState { InterfaceState(browser: BrowserModel(root: "/music", source: source)) }

    func press(_ ui: inout InterfaceState, _ keys: [Key], _ snapshot: PlayerSnapshot) -> [InterfaceAction] {
        keys.flatMap { ui.handle($0, snapshot: snapshot, source: source) }
    }

    /// What keys send the player: its own commands.
    func player(_ commands: [PlayerCommand]) -> [InterfaceAction] { commands.map(InterfaceAction.player) }

    func draw(_ size: TerminalSize, _ ui: inout InterfaceState, _ snapshot: PlayerSnapshot) -> InMemoryTerminal {
        let terminal = InMemoryTerminal(size: size)
        ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0))
        return terminal
    }

    @Test("the chapters pane lists number, title, start and duration, right-aligned, the current chapter marked")
    func chaptersPane() {
        var ui = state()
        _ = press(&ui, [.character("7")], snapshot())
        let terminal = draw(TerminalSize(columns: 120, rows: 40), &ui, snapshot())
        let screen = terminal.screenText
        #expect(screen.contains(" 7 Chapters: The Book"), "\(screen)")
        let rows = (0..<40).map(terminal.line)
        let first = rows.first { $0.contains("1. Opening Credits") } ?? ""
        let second = rows.first { $0.contains("2. 第二章 帰郷") } ?? ""
        let third = rows.first { $0.contains("3. Épilogue") } ?? ""
        #expect(first.contains(" 1. Opening Credits") && first.hasSuffix("0:00   0:20 "), "\(first)")
        #expect(second.contains("▸2. 第二章 帰郷") && second.hasSuffix("0:20  12:34 "), "\(second)")
        #expect(third.hasSuffix("12:54  1:00:00 "), "\(third)")
        // The numbers end in the same column whatever the title's width.
        #expect(TextWidth.columns(of: first) == TextWidth.columns(of: second))
        // In the split layout the chapters pane takes the queue's place.
        #expect(!screen.contains("2 Queue"))
        #expect(screen.contains("1 Browser"))
    }

    @Test("entering the chapters pane selects the chapter heard now; enter jumps to the selected one")
    func chapterJump() {
        var ui = state()
        #expect(press(&ui, [.character("7")], snapshot()).isEmpty)
        #expect(ui.chaptersCursor.selection == 1)
        #expect(press(&ui, [.named(.down), .named(.enter)], snapshot()) == player([.jumpToChapter(2)]))
        #expect(press(&ui, [.named(.up), .named(.up), .named(.enter)], snapshot()) == player([.jumpToChapter(0)]))
    }

    @Test("the books pane: title, author, percent and time left; enter opens the selected book")
    func booksPane() {
        var ui = state()
        _ = press(&ui, [.character("6")], snapshot())
        let terminal = draw(TerminalSize(columns: 120, rows: 40), &ui, snapshot())
        let rows = (0..<40).map(terminal.line)
        let current = rows.first { $0.contains("The Book — A. Writer") } ?? ""
        let other = rows.first { $0.contains(" Other ") } ?? ""
        // Right-aligned in the pane (the split layout's left place, before its separator).
        #expect(current.contains("  1%  1:12:24 left │"), "\(current)")
        #expect(other.contains("100%  0:00 left │"), "\(other)")
        #expect(terminal.screenText.contains(" 6 Books (2)"))
        // The books pane takes the browser's place.
        #expect(!terminal.screenText.contains("1 Browser"))
        #expect(press(&ui, [.named(.down), .named(.enter)], snapshot()) == player([.openBook("/books/Other")]))
        #expect(press(&ui, [.character("b")], snapshot()) == player([.openBook("/books/Other")]))
    }

    @Test("m asks for a note; the bookmarks pane lists them; enter jumps, delete deletes the selected one")
    func bookmarks() {
        var ui = state()
        #expect(press(&ui, [.character("m")], snapshot()).isEmpty)
        #expect(ui.prompt == .bookmarkNote)
        let typed = "a note".map { Key.character($0) }
        #expect(press(&ui, typed + [.named(.enter)], snapshot()) == player([.addBookmark(note: "a note")]))
        #expect(press(&ui, [.character("m"), .named(.enter)], snapshot()) == player([.addBookmark(note: nil)]))
        // Delete acts only in the bookmarks pane.
        #expect(press(&ui, [.named(.delete)], snapshot()).isEmpty)
        #expect(ui.message?.text.contains("bookmarks pane (8)") == true)
        _ = press(&ui, [.character("8")], snapshot())
        let terminal = draw(TerminalSize(columns: 80, rows: 24), &ui, snapshot())
        #expect(terminal.screenText.contains(" #1  1:05  the twist"), "\(terminal.screenText)")
        #expect(terminal.screenText.contains(" #3  1:02:05"))
        #expect(press(&ui, [.named(.down), .named(.enter)], snapshot()) == player([.jumpToBookmark(id: 3)]))
        #expect(press(&ui, [.named(.delete)], snapshot()) == player([.deleteBookmark(id: 3)]))
    }

    @Test("the book keys send their commands while a book plays, and say why not otherwise")
    func bookKeys() {
        var ui = state()
        #expect(press(&ui, [".", ",", ">", "<", "S"].map { Key.character($0) }, snapshot())
                == player([.skipForward, .skipBack, .chapterNext, .chapterPrevious, .cycleSleepTimer]))
        var music = snapshot()
        music.book = nil
        #expect(press(&ui, [.character(">")], music).isEmpty)
        #expect(ui.message?.text.hasPrefix("chapter-next: no book is playing") == true)
        // b on a browser folder opens it as a book; on "..", nothing.
        #expect(press(&ui, [.character("1"), .character("b")], music) == player([.openBook("/music/Albums")]))
    }

    @Test("the sleep timer's countdown in the status line")
    func sleepTimerStatus() {
        var ui = state()
        let minutes = draw(TerminalSize(columns: 80, rows: 24), &ui, snapshot(sleep: ("15 min", 899.2))).line(22)
        #expect(minutes.hasPrefix(" playing · vol 100% · sleep 15:00"), "\(minutes)")
        let chapter = draw(TerminalSize(columns: 80, rows: 24), &ui, snapshot(sleep: ("end of chapter", 61))).line(22)
        #expect(chapter.hasPrefix(" playing · vol 100% · sleep at chapter end 1:01"), "\(chapter)")
        let off = draw(TerminalSize(columns: 80, rows: 24), &ui, snapshot()).line(22)
        #expect(!off.contains("sleep"))
    }

    @Test("at 40x12 the book panes show by digit, drawn whole, with the tabs numbered")
    func smallLayout() {
        var ui = state()
        for (digit, title) in [("6", " 6 Books (2)"), ("7", " 7 Chapters: The Book"), ("8", " 8 Bookmarks: The Book")] {
            _ = press(&ui, [.character(Character(digit))], snapshot())
            let terminal = draw(TerminalSize(columns: 40, rows: 12), &ui, snapshot())
            #expect(terminal.screenText.contains(title), "\(terminal.screenText)")
            #expect(terminal.line(1).hasPrefix("1 2 3 4 5 "), "\(terminal.line(1))")
            for row in 0..<12 { #expect(TextWidth.columns(of: terminal.line(row)) == 40) }
        }
        // Without a book the tab row names the five panes as before.
        var music = snapshot()
        music.book = nil
        _ = press(&ui, [.character("1")], music)
        #expect(draw(TerminalSize(columns: 40, rows: 12), &ui, music).line(1).hasPrefix("1 Browse 2 Queue 3 Now 4 Alarms 5 Log"))
    }
}
