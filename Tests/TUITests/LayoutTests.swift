import Testing
@testable import TUI

struct LayoutTests {
    @Test("every pane is placed inside the screen without overlap at large sizes",
          arguments: [(200, 60), (120, 40), (80, 24)])
    func splitLayoutPlacesEveryPane(columns: Int, rows: Int) {
        for banner in [false, true] {
            let layout = Layout(size: TerminalSize(columns: columns, rows: rows), banner: banner, focus: .browser)
            #expect(layout.mode == .split)
            #expect(Set(layout.panes.keys) == [.browser, .queue, .nowPlaying, .alarms, .eventLog])
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

    @Test("in the split layout a book pane takes its place while focused, and keeps it after")
    func bookPanesShareSlots() {
        let size = TerminalSize(columns: 120, rows: 40)
        let standard = Layout(size: size, banner: false, focus: .browser)
        let books = Layout(size: size, banner: false, focus: .books)
        #expect(books.panes[.books] == standard.panes[.browser] && books.panes[.browser] == nil)
        let chapters = Layout(size: size, banner: false, focus: .chapters, topLeft: .books)
        #expect(chapters.panes[.chapters] == standard.panes[.queue] && chapters.panes[.books] == standard.panes[.browser])
        let later = Layout(size: size, banner: false, focus: .alarms, topLeft: .books, topRight: .bookmarks)
        #expect(Set(later.panes.keys) == [.books, .bookmarks, .nowPlaying, .alarms, .eventLog])
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
