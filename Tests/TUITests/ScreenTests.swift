import AudioSession
import InterludeCore
import PlayerModel
import Testing
import Themes
@testable import TUI

/// Whole screens drawn into an in-memory terminal.
struct ScreenTests {
    init() { _ = Locale.prepared }

    func snapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.queue = [.init(path: "/music/1 one.mp3", title: "静夜思"), .init(path: "/music/2 two.mp3", title: "Two")]
        snapshot.currentIndex = 0
        snapshot.title = "静夜思"
        snapshot.artist = "李白"
        snapshot.album = "唐詩"
        snapshot.elapsed = 65
        snapshot.duration = 130
        snapshot.state = .playing
        snapshot.alarms = [AlarmRow(id: 1, label: "wake", nextFire: "07:30 tomorrow", schedule: "07:30", isEnabled: true)]
        return snapshot
    }

    func draw(_ size: TerminalSize, _ ui: inout InterfaceState, _ snapshot: PlayerSnapshot, now: Double = 0) -> InMemoryTerminal {
        let terminal = InMemoryTerminal(size: size)
        let presenter = ScreenPresenter(terminal: terminal)
        presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: now))
        return terminal
    }

    @Test("each enabled alarm in the pane says whether it wakes the computer, and why not")
    func alarmRowsSayWhetherTheyWake() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        var snapshot = snapshot()
        snapshot.alarms = [AlarmRow(id: 1, label: "work", nextFire: "07:30", schedule: "07:30", isEnabled: true, wake: "wakes the computer"),
                           AlarmRow(id: 2, label: "nap", nextFire: "15:00", schedule: "15:00", isEnabled: true,
                                    wake: "rings only while the computer is awake (no permission to wake the computer)"),
                           AlarmRow(id: 3, label: "off", nextFire: "", schedule: "09:00", isEnabled: false)]
        let screen = draw(TerminalSize(columns: 200, rows: 60), &ui, snapshot).screenText
        #expect(screen.contains("#1 on   07:30  work  · wakes the computer"), "\(screen)")
        // The pane is narrower than the reason: truncated at its edge.
        #expect(screen.contains("#2 on   15:00  nap  · rings only while the computer is awake (no permission"), "\(screen)")
        #expect(screen.contains("#3 off  —  off "), "\(screen)")
    }

    @Test("at 120x40 every pane's title and content is on screen", arguments: [(200, 60), (120, 40), (80, 24)])
    func everyPaneAtLargeSizes(columns: Int, rows: Int) {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        ui.record(TimedPlayerEvent(time: 1.5, event: .trackStarted(index: 0, path: "/music/1 one.mp3")))
        let screen = draw(TerminalSize(columns: columns, rows: rows), &ui, snapshot()).screenText
        for title in ["1 Browser", "2 Queue", "3 Now playing", "4 Alarms", "5 Event log"] {
            #expect(screen.contains(title), "\(title) missing:\n\(screen)")
        }
        #expect(screen.contains("Albums/"))
        #expect(screen.contains("1:05 / 2:10"))
        #expect(screen.contains("#1 on   07:30 tomorrow  wake"))
        #expect(screen.contains("1.500 trackStarted path=/music/1 one.mp3"))
        #expect(screen.contains("李白 — 唐詩"))
    }

    @Test("at 40x12 each pane shows when chosen, with the tabs")
    func smallScreenShowsEachPane() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        let titles: [Pane: String] = [.browser: "Browser", .queue: "Queue", .nowPlaying: "Now playing",
                                      .alarms: "Alarms", .eventLog: "Event log"]
        // The book panes (6-8) have tests of their own (BookPaneTests).
        for pane in Pane.allCases where titles[pane] != nil {
            _ = ui.handle(Key.character(Character(String(pane.rawValue))), snapshot: snapshot(), source: MemoryBrowserSource.library)
            let terminal = draw(TerminalSize(columns: 40, rows: 12), &ui, snapshot())
            #expect(terminal.line(1).hasPrefix("1 Browse 2 Queue 3 Now 4 Alarms 5 Log"))
            #expect(terminal.screenText.contains(" \(pane.rawValue) \(titles[pane]!)"), "\(terminal.screenText)")
            for row in 0..<12 {
                #expect(TextWidth.columns(of: terminal.line(row)) == 40, "row \(row) is not 40 columns")
            }
        }
    }

    @Test("below 40x12 the screen says it is too small")
    func tooSmall() {
        var ui = InterfaceState(browser: nil)
        let screen = draw(TerminalSize(columns: 30, rows: 8), &ui, snapshot()).screenText
        #expect(screen.contains("terminal too small"))
        #expect(screen.contains("30x8, needs 40x12"))
    }

    @Test("the banner line holds the exact text, styled as the banner")
    func bannerLine() {
        var ui = InterfaceState(browser: nil)
        var snapshot = snapshot()
        snapshot.session = SessionSnapshot(interruption: .init(source: .session(SessionID(rawValue: 2), .alarm), willResume: true))
        let terminal = draw(TerminalSize(columns: 120, rows: 40), &ui, snapshot, now: 1)
        #expect(terminal.line(1).hasPrefix(" audio paused, will resume after alarm"))
        #expect(terminal.cells[1][2].element == .banner)
    }

    @Test("queue rows with CJK titles keep their columns")
    func cjkQueueLinesUp() {
        var ui = InterfaceState(browser: nil)
        var snapshot = snapshot()
        snapshot.queue = [.init(path: "/a", title: "静夜思 — 李白"), .init(path: "/b", title: "さくら"),
                          .init(path: "/c", title: "plain ascii")]
        let terminal = draw(TerminalSize(columns: 80, rows: 24), &ui, snapshot)
        let layout = Layout(size: TerminalSize(columns: 80, rows: 24), banner: false, focus: .queue)
        let queue = layout.panes[.queue]!
        for row in (queue.row + 1)...(queue.row + 3) {
            // The separator to the left and the right edge stay in place on every row.
            #expect(terminal.cells[row][queue.column - 1].text == "│")
            #expect(TextWidth.columns(of: terminal.line(row)) == 80)
        }
    }

    @Test("nothing is sent to the terminal when nothing changed; a change sends only its cells")
    func redrawsOnlyWhatChanged() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        let size = TerminalSize(columns: 120, rows: 40)
        let terminal = InMemoryTerminal(size: size)
        let presenter = ScreenPresenter(terminal: terminal)
        var snapshot = snapshot()
        #expect(presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0)))
        let refreshes = terminal.refreshCount, puts = terminal.putCount
        for _ in 0..<10 {
            #expect(!presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0)))
        }
        #expect(terminal.refreshCount == refreshes && terminal.putCount == puts)
        snapshot.elapsed = 66
        #expect(presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0)))
        #expect(terminal.refreshCount == refreshes + 1)
        #expect(terminal.putCount - puts <= 4, "only the time and bar changed: \(terminal.putCount - puts) puts")
        #expect(terminal.screenText.contains("1:06 / 2:10"))
    }

    @Test("every shipped element draws in monochrome with the fallback attributes")
    func monochrome() {
        let rendering = Theme.standard.rendering(for: .monochrome)
        #expect(rendering.colorPairs.isEmpty)
        #expect(rendering[.banner].attributes == [.reverse, .bold])
        #expect(rendering[.selectedRowFocused].attributes == .reverse)
    }

    @Test("help lists every action with its keys")
    func helpListsEveryBinding() {
        var ui = InterfaceState(browser: nil)
        _ = ui.handle(Key.character("?"), snapshot: snapshot(), source: MemoryBrowserSource.library)
        var seen = Set<String>()
        for _ in 0..<20 {
            let terminal = draw(TerminalSize(columns: 120, rows: 40), &ui, snapshot())
            for action in KeyAction.allCases where terminal.screenText.contains(action.rawValue) { seen.insert(action.rawValue) }
            _ = ui.handle(.named(.pageDown), snapshot: snapshot(), source: MemoryBrowserSource.library)
        }
        #expect(seen == Set(KeyAction.allCases.map(\.rawValue)))
    }
}

extension ScreenTests {
    @Test("after a resize the presenter repaints the whole screen at the new size")
    func resizeRepaints() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        let terminal = InMemoryTerminal(size: TerminalSize(columns: 120, rows: 40))
        let presenter = ScreenPresenter(terminal: terminal)
        presenter.present(ScreenRenderer().frame(size: terminal.size, state: &ui, snapshot: snapshot(), now: 0))
        for size in [TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 30, rows: 8), TerminalSize(columns: 90, rows: 30)] {
            terminal.resize(to: size)
            presenter.invalidate()
            let clears = terminal.clearCount
            presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot(), now: 0))
            #expect(terminal.clearCount == clears + 1)
            let expected = ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot(), now: 0)
            for row in 0..<size.rows { #expect(terminal.line(row) == expected.line(row), "row \(row) at \(size)") }
        }
        #expect(terminal.line(0).hasPrefix(" Interlude"))
    }

    @Test("/ in the event log keeps only the matching events")
    func logFilter() {
        var ui = InterfaceState(browser: nil)
        ui.record(TimedPlayerEvent(time: 1, event: .trackStarted(index: 0, path: "/music/1 one.mp3")))
        ui.record(TimedPlayerEvent(time: 2, event: .interruption(InterruptionNotification(
            kind: .began, options: [], reason: .default, wasSuspended: false, interruptionID: InterruptionID(rawValue: 1),
            source: .session(SessionID(rawValue: 2), .alarm), time: .origin))))
        ui.record(TimedPlayerEvent(time: 3, event: .paused(position: 2)))
        _ = ui.handle(Key.character("5"), snapshot: snapshot(), source: MemoryBrowserSource.library)
        for key in [Key.character("/")] + "began".map({ Key.character($0) }) + [Key.named(.enter)] {
            _ = ui.handle(key, snapshot: snapshot(), source: MemoryBrowserSource.library)
        }
        #expect(ui.visibleLog.map(\.name) == ["interruption"])
        // Wide enough for the whole line: a typed interruption prints all its fields.
        let screen = draw(TerminalSize(columns: 240, rows: 40), &ui, snapshot()).screenText
        #expect(screen.contains("2.000 interruption type=began options=[] reason=default wasSuspended=false id=1 source=alarm"))
        #expect(!screen.contains("3.000 paused"))
    }
}
