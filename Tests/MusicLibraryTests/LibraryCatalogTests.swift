import MusicLibrary
import Testing

/// The unfiltered tree's catalog files every artist as the tree does, from
/// rows carrying only what filing needs, and keeps the ids of each artist's tracks.
@Suite struct LibraryCatalogTests {
    static let tracks = [
        LibraryTrack(path: "/m/z/late/2.mp3", title: "B", artist: "Zed", album: "Late", trackNumber: 2, year: 2010),
        LibraryTrack(path: "/m/z/late/1.mp3", title: "A", artist: "Zed", album: "Late", trackNumber: 1, year: 2010),
        LibraryTrack(path: "/m/z/early/1.mp3", title: "Early", artist: "Zed", album: "Early", year: 1990),
        // A compilation without album artist tags: Various Artists.
        LibraryTrack(path: "/m/hits/1.mp3", title: "x", artist: "One", album: "Hits"),
        LibraryTrack(path: "/m/hits/2.mp3", title: "y", artist: "Two", album: "Hits"),
        // Filed under its album artist, whatever the track artists.
        LibraryTrack(path: "/m/duets/1.mp3", title: "d", artist: "Ann & Bob", album: "Duets", albumArtist: "Ann"),
        LibraryTrack(path: "/m/duets/2.mp3", title: "e", artist: "Ann & Cy", album: "Duets", albumArtist: "Ann"),
        // Loose tracks (no album) by an accented artist; and no artist at all.
        LibraryTrack(path: "/m/loose/1.mp3", title: "l", artist: "Émile"),
        LibraryTrack(path: "/m/loose/2.mp3", title: "n"),
    ]

    /// What filing needs, and nothing else: the rows `LibraryIndex.catalog` reads.
    static func slim(_ track: LibraryTrack) -> LibraryTrack {
        LibraryTrack(path: track.path, artist: track.artist, album: track.album, albumArtist: track.albumArtist, year: track.year)
    }

    @Test func everyArtistAsTheTreeFilesIt() {
        let rows = Self.tracks.enumerated().map { (id: Int64($0.offset + 100), track: Self.slim($0.element)) }
        let catalog = LibraryCatalog(rows: rows)
        let tree = LibraryTree(tracks: Self.tracks)
        #expect(catalog.artists.map(\.name) == tree.artists.map(\.name))
        #expect(catalog.artists.map(\.name) == ["Ann", "Émile", "Zed", "Various Artists", "Unknown Artist"])
        #expect(catalog.artists.map(\.albums) == tree.artists.map(\.albums.count))
        #expect(catalog.artists.map(\.tracks) == tree.artists.map(\.trackCount))
        #expect(catalog.trackCount == Self.tracks.count)
        // Each artist's ids are its tracks'.
        func id(_ path: String) -> Int64 { Int64(Self.tracks.firstIndex { $0.path == path }! + 100) }
        for (entry, artist) in zip(catalog.artists, tree.artists) {
            #expect(entry.ids.sorted() == artist.albums.flatMap { $0.tracks.map { id($0.path) } }.sorted(), "\(entry.name)")
        }
        // The rows of an artist's ids make the same albums as the full tree's.
        let zed = catalog.artists.first { $0.name == "Zed" }!
        let zedTracks = zed.ids.map { Self.tracks[Int($0) - 100] }
        #expect(LibraryTree(tracks: zedTracks).artists == [tree.artists.first { $0.name == "Zed" }!])
    }

    /// Row by row in any order (here the scan's order reversed, so no row
    /// follows its album's previous one) files the same.
    @Test func theOrderOfTheRowsDoesNotChangeTheFiling() {
        let rows = Self.tracks.enumerated().map { (id: Int64($0.offset), track: Self.slim($0.element)) }
        #expect(LibraryCatalog(rows: rows.reversed()).artists.map(\.name) == LibraryCatalog(rows: rows).artists.map(\.name))
        #expect(LibraryCatalog(rows: rows.reversed()).artists.map(\.tracks) == LibraryCatalog(rows: rows).artists.map(\.tracks))
    }

    @Test func anEmptyLibraryHasNoArtists() {
        #expect(LibraryCatalog(rows: []).artists.isEmpty)
    }
}
