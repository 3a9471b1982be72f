import PlayerModel
import Testing
@testable import TUI

/// The layout pass is the one step that moves scroll offsets and the page
/// size; drawing an arrangement changes nothing and gives the same cells.
struct ScreenLayoutPassTests {
    init() { _ = Locale.prepared }

    func longQueue(_ count: Int) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.queue = (1...count).map { .init(path: "/music/\($0).mp3", title: "Track \($0)") }
        return snapshot
    }

    @Test func theLayoutPassScrollsTheFocusedListToItsSelectionAndSetsThePageSize() throws {
        let snapshot = longQueue(60)
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        ui.focus(.queue)
        _ = ui.handle(.character("G"), snapshot: snapshot, source: MemoryBrowserSource.library)
        #expect(ui.queueCursor.selection == 59)
        #expect(ui.queueCursor.offset == 0, "nothing scrolls before a layout")

        let size = TerminalSize(columns: 80, rows: 24)
        let arrangement = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: snapshot, now: 0)
        let area = try #require(arrangement.layout.panes[.queue])
        let rows = try #require(arrangement.visibleRows[.queue])
        #expect(rows.count == area.height - 1, "the pane's rows below its title")
        #expect(rows.contains(59) && rows.upperBound == 60)
        #expect(ui.queueCursor.offset == rows.lowerBound)
        #expect(ui.pageSize == area.height - 2)
    }

    @Test func drawingAnArrangementIsPure() {
        let snapshot = longQueue(60)
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        ui.focus(.queue)
        _ = ui.handle(.character("G"), snapshot: snapshot, source: MemoryBrowserSource.library)
        let size = TerminalSize(columns: 80, rows: 24)
        let arrangement = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: snapshot, now: 0)
        let before = (ui.queueCursor, ui.pageSize, ui.browser?.cursor)
        let first = ScreenRenderer().draw(arrangement, state: ui, snapshot: snapshot)
        let second = ScreenRenderer().draw(arrangement, state: ui, snapshot: snapshot)
        #expect(first == second)
        #expect(before.0 == ui.queueCursor && before.1 == ui.pageSize && before.2 == ui.browser?.cursor)
        // The one-step renderer is the pass followed by the draw.
        var again = ui
        #expect(ScreenRenderer().frame(size: size, state: &again, snapshot: snapshot, now: 0) == first)
    }
}
