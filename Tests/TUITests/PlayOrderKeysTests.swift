import PlayerModel
import Testing
@testable import TUI

/// Shuffle, repeat and saving the queue: their keys send the player's
/// commands, and the status line shows the play order.
struct PlayOrderKeysTests {
    init() { _ = Locale.prepared }
    let source = MemoryBrowserSource.library

    func press(_ ui: inout InterfaceState, _ keys: [Key], _ snapshot: PlayerSnapshot = PlayerSnapshot()) -> [InterfaceAction] {
        keys.flatMap { ui.handle($0, snapshot: snapshot, source: source) }
    }

    @Test("u toggles shuffle, r cycles repeat, w asks for a playlist name and saves the queue under it")
    func keys() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        #expect(press(&ui, [.character("u"), .character("r")]) == [.player(.toggleShuffle), .player(.cycleRepeat)])
        #expect(press(&ui, [.character("w")]).isEmpty)
        #expect(ui.prompt == .playlistName)
        #expect(press(&ui, "Road trip".map { $0 == " " ? Key.named(.space) : Key.character($0) } + [.named(.enter)])
            == [.player(.saveQueue(path: "Road trip"))])
        // An empty name saves nothing.
        _ = press(&ui, [.character("w")])
        #expect(press(&ui, [.named(.enter)]).isEmpty)
    }

    @Test("the status line shows shuffle and repeat while they are on")
    func statusLine() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        var snapshot = PlayerSnapshot()
        snapshot.state = .playing
        let size = TerminalSize(columns: 80, rows: 24)
        func status() -> String {
            let terminal = InMemoryTerminal(size: size)
            ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0))
            return terminal.line(22)
        }
        #expect(!status().contains("shuffle") && !status().contains("repeat"))
        snapshot.shuffle = true
        snapshot.repeatMode = "all"
        #expect(status().hasPrefix(" playing · vol 100% · shuffle · repeat all"), "\(status())")
        snapshot.shuffle = false
        snapshot.repeatMode = "one"
        #expect(status().hasPrefix(" playing · vol 100% · repeat one"), "\(status())")
    }
}
