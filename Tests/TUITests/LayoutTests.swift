import Testing
@testable import TUI

struct LayoutTests {
    @Test("every pane is placed inside the screen without overlap at large sizes",
          arguments: [(200, 60), (120, 40), (80, 24)])
    func splitLayoutPlacesEveryPane(columns: Int, rows: Int) {
        for banner in [false, true] {
            let layout = Layout(size: TerminalSize(columns: columns, rows: rows), banner: banner, focus: .browser)
            #expect(layout.mode == .split)
            #expect(Set(layout.panes.keys) == Set(Pane.allCases))
            var covered = Set<Int>()
            for (_, area) in layout.panes {
                #expect(area.height >= 3 && area.width >= 20)
                #expect(area.row >= (banner ? 2 : 1) && area.row + area.height <= layout.statusRow)
                #expect(area.column >= 0 && area.column + area.width <= columns)
                for row in area.row..<(area.row + area.height) {
                    for column in area.column..<(area.column + area.width) {
                        #expect(covered.insert(row * 1000 + column).inserted, "overlap at \(row),\(column)")
                    }
                }
            }
            #expect(layout.statusRow == rows - 2 && layout.commandRow == rows - 1)
        }
    }

    @Test("between 40x12 and 80x24 one pane shows at a time, the focused one",
          arguments: [(40, 12), (79, 30), (120, 20), (60, 15)])
    func singlePaneLayout(columns: Int, rows: Int) {
        for focus in Pane.allCases {
            let layout = Layout(size: TerminalSize(columns: columns, rows: rows), banner: true, focus: focus)
            #expect(layout.mode == .single)
            #expect(Array(layout.panes.keys) == [focus])
            let area = layout.panes[focus]!
            #expect(area.height >= 3)
            #expect(area.row + area.height == layout.statusRow)
        }
    }

    @Test("below 40x12 the terminal is too small", arguments: [(39, 12), (40, 11), (10, 3), (0, 0)])
    func tooSmall(columns: Int, rows: Int) {
        #expect(Layout(size: TerminalSize(columns: columns, rows: rows), banner: false, focus: .browser).mode == .tooSmall)
    }
}
