import PlayerModel
import Testing
@testable import TUI

/// The queue pane's edits from the keys: remove (Backspace, and Delete in
/// the queue pane), move up and down (K, J), a marked range (y), each a row
/// of the command table; the selection and the mark follow their entries.
struct QueueEditKeysTests {
    let source = MemoryBrowserSource.library

    func press(_ state: inout InterfaceState, _ keys: [Key], snapshot: PlayerSnapshot) -> [InterfaceAction] {
        keys.flatMap { state.handle($0, snapshot: snapshot, source: source) }
    }

    func queue(_ names: [String]) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.queue = names.map { .init(path: "/m/\($0).mp3", title: $0) }
        snapshot.currentIndex = 0
        snapshot.state = .playing
        return snapshot
    }

    func inQueuePane() -> InterfaceState {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        ui.focus(.queue)
        return ui
    }

    @Test("backspace and delete remove the queue pane's selection, any entry (the playing one too); elsewhere they say where to select")
    func removeTheSelection() {
        let snapshot = queue(["a", "b", "c", "d"])
        var ui = inQueuePane()
        #expect(press(&ui, [.named(.down), .named(.down), .named(.backspace)], snapshot: snapshot)
                == [.player(.editQueue(.drop(from: 2, count: 1)))])
        #expect(press(&ui, [.named(.home), .named(.delete)], snapshot: snapshot) == [.player(.editQueue(.drop(from: 0, count: 1)))])
        // The table's rows, with their keys and the socket's names.
        #expect(KeyBindings.defaults.action(for: .named(.backspace)) == .queueRemove)
        #expect(KeyAction.queueRemove.entry.frontEnds.contains(.socket))

        var browsing = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        #expect(press(&browsing, [.named(.backspace)], snapshot: snapshot).isEmpty)
        #expect(browsing.message?.text == "select entries in the queue pane (2) first")
        // Delete outside the queue pane is still the bookmarks' key.
        #expect(press(&browsing, [.named(.delete)], snapshot: snapshot).isEmpty)
        #expect(browsing.message?.text.hasPrefix("bookmark-delete: no book is playing") == true)
    }

    @Test("y marks an entry: the edits take every entry from the mark to the selection, either way; y again unmarks")
    func markedRange() {
        let snapshot = queue(["a", "b", "c", "d", "e"])
        var ui = inQueuePane()
        _ = press(&ui, [.named(.down), Key.character("y"), .named(.down), .named(.down)], snapshot: snapshot)
        #expect(ui.queueMarkedRange(snapshot) == 1...3)
        #expect(press(&ui, [.named(.backspace)], snapshot: snapshot) == [.player(.editQueue(.drop(from: 1, count: 3)))])
        #expect(ui.queueMark == nil, "a removal ends the mark")
        // Marked below the selection.
        _ = press(&ui, [.named(.end), Key.character("y"), .named(.up)], snapshot: snapshot)
        #expect(ui.queueEditRange(snapshot) == 3...4)
        _ = press(&ui, [.named(.down), Key.character("y")], snapshot: snapshot)
        #expect(ui.queueMark == nil && ui.queueEditRange(snapshot) == 4...4)
    }

    @Test("K and J move the selection (or the marked entries) a place up or down; the selection and the mark follow; at an end nothing is sent")
    func moves() {
        let snapshot = queue(["a", "b", "c", "d", "e"])
        var ui = inQueuePane()
        _ = press(&ui, [.named(.down), .named(.down)], snapshot: snapshot)
        #expect(press(&ui, [Key.character("K")], snapshot: snapshot) == [.player(.editQueue(.shift(from: 2, count: 1, by: -1)))])
        #expect(ui.queueCursor.selection == 1, "the selection follows the entry up")
        #expect(press(&ui, [Key.character("J")], snapshot: snapshot) == [.player(.editQueue(.shift(from: 1, count: 1, by: 1)))])
        #expect(ui.queueCursor.selection == 2)
        // A marked pair, b and c, moved down: both follow.
        _ = press(&ui, [.named(.up), Key.character("y"), .named(.down)], snapshot: snapshot)
        #expect(press(&ui, [Key.character("J")], snapshot: snapshot) == [.player(.editQueue(.shift(from: 1, count: 2, by: 1)))])
        #expect(ui.queueMark == 2 && ui.queueCursor.selection == 3)
        // At the top, nothing to send.
        var top = inQueuePane()
        #expect(press(&top, [Key.character("K")], snapshot: snapshot).isEmpty)
        _ = press(&top, [.named(.end)], snapshot: snapshot)
        #expect(press(&top, [Key.character("J")], snapshot: snapshot).isEmpty)
    }

    @Test("with the queue filtered, an edit names the entry's place in the whole queue and the selection stays on it")
    func filteredQueue() {
        let snapshot = queue(["alpha", "beta", "gamma", "alpine"])
        var ui = inQueuePane()
        _ = press(&ui, [Key.character("/")] + "alp".map { Key.character($0) } + [.named(.enter)], snapshot: snapshot)
        #expect(ui.visibleQueue(snapshot).map(\.index) == [0, 3])
        _ = press(&ui, [.named(.down)], snapshot: snapshot)
        #expect(press(&ui, [Key.character("K")], snapshot: snapshot) == [.player(.editQueue(.shift(from: 3, count: 1, by: -1)))])
        #expect(ui.queueCursor.selection == 1, "alpine, now third in the queue, is still the second row shown")
    }

    @Test("a book's files are its queue: the edits say so and send nothing")
    func bookRefuses() {
        var snapshot = queue(["ch1", "ch2"])
        snapshot.bookPath = "/books/b"
        snapshot.book = BookInfo(path: "/books/b", title: "B", chapters: [], currentChapter: 0)
        var ui = inQueuePane()
        #expect(press(&ui, [.named(.backspace)], snapshot: snapshot).isEmpty)
        #expect(ui.message?.text == "a book is playing: its files are its queue")
    }

    @Test("enter on a book's entry in the queue pane keeps it the book: another file is a jump in it, the one that plays plays on")
    func enterKeepsTheBook() {
        var snapshot = queue(["ch1", "ch2", "ch3"])
        snapshot.bookPath = "/books/b"
        snapshot.state = .paused
        var ui = inQueuePane()
        #expect(press(&ui, [.named(.enter)], snapshot: snapshot) == [.player(.play)])
        #expect(press(&ui, [.named(.down), .named(.down), .named(.enter)], snapshot: snapshot)
                == [.player(.jump(toQueueIndex: 2, play: true))])
        // Music: the queue plays from the entry, as before.
        snapshot.bookPath = nil
        #expect(press(&ui, [.named(.enter)], snapshot: snapshot)
                == [.player(.playQueue(["/m/ch1.mp3", "/m/ch2.mp3", "/m/ch3.mp3"], startAt: 2))])
    }
}
