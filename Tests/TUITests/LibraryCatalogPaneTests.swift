import MusicLibrary
import PlayerModel
import Testing
@testable import TUI

/// The unfiltered tree over a library larger than a search brings in: every
/// artist from the source's catalog, an artist's albums read by id when it
/// is opened; a filter or the tracks view searches as before.
@Suite struct LibraryCatalogPaneTests {
    /// An in-memory index of `count` one-track artists: a search returns at
    /// most `limit` in the order they were found; the catalog knows them all.
    final class LargeLibrary: LibrarySource {
        let all: [LibraryTrack]
        var problem: String?
        var readByID: [[Int64]] = []
        /// Zero-padded, so the tree's order is the ids' order.
        static func name(_ index: Int) -> String {
            let digits = String(index)
            return "Artist " + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        }
        init(count: Int) {
            all = (0..<count).map { LibraryTrack(path: "/m/\($0)/1.mp3", title: "Song \($0)", artist: LargeLibrary.name($0),
                                                  album: "Album \($0)", trackNumber: 1) }
        }
        func tracks(matching query: LibraryQuery, sort: TrackSort?, limit: Int) -> [LibraryTrack] {
            Array(all.filter { query.matches($0) }.prefix(limit))
        }
        var catalog: LibraryCatalog? {
            LibraryCatalog(rows: all.enumerated().map { (Int64($0.offset), $0.element) })
        }
        func tracks(ids: [Int64]) -> [LibraryTrack] {
            readByID.append(ids)
            return ids.map { all[Int($0)] }
        }
    }

    @Test func theUnfilteredTreeListsEveryArtistAndReadsAnOpenedOne() {
        let count = LibraryPaneModel.limit + 500
        let source = LargeLibrary(count: count)
        var pane = LibraryPaneModel(source: source)
        #expect(pane.rows.count == count && pane.trackCount == count && !pane.isTruncated)
        #expect(pane.rows.last == .artist(name: LargeLibrary.name(count - 1), albums: 1, tracks: 1, open: false))
        #expect(source.readByID.isEmpty)
        // The last artist, far past what a search brings in: opened, its album read by id.
        pane.cursor.select(count - 1, count: pane.rows.count)
        let openedArtist = pane.toggleSelected()
        #expect(openedArtist)
        #expect(source.readByID == [[Int64(count - 1)]])
        #expect(pane.rows.count == count + 1)
        #expect(pane.rows.last == .album(artist: LargeLibrary.name(count - 1), title: "Album \(count - 1)",
                                         year: nil, tracks: 1, open: false))
        pane.cursor.select(count, count: pane.rows.count)
        let openedAlbum = pane.toggleSelected()
        #expect(openedAlbum)
        #expect(pane.rows.last == .track(source.all[count - 1]))
        pane.cursor.select(count + 1, count: pane.rows.count)
        #expect(pane.playContext?.paths == [source.all[count - 1].path])
        // Read once while it stays open.
        #expect(source.readByID.count == 1)
    }

    @Test func eOnAnUnopenedArtistAddsItsTracks() {
        let source = LargeLibrary(count: LibraryPaneModel.limit + 10)
        var ui = InterfaceState(browser: nil)
        ui.library = LibraryPaneModel(source: source)
        _ = ui.handle(.character("9"), snapshot: PlayerSnapshot(), source: NoFolders())
        _ = ui.handle(.character("G"), snapshot: PlayerSnapshot(), source: NoFolders())
        let actions = ui.handle(.character("e"), snapshot: PlayerSnapshot(), source: NoFolders())
        #expect(actions == [.player(.enqueue([source.all.last!.path]))])
    }

    @Test func aFilterAndTheTracksViewSearchAsBefore() {
        let source = LargeLibrary(count: LibraryPaneModel.limit + 10)
        var pane = LibraryPaneModel(source: source)
        pane.setFilter("artist")
        #expect(pane.trackCount == LibraryPaneModel.limit && pane.isTruncated)
        pane.setFilter("")
        #expect(pane.trackCount == LibraryPaneModel.limit + 10 && !pane.isTruncated)
        pane.toggleView()
        #expect(pane.view == .tracks && pane.rows.count == LibraryPaneModel.limit && pane.isTruncated)
    }

    /// A cut list brings in more as the selection nears its end, through the
    /// layout pass that scrolls it: four times as many tracks, the selected
    /// row kept, until the matches run out; a new filter starts small again.
    @Test func scrollingNearTheEndOfACutListBringsInMore() {
        let count = LibraryPaneModel.limit * 4 + 100
        let source = LargeLibrary(count: count)
        var ui = InterfaceState(browser: nil)
        ui.library = LibraryPaneModel(source: source)
        _ = ui.handle(.character("9"), snapshot: PlayerSnapshot(), source: NoFolders())
        ui.library?.setFilter("song")
        #expect(ui.library?.trackCount == LibraryPaneModel.limit && ui.library?.isTruncated == true)
        let size = TerminalSize(columns: 100, rows: 30)
        _ = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0)
        // The first screenful is far from the end: nothing more read.
        #expect(ui.library?.searchLimit == LibraryPaneModel.limit)
        // The last row selected: the next frame brings in four times as many, the row still selected.
        let last = ui.library!.rows.count - 1
        let lastRow = ui.library!.rows[last]
        let rowCount = ui.library!.rows.count
        ui.library?.cursor.select(last, count: rowCount)
        _ = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0)
        #expect(ui.library?.searchLimit == LibraryPaneModel.limit * 4)
        #expect(ui.library?.trackCount == LibraryPaneModel.limit * 4 && ui.library?.isTruncated == true)
        #expect(ui.library?.selected == lastRow)
        // Once more at the end: every match, nothing cut.
        let grown = ui.library!.rows.count
        ui.library?.cursor.select(grown - 1, count: grown)
        _ = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0)
        #expect(ui.library?.trackCount == count && ui.library?.isTruncated == false)
        ui.library?.setFilter("song 1")
        #expect(ui.library?.searchLimit == LibraryPaneModel.limit)
    }

    /// A pane made not loaded reads nothing until the layout pass shows it.
    final class CountingLibrary: LibrarySource {
        var searches = 0
        var problem: String? { nil }
        func tracks(matching query: LibraryQuery, sort: TrackSort?, limit: Int) -> [LibraryTrack] {
            searches += 1
            return [LibraryTrack(path: "/m/a.mp3", title: "A", artist: "Ann", album: "One", trackNumber: 1)]
        }
    }

    @Test func aPaneNotLoadedReadsItsRowsWhenItFirstShows() {
        let source = CountingLibrary()
        var ui = InterfaceState(browser: nil)
        ui.library = LibraryPaneModel(source: source, loaded: false)
        let size = TerminalSize(columns: 100, rows: 30)
        _ = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0)
        #expect(source.searches == 0 && ui.library?.isLoaded == false)
        _ = ui.handle(.character("9"), snapshot: PlayerSnapshot(), source: NoFolders())
        _ = ScreenLayoutPass().arrange(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0)
        #expect(source.searches == 1 && ui.library?.rows.first == .artist(name: "Ann", albums: 1, tracks: 1, open: false))
    }
}
