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
}
