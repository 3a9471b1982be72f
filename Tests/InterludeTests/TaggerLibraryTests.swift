import LibraryIO
import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// The library over `TaggerLibrary` (seven taggers spelling one
/// artist, an album of two artists in three taggers' list forms): the
/// scanner's index gives a tree with that artist once, its album's tracks in
/// track order; the album of two artists is under either artist and found by
/// searching either, in the index and through the real binary's
/// `library search`.
@Suite(.serialized) struct TaggerLibraryTests {
    static let artist = TaggerLibrary.artist
    static let album = TaggerLibrary.album

    @Test func oneArtistOnceInTrackOrderAndADuetUnderEitherArtist() throws {
        let library = try TaggerLibrary.make()
        let index = try LibraryIndex(path: library.root + "/../cache/library.sqlite")
        var problems: [String] = []
        let result = try LibraryScanner(folders: [library.root]).run(index: index) { problems.append($0) }
        #expect(problems.isEmpty, "\(problems)")
        #expect(result.read == 10)

        let tree = LibraryTree(tracks: try index.allTracks())
        #expect(tree.artists.map(\.name) == [Self.artist, "Percy Shelley"])
        let mary = try #require(tree.artists.first)
        #expect(mary.albums.map(\.title).sorted() == ["Duets", Self.album])
        let novel = try #require(mary.albums.first { $0.title == Self.album })
        #expect(novel.tracks.map(\.path) == library.novel)
        #expect(novel.tracks.map(\.trackNumber) == [1, 2, 3, 4, 5, 6, 7])
        #expect(Set(novel.tracks.map(\.artist)) == [Self.artist])
        let percy = tree.artists[1]
        #expect(percy.albums.map(\.title) == ["Duets"])
        #expect(percy.albums.first?.tracks.map(\.path) == library.duets)
        #expect(percy.albums.first?.tracks.map(\.artists) == Array(repeating: [Self.artist, "Percy Shelley"], count: 3))

        // The unfiltered tree of a big library (the catalog) says the same.
        let catalog = try index.catalog()
        #expect(catalog.artists.map(\.name) == tree.artists.map(\.name))
        #expect(catalog.artists.map(\.tracks) == [10, 3])
        #expect(catalog.trackCount == 10)

        for query in ["artist:percy", "percy", "artist:\"percy shelley\""] {
            #expect(Set(try index.search(LibraryQuery(query)).map(\.path)) == Set(library.duets), "\(query)")
        }
        #expect(Set(try index.search(LibraryQuery("artist:mary")).map(\.path)) == Set(library.novel + library.duets))
    }

    /// The same through the real binary: `library scan`, then `library search --json`.
    @Test func theBinaryFindsADuetBySearchingEitherArtist() throws {
        let library = try TaggerLibrary.make()
        let directory = library.root + "/.."
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "library = \(library.root)\n".write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": directory + "/config", "XDG_CACHE_HOME": directory + "/cache", "HOME": directory]
        let scan = try InterludeBinary.run(["library", "scan", "--json"], environment: environment)
        #expect(scan.succeeded, "\(scan.summary)")
        for artist in ["mary", "percy"] {
            let search = try InterludeBinary.run(["library", "search", "artist:\(artist)", "album:duets", "--json"], environment: environment)
            #expect(search.succeeded, "\(search.summary)")
            let rows = search.stdoutText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(Set(rows.compactMap { $0["path"] as? String }) == Set(library.duets), "\(artist): \(search.stdoutText)")
            for row in rows { #expect(row["artists"] as? [String] == [Self.artist, "Percy Shelley"], "\(row)") }
        }
    }
}
