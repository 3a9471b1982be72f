import BookFormat
import Foundation
import PlayerModel
import Testing
@testable import TUI

/// The lyrics pane drawn into an in-memory terminal: the
/// line at the heard position in the playing row's colours and kept in view,
/// untimed lyrics scrolled by the keys, the one problem line, "no lyrics".
struct LyricsPaneTests {
    init() { _ = Locale.prepared }
    let source = MemoryBrowserSource.library
    static let size = TerminalSize(columns: 120, rows: 40)

    static let timed = Lyrics(content: .synced((0..<60).map { .init(milliseconds: 1000 + $0 * 2000, text: "timed \($0)") }),
                              source: "Song.lrc")

    func snapshot(heard seconds: Double, bookElapsed: Double? = nil) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.queue = [.init(path: "/music/Song.mp3", title: "Song")]
        snapshot.currentIndex = 0
        snapshot.title = "Song"
        snapshot.state = .playing
        snapshot.elapsed = bookElapsed ?? seconds
        snapshot.fileElapsed = seconds
        snapshot.duration = 200
        return snapshot
    }

    func shown(_ lyrics: Lyrics?, heard: Double, keys: [Key] = [], bookElapsed: Double? = nil) -> InMemoryTerminal {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        ui.lyricsPane.show(lyrics, of: "/music/Song.mp3")
        let snapshot = snapshot(heard: heard, bookElapsed: bookElapsed)
        for key in [Key.character("L")] + keys { _ = ui.handle(key, snapshot: snapshot, source: source) }
        let terminal = InMemoryTerminal(size: Self.size)
        ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: Self.size, state: &ui, snapshot: snapshot, now: 0))
        return terminal
    }

    /// The rows whose text contains `text`, and whether each is drawn as the playing row.
    func rows(_ terminal: InMemoryTerminal, _ text: String) -> [Bool] {
        (0..<Self.size.rows).compactMap { row in
            let line = terminal.line(row)
            guard line.contains(text + " ") || line.hasSuffix(text) || line.contains(text + "│") else { return nil }
            return terminal.cells[row].contains { $0.element == .playingRow && !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        }
    }

    @Test("the line whose time was last passed is the playing row, kept in view, at each heard position")
    func highlightFollowsTheHeardPosition() {
        for (heard, line) in [(1.0, 0), (2.999, 0), (3.0, 1), (60.5, 29), (118.0, 58), (150.0, 59)] {
            let terminal = shown(Self.timed, heard: heard)
            #expect(terminal.screenText.contains("L Lyrics (Song.lrc, timed)"))
            #expect(rows(terminal, "timed \(line)") == [true], "at \(heard) s: \(terminal.screenText)")
            #expect(rows(terminal, "timed \(line == 0 ? 1 : line - 1)") != [true])
        }
        // Before the first line nothing is lit, and the pane starts at the top.
        let early = shown(Self.timed, heard: 0.5)
        #expect(rows(early, "timed 0") == [false])
    }

    @Test("a book's lyrics follow the heard position in its file, not in the book")
    func bookFollowsTheFile() {
        let terminal = shown(Self.timed, heard: 7.2, bookElapsed: 3600)
        #expect(rows(terminal, "timed 3") == [true], "\(terminal.screenText)")
    }

    @Test("the window keeps the heard line a third of the way down and stops at the ends")
    func window() {
        var pane = LyricsPaneModel()
        pane.show(Self.timed, of: "a")
        #expect(pane.window(height: 9, atMilliseconds: 0) == (0..<9, nil))
        #expect(pane.window(height: 9, atMilliseconds: 41_000) == (17..<26, 20))
        #expect(pane.window(height: 9, atMilliseconds: 200_000) == (51..<60, 59))
        #expect(pane.window(height: 0, atMilliseconds: 41_000) == (0..<0, nil))
    }

    @Test("untimed lyrics scroll with the keys; the problem line and 'no lyrics' take one row")
    func untimedProblemAndNone() {
        let untimed = Lyrics(content: .unsynced((0..<80).map { "words \($0)" }), source: "ID3 USLT",
                             problem: "ID3 USLT: longer than the 20000 lines (1 MB) kept; the rest is not shown")
        let top = shown(untimed, heard: 10)
        #expect(top.screenText.contains("L Lyrics (ID3 USLT)"))
        #expect(top.screenText.contains(" ID3 USLT: longer than the 20000 lines"))
        #expect(rows(top, "words 0") == [false])
        let scrolled = shown(untimed, heard: 10, keys: [.named(.down), .named(.down), .named(.down)])
        #expect(rows(scrolled, "words 0").isEmpty && rows(scrolled, "words 3") == [false], "\(scrolled.screenText)")
        let none = shown(nil, heard: 10)
        #expect(none.screenText.contains(" no lyrics"), "\(none.screenText)")
        #expect(none.screenText.contains("3 Now playing"))
    }
}
