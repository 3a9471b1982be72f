import PlayerModel
import Testing
@testable import TUI

/// A pane's picture in the frame: placed in the pane's picture
/// area, sent as runs of its own colours, and gone from the screen when the
/// pane no longer has it.
struct PanePictureTests {
    init() { _ = Locale.prepared }

    func snapshot() -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.title = "Covered"
        snapshot.artist = "Artist"
        snapshot.state = .playing
        snapshot.elapsed = 3
        snapshot.duration = 30
        return snapshot
    }

    func picture(_ size: TerminalSize) -> PictureCells {
        PictureCells(size: size, rows: (0..<size.rows).map { row in
            (0..<size.columns).map { column in
                PictureCells.Cell(symbol: "▀", colors: CellColors(foreground: .palette(16 + row), background: .palette(100 + column)))
            }
        })
    }

    @Test("the now-playing pane's picture goes below its four lines, in its own colours, and leaves when taken away")
    func placedAndCleared() throws {
        let size = TerminalSize(columns: 60, rows: 30)
        let terminal = InMemoryTerminal(size: size)
        let presenter = ScreenPresenter(terminal: terminal)
        var ui = InterfaceState(browser: nil)
        ui.focus(.nowPlaying)
        let arrangement = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: snapshot(), now: 0)
        let paneArea = try #require(arrangement.layout.panes[.nowPlaying])
        let area = try #require(ScreenRenderer.pictureArea(for: .nowPlaying, paneArea: paneArea))
        #expect(area.row == paneArea.row + 6 && area.column == 1 && area.width == 58)
        ui.pictures[.nowPlaying] = .symbols(picture(TerminalSize(columns: 40, rows: area.height)))
        presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot(), now: 0))
        #expect(terminal.screenText.contains("Covered"))
        for row in 0..<area.height {
            let cells = terminal.cells[area.row + row]
            #expect(cells[area.column].text == "▀")
            #expect(cells[area.column].colors == CellColors(foreground: .palette(16 + row), background: .palette(100)))
            #expect(cells[area.column + 39].colors?.background == .palette(139))
            #expect(cells[area.column + 40].colors == nil && cells[area.column + 40].text == " ")
        }
        // The next track has no picture yet: the cells are blank again, in the pane's element.
        ui.pictures = [:]
        presenter.present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot(), now: 0))
        for row in 0..<area.height {
            #expect(terminal.cells[area.row + row].allSatisfy { $0.colors == nil })
        }
        #expect(terminal.screenText.contains("Covered"))
    }

    @Test("a picture made for a larger area waits for one made for this size; a short pane has it at its right")
    func sizes() throws {
        let content = Rect(row: 10, column: 0, width: 80, height: 4)
        let right = try #require(ScreenRenderer.pictureArea(for: .nowPlaying, content: content))
        #expect(right == Rect(row: 10, column: 71, width: 8, height: 4))
        var ui = InterfaceState(browser: nil)
        ui.focus(.nowPlaying)
        ui.pictures[.nowPlaying] = .symbols(picture(TerminalSize(columns: 70, rows: 40)))
        let frame = ScreenRenderer().frame(size: TerminalSize(columns: 60, rows: 30), state: &ui, snapshot: snapshot(), now: 0)
        #expect(frame.cells.allSatisfy { $0.allSatisfy { $0.colors == nil } })
    }
}
