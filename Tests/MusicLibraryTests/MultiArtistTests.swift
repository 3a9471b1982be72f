import Testing
@testable import MusicLibrary

/// A track's several artists (ID3v2.4's list, repeated
/// Vorbis comments, MP4's several `data` boxes) each file its album in the
/// tree and each find it in a search; one artist's name, however many
/// files name it, is one artist.
@Suite struct MultiArtistTests {
    static func track(_ path: String, _ artists: [String], album: String, number: Int, albumArtists: [String] = []) -> LibraryTrack {
        var track = LibraryTrack(path: path, title: "t\(number)", album: album, trackNumber: number)
        track.artists = artists
        track.albumArtists = albumArtists
        return track
    }

    static let duets = [
        track("/m/duets/2.mp3", ["Mary Shelley", "Percy Shelley"], album: "Duets", number: 2),
        track("/m/duets/1.mp3", ["Mary Shelley", "Percy Shelley"], album: "Duets", number: 1),
    ]
    static let novel = (1...3).map { track("/m/novel/\($0).mp3", ["Mary Shelley"], album: "Frankenstein", number: 4 - $0) }

    @Test func anAlbumOfTwoArtistsIsUnderEach() {
        let tree = LibraryTree(tracks: Self.novel + Self.duets)
        #expect(tree.artists.map(\.name) == ["Mary Shelley", "Percy Shelley"])
        let mary = tree.artists[0], percy = tree.artists[1]
        #expect(mary.albums.map(\.title).sorted() == ["Duets", "Frankenstein"])
        #expect(percy.albums.map(\.title) == ["Duets"])
        #expect(percy.albums[0].tracks.map(\.path) == ["/m/duets/1.mp3", "/m/duets/2.mp3"])
        let frankenstein = mary.albums.first { $0.title == "Frankenstein" }
        #expect(frankenstein?.tracks.map(\.trackNumber) == [1, 2, 3])
    }

    @Test func severalAlbumArtistsFileTheAlbumUnderEachNotUnderTheTrackArtists() {
        let tracks = [
            Self.track("/m/split/1.mp3", ["Guest"], album: "Split", number: 1, albumArtists: ["Ann", "Bob"]),
            Self.track("/m/split/2.mp3", ["Other"], album: "Split", number: 2, albumArtists: ["Ann", "Bob"]),
        ]
        let tree = LibraryTree(tracks: tracks)
        #expect(tree.artists.map(\.name) == ["Ann", "Bob"])
        #expect(tree.artists.map { $0.albums.first?.tracks.count } == [2, 2])
    }

    /// Tracks whose artist lists differ are a compilation, as tracks whose one artist differs are.
    @Test func differentArtistListsMakeVariousArtists() {
        let tracks = [
            Self.track("/m/c/1.mp3", ["Ann", "Bob"], album: "Mix", number: 1),
            Self.track("/m/c/2.mp3", ["Ann"], album: "Mix", number: 2),
        ]
        #expect(LibraryTree(tracks: tracks).artists.map(\.name) == [LibraryTree.variousArtists])
    }

    /// A name given twice in one tag files the album once under it.
    @Test func aRepeatedNameFilesTheAlbumOnce() {
        let tree = LibraryTree(tracks: [Self.track("/m/r/1.mp3", ["Ann", "Ann"], album: "R", number: 1)])
        #expect(tree.artists.map(\.name) == ["Ann"])
        #expect(tree.artists[0].albums.count == 1)
    }

    /// The catalog (the unfiltered tree of a big library) files by the same
    /// rules, and counts each track once though it is under two artists.
    @Test func theCatalogFilesTheSameAndCountsEachTrackOnce() {
        let tracks = Self.novel + Self.duets
        let catalog = LibraryCatalog(rows: tracks.enumerated().map { (Int64($0.offset), $0.element) })
        let tree = LibraryTree(tracks: tracks)
        #expect(catalog.artists.map(\.name) == tree.artists.map(\.name))
        #expect(catalog.artists.map(\.tracks) == tree.artists.map(\.trackCount))
        #expect(catalog.artists.map(\.tracks) == [5, 2])
        #expect(catalog.trackCount == 5)
    }

    @Test func searchFindsTheAlbumByEitherArtist() {
        for query in ["percy", "artist:percy", "mary", "artist:\"mary shelley\"", "shelley duets"] {
            let found = Self.duets.filter(LibraryQuery(query).matches)
            #expect(found.count == 2, "\(query)")
        }
        #expect(Self.novel.filter(LibraryQuery("artist:percy").matches).isEmpty)
    }

    /// The joined line shows every artist; one artist is shown as it is.
    @Test func theArtistLineJoinsTheList() {
        #expect(Self.duets[0].artist == "Mary Shelley; Percy Shelley")
        #expect(Self.novel[0].artist == "Mary Shelley")
        var track = Self.duets[0]
        track.artist = nil
        #expect(track.artists.isEmpty)
        track.artist = "Ann"
        #expect(track.artists == ["Ann"])
    }
}
