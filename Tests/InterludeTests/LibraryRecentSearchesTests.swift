import LibraryIO
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// The pane's recent searches are given back only while the index is
/// unchanged, and only for the same query, sort and limit.
@Suite(.serialized) struct LibraryRecentSearchesTests {
    @Test func aSearchMadeBeforeIsGivenBackUntilTheIndexChanges() throws {
        var recent = LibraryRecentSearches()
        var searches = 0
        func look(_ text: String, sort: TrackSort? = nil, version: Int64) throws -> [String] {
            try recent.tracks(for: LibraryQuery(text), sort: sort, limit: 2000, version: version) { () throws(SQLiteError) in
                searches += 1
                return [LibraryTrack(path: "/m/\(text)-\(searches).mp3")]
            }.map(\.path)
        }
        #expect(try look("so", version: 1) == ["/m/so-1.mp3"])
        #expect(try look("son", version: 1) == ["/m/son-2.mp3"])
        #expect(try look("so", version: 1) == ["/m/so-1.mp3"])
        #expect(try look("so", sort: TrackSort(), version: 1) == ["/m/so-3.mp3"])
        // Another connection committed: everything is searched again.
        #expect(try look("so", version: 2) == ["/m/so-4.mp3"])
        #expect(try look("son", version: 2) == ["/m/son-5.mp3"])
        #expect(searches == 5)
        // The oldest goes first once more searches than it keeps were made.
        for number in 0..<LibraryRecentSearches.capacity { _ = try look("w\(number)", version: 2) }
        let evicted = 5 + LibraryRecentSearches.capacity + 1
        #expect(try look("so", version: 2) == ["/m/so-\(evicted).mp3"])
        #expect(searches == evicted)
    }

    @Test func theDataVersionMovesWhenAnotherConnectionCommits() throws {
        let directory = ScratchFiles.makeDirectory("library-version")
        let reader = try LibraryIndex(path: directory + "/library.sqlite")
        let writer = try LibraryIndex(path: directory + "/library.sqlite")
        let before = try reader.dataVersion()
        #expect(try reader.dataVersion() == before)
        _ = try reader.search(LibraryQuery("x"))
        #expect(try reader.dataVersion() == before)
        try writer.store([LibraryTrack(path: directory + "/a.mp3", title: "amber")])
        #expect(try reader.dataVersion() != before)
    }
}
