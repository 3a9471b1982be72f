import MusicLibrary
import PlayerModel
import Testing
@testable import TUI

/// The library pane's model over an in-memory source that filters by brute force.
@Suite struct LibraryPaneTests {
    final class Rows: LibrarySource {
        var all: [LibraryTrack]
        var problem: String?
        var searches = 0
        init(_ all: [LibraryTrack]) { self.all = all }
        func tracks(matching query: LibraryQuery, sort: TrackSort?, limit: Int) -> [LibraryTrack] {
            searches += 1
            let found = all.filter { query.matches($0) }
            guard let sort else { return Array(found.prefix(limit)) }
            let sorted = sort.column == .title
                ? found.sorted { ($0.title ?? "") < ($1.title ?? "") }
                : found.sorted { ($0.artist ?? "", $0.path) < ($1.artist ?? "", $1.path) }
            return Array((sort.descending ? sorted.reversed() : sorted).prefix(limit))
        }
    }

    static let tracks = [
        LibraryTrack(path: "/m/a/1.mp3", title: "Alpha", artist: "Ann", album: "First", trackNumber: 1, year: 2001),
        LibraryTrack(path: "/m/a/2.mp3", title: "Beta", artist: "Ann", album: "First", trackNumber: 2, year: 2001),
        LibraryTrack(path: "/m/b/1.mp3", title: "Gamma", artist: "Bob", album: "Second", trackNumber: 1, year: 1999),
    ]

    @Test func artistsStartFoldedAndEnterOpensThem() {
        var pane = LibraryPaneModel(source: Rows(Self.tracks))
        #expect(pane.rows == [.artist(name: "Ann", albums: 1, tracks: 2, open: false),
                              .artist(name: "Bob", albums: 1, tracks: 1, open: false)])
        let opened = pane.toggleSelected()
        #expect(opened && pane.rows.count == 3)
        pane.cursor.select(1, count: pane.rows.count)
        let albumOpened = pane.toggleSelected()
        #expect(albumOpened && pane.rows.count == 5)
        pane.cursor.select(3, count: pane.rows.count)
        let trackToggled = pane.toggleSelected()
        #expect(!trackToggled)
        #expect(pane.playContext?.paths == ["/m/a/1.mp3", "/m/a/2.mp3"] && pane.playContext?.start == 1)
    }

    @Test func everyKeyOfTheFilterSearchesAndOpensTheMatches() {
        let source = Rows(Self.tracks)
        var ui = InterfaceState(browser: nil)
        ui.library = LibraryPaneModel(source: source)
        let snapshot = PlayerSnapshot()
        _ = ui.handle(.character("9"), snapshot: snapshot, source: NoFolders())
        #expect(ui.focus == .library)
        _ = ui.handle(.character("/"), snapshot: snapshot, source: NoFolders())
        let before = source.searches
        for character in "gam" { _ = ui.handle(.character(character), snapshot: snapshot, source: NoFolders()) }
        #expect(source.searches == before + 3)
        #expect(ui.library?.rows.last == .track(Self.tracks[2]))
        _ = ui.handle(.named(.enter), snapshot: snapshot, source: NoFolders())
        // On the artist row, e adds the artist's matching tracks.
        let actions = ui.handle(.character("e"), snapshot: snapshot, source: NoFolders())
        #expect(actions == [.player(.enqueue(["/m/b/1.mp3"]))])
    }

    @Test func theTracksViewSortsByTheChosenColumn() {
        var pane = LibraryPaneModel(source: Rows(Self.tracks))
        pane.toggleView()
        #expect(pane.view == .tracks)
        #expect(pane.rows.count == 3)
        while pane.sort.column != .title { pane.cycleSort() }
        #expect(pane.rows.map { if case .track(let t) = $0 { t.title ?? "" } else { "" } } == ["Alpha", "Beta", "Gamma"])
        pane.cursor.select(1, count: 3)
        #expect(pane.playContext?.start == 1 && pane.playContext?.paths.count == 3)
    }

    @Test func withoutALibraryTabSkipsItsPaneAndNineSaysWhy() {
        var ui = InterfaceState(browser: nil)
        ui.focus(.bookmarks)
        _ = ui.handle(.named(.tab), snapshot: PlayerSnapshot(), source: NoFolders())
        #expect(ui.focus == .browser)
        _ = ui.handle(.character("9"), snapshot: PlayerSnapshot(), source: NoFolders())
        #expect(ui.focus == .browser)
        #expect(ui.message?.text.hasPrefix("no music library") == true)
    }
}

struct NoFolders: BrowserSource {
    func entries(in directory: String) -> [BrowserEntry]? { nil }
}
