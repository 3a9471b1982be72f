import AudioSession
import PlayerModel
import Testing
@testable import TUI

/// No screen hint hard-codes a default key. Each names the key
/// bound now, as `sentence(for:)` words a refusal; a command left unbound is
/// worded without a key.
struct ReboundHintWordingTests {
    static let rebound = """
        unbind v
        unbind V
        bind L library-view
        bind K library-sort
        unbind 9
        bind f9 pane-9
        unbind /
        bind F filter
        unbind b
        bind B book-open
        unbind enter
        bind P play-selection
        unbind 8
        bind f8 pane-8
        unbind 4
        bind f4 pane-4
        unbind o
        bind ctrl-o alarm-add
        unbind A
        bind ctrl-a alarm-in
        unbind e
        bind Q queue-add
        unbind w
        bind W queue-save
        unbind space
        bind ctrl-p play-pause
        unbind ?
        bind f1 help
        unbind q
        bind ctrl-q quit
        """
    static let unbound = """
        unbind b
        unbind enter
        unbind 8
        unbind 4
        unbind o
        unbind A
        unbind e
        unbind w
        unbind space
        unbind ?
        unbind 0
        """

    func state(_ keys: String) -> InterfaceState {
        let load = KeyConfigParser.apply(keys, path: "keys")
        #expect(load.problems.isEmpty)
        return InterfaceState(bindings: load.bindings, browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
    }

    /// The status line's message after pressing `keys` (the last one's), with `snapshot`.
    func message(_ ui: inout InterfaceState, _ keys: [Key], _ snapshot: PlayerSnapshot = PlayerSnapshot()) -> String? {
        for key in keys { _ = ui.handle(key, snapshot: snapshot, source: MemoryBrowserSource.library) }
        return ui.message?.text
    }

    var withBook: PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.book = BookInfo(path: "/books/b", title: "b",
                                 chapters: [.init(title: "one", startMilliseconds: 0, durationMilliseconds: 1000)],
                                 currentChapter: 0)
        return snapshot
    }

    @Test("with the default keys the hints read as they always did")
    func defaultHints() {
        var ui = state("")
        #expect(message(&ui, [.character("v")]) == "v and V change the library pane's view (9)")
        #expect(message(&ui, [.character("3"), .character("/")])
                == "/ filters the browser, the queue, the event log or the library")
        #expect(message(&ui, [.character(">")])
                == "chapter-next: no book is playing (b on a book folder in the browser, or enter in the books pane, opens one)")
        #expect(message(&ui, [.character("3"), .named(.delete)], withBook) == "select a bookmark in the bookmarks pane (8) first")
        #expect(message(&ui, [.character("3"), .character("E")]) == "select an alarm in the alarms pane (4) first")
        #expect(message(&ui, [.character("4"), .character("E")]) == "no alarms; o adds one")
        #expect(message(&ui, [.character("2"), .character("b")])
                == "b opens the browser's selection as a book (a folder of audio files or a file with chapters)")
        #expect(message(&ui, [.character("2"), .character("e")]) == "e adds the browser's selection to the queue")
        #expect(Banner(SessionSnapshot(waitingForUser: .routeDisconnected)).text(now: 0, resumeKey: ui.bindings.name(of: .playPause))?
                    .message == "audio paused — press space to resume")
        #expect(ScreenRenderer.footer(ui.bindings) == "? help · tab/0-9 panes · q leave · Q quit")
    }

    @Test("rebound, each hint names the key bound now and none of the defaults")
    func reboundHints() {
        var ui = state(Self.rebound)
        #expect(message(&ui, [.character("L")]) == "L and K change the library pane's view (f9)")
        #expect(message(&ui, [.character("3"), .character("F")])
                == "F filters the browser, the queue, the event log or the library")
        #expect(message(&ui, [.character(">")])
                == "chapter-next: no book is playing (B on a book folder in the browser, or P in the books pane, opens one)")
        #expect(message(&ui, [.character("3"), .named(.delete)], withBook) == "select a bookmark in the bookmarks pane (f8) first")
        #expect(message(&ui, [.character("3"), .character("E")]) == "select an alarm in the alarms pane (f4) first")
        #expect(message(&ui, [.named(.f4), .character("E")]) == "no alarms; ctrl-o adds one")
        #expect(message(&ui, [.character("2"), .character("B")])
                == "B opens the browser's selection as a book (a folder of audio files or a file with chapters)")
        #expect(message(&ui, [.character("2"), .character("Q")]) == "Q adds the browser's selection to the queue")
        #expect(Banner(SessionSnapshot(waitingForUser: .routeDisconnected)).text(now: 0, resumeKey: ui.bindings.name(of: .playPause))?
                    .message == "audio paused — press ctrl-p to resume")
        #expect(ScreenRenderer.footer(ui.bindings) == "f1 help · tab panes · ctrl-q quit")
        for (pane, hint) in [(Pane.playlists, "no playlists yet: W saves the queue as one (P here plays it)"),
                             (.queue, "empty: P or Q in the browser adds files"),
                             (.alarms, "no alarms: ctrl-o adds one, ctrl-a asks for seconds"),
                             (.books, "no books yet: B on a book folder in the browser opens one")] {
            let screen = Self.draw(&ui, pane)
            #expect(screen.contains(hint), "\(hint):\n\(screen)")
        }
    }

    @Test("unbound, a hint is worded without a key")
    func unboundHints() {
        var ui = state(Self.unbound)
        #expect(message(&ui, [.character(">")]) == "chapter-next: no book is playing")
        #expect(message(&ui, [.character("3"), .named(.delete)], withBook) == "select a bookmark in the bookmarks pane first")
        #expect(message(&ui, [.character("3"), .character("E")]) == "select an alarm in the alarms pane first")
        #expect(Banner(SessionSnapshot(waitingForUser: .routeDisconnected)).text(now: 0, resumeKey: ui.bindings.name(of: .playPause))?
                    .message == "audio paused until you play")
        #expect(ScreenRenderer.footer(ui.bindings) == "tab panes · q leave · Q quit")
        for (pane, hint) in [(Pane.playlists, "no playlists yet "), (.queue, "empty "), (.alarms, "no alarms "),
                             (.books, "no books yet ")] {
            let screen = Self.draw(&ui, pane)
            #expect(screen.contains(hint), "\(hint):\n\(screen)")
        }
    }

    /// The screen (200x60) with `pane` focused and shown, empty: its own hint.
    static func draw(_ ui: inout InterfaceState, _ pane: Pane) -> String {
        ui.message = nil
        ui.focus(pane)
        let size = TerminalSize(columns: 200, rows: 60)
        let terminal = InMemoryTerminal(size: size)
        ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0))
        return terminal.screenText
    }
}
