import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// The library pane's searches read only the columns it shows; what they
/// read is what a full read gives, row for row.
@Suite(.serialized) struct LibrarySearchColumnsTests {
    @Test func theShownColumnsAreTheFullRowsOwn() throws {
        let library = try LibraryIndexTests.makeLibrary(files: 120)
        let (index, _, _) = try LibraryIndexTests.scan(library)
        for text in ["", "song", "曲", "artist:zoe", "year:197"] {
            let query = LibraryQuery(text)
            for sort in [nil, TrackSort(column: .title)] {
                let full = try index.search(query, sort: sort, limit: 2000)
                let shown = try index.search(query, sort: sort, limit: 2000, columns: .shown)
                #expect(shown.map(\.path) == full.map(\.path), "\(text)")
                for (a, b) in zip(full, shown) {
                    #expect(a.title == b.title && a.artist == b.artist && a.album == b.album && a.albumArtist == b.albumArtist)
                    #expect(a.trackNumber == b.trackNumber && a.discNumber == b.discNumber && a.year == b.year)
                    #expect(a.durationSeconds == b.durationSeconds && a.displayTitle == b.displayTitle)
                }
                #expect(shown.isEmpty == full.isEmpty)
            }
        }
        // Searched again, a cached statement gives the same rows.
        #expect(try index.search(LibraryQuery("song"), limit: 5, columns: .shown).map(\.path)
            == index.search(LibraryQuery("song"), limit: 5).map(\.path))
    }
}
