import Testing
@testable import MusicLibrary

@Suite struct LibraryTreeTests {
    @Test func filesAlbumsUnderAlbumArtistOrTheSharedArtistOrVariousArtists() {
        let tracks = [
            LibraryTrack(path: "/m/a/2.mp3", title: "B", artist: "Zed", album: "Late", trackNumber: 2, year: 2010),
            LibraryTrack(path: "/m/a/1.mp3", title: "A", artist: "Zed", album: "Late", trackNumber: 1, year: 2010),
            LibraryTrack(path: "/m/b/1.mp3", title: "Early", artist: "Zed", album: "Early", year: 1990),
            LibraryTrack(path: "/m/c/1.mp3", title: "x", artist: "One", album: "Hits"),
            LibraryTrack(path: "/m/c/2.mp3", title: "y", artist: "Two", album: "Hits"),
            LibraryTrack(path: "/m/d/1.mp3", title: "feat", artist: "Guest", album: "Duets", albumArtist: "Ábel"),
            LibraryTrack(path: "/m/d/2.mp3", title: "solo", artist: "Ábel", album: "Duets"),
            LibraryTrack(path: "/m/loose.mp3"),
        ]
        let tree = LibraryTree(tracks: tracks)
        #expect(tree.artists.map(\.name) == ["Ábel", "Zed", "Various Artists", "Unknown Artist"])
        let zed = tree.artists[1]
        #expect(zed.albums.map(\.title) == ["Early", "Late"])
        #expect(zed.albums[1].tracks.map(\.title) == ["A", "B"])
        #expect(tree.artists[0].albums.first?.tracks.count == 2)
        #expect(tree.artists[2].albums.first?.title == "Hits")
    }

    @Test func tracksGoByDiscThenTrackNumber() {
        let tracks = [
            LibraryTrack(path: "/m/x/c.mp3", album: "X", trackNumber: 1, discNumber: 2),
            LibraryTrack(path: "/m/x/b.mp3", album: "X", trackNumber: 2, discNumber: 1),
            LibraryTrack(path: "/m/x/a.mp3", album: "X", trackNumber: 1, discNumber: 1),
            LibraryTrack(path: "/m/x/d.mp3", album: "X"),
        ]
        let album = LibraryTree(tracks: tracks).artists[0].albums[0]
        #expect(album.tracks.map(\.path) == ["/m/x/a.mp3", "/m/x/b.mp3", "/m/x/d.mp3", "/m/x/c.mp3"])
    }

    @Test func sameAlbumTitleInTwoFoldersStaysApart() {
        let tracks = [
            LibraryTrack(path: "/m/p/1.mp3", artist: "P", album: "Greatest Hits"),
            LibraryTrack(path: "/m/q/1.mp3", artist: "Q", album: "Greatest Hits"),
        ]
        #expect(LibraryTree(tracks: tracks).artists.map(\.name) == ["P", "Q"])
    }

    /// The grouping takes a shortcut for a track following one of the same
    /// folder and album tag; interleaved, reversed or case-varied, the tree
    /// is the same.
    @Test func groupingDoesNotDependOnTheOrderOrTheSpellingOfTheTags() {
        var tracks: [LibraryTrack] = []
        for number in 0..<60 {
            let folder = ["/m/Zoë/東方", "/m/Zoe/Cafe", "/m/zoë/東方"][number % 3]
            let album = number % 4 == 0 ? "CAFÉ crème" : number % 4 == 1 ? "café Crème" : "東方の音"
            tracks.append(LibraryTrack(path: "\(folder)/\(number).mp3", title: "t\(number % 7)", artist: "Zoë \(number % 2)",
                                       album: album, trackNumber: number % 5 == 0 ? nil : number / 3 % 9, year: 2000))
        }
        // An album shows the first spelling of its title met, so the
        // comparison is of who is filed where, in which order.
        func shape(_ tree: LibraryTree) -> [[[String]]] { tree.artists.map { $0.albums.map { $0.tracks.map(\.path) } } }
        let tree = LibraryTree(tracks: tracks)
        #expect(shape(tree) == shape(LibraryTree(tracks: tracks.reversed())))
        let interleaved = stride(from: 0, to: 60, by: 2).map { tracks[$0] } + stride(from: 1, to: 60, by: 2).map { tracks[$0] }
        #expect(shape(tree) == shape(LibraryTree(tracks: interleaved)))
        // Runs of one folder and album tag, as the index returns them: the shortcut's case.
        func run(_ track: LibraryTrack) -> String { track.path[..<track.path.lastIndex(of: "/")!] + "/" + (track.album ?? "") }
        #expect(shape(tree) == shape(LibraryTree(tracks: tracks.sorted { run($0) < run($1) })))
        // Three folders, two album titles once folded: "cafe creme" and 東方の音 in each.
        #expect(tree.artists.flatMap(\.albums).count == 6)
        #expect(tree.artists.flatMap(\.albums).map(\.tracks.count).reduce(0, +) == 60)
    }
}

@Suite struct ScanDiffTests {
    @Test func readsNewAndChangedKeepsTheRestAndDropsWhatIsGone() {
        let old = ScanDiff.Stamp(size: 10, modifiedNanoseconds: 1)
        var diff = ScanDiff(known: ["/a": old, "/b": old, "/c": old])
        #expect(diff.observe(path: "/a", stamp: old) == .unchanged)
        #expect(diff.observe(path: "/b", stamp: ScanDiff.Stamp(size: 10, modifiedNanoseconds: 2)) == .changed)
        #expect(diff.observe(path: "/d", stamp: old) == .new)
        #expect(diff.observe(path: "/d", stamp: old) == .unchanged)
        #expect(diff.gone == ["/c"])
    }

    @Test func aChangedPathFoundTwiceIsReadOnce() {
        let old = ScanDiff.Stamp(size: 10, modifiedNanoseconds: 1)
        let new = ScanDiff.Stamp(size: 11, modifiedNanoseconds: 1)
        var diff = ScanDiff(known: ["/a": old, "/b": old])
        #expect(diff.observe(path: "/a", stamp: new) == .changed)
        #expect(diff.observe(path: "/a", stamp: new) == .unchanged)
        #expect(diff.observe(path: "/e", stamp: new) == .new)
        #expect(diff.observe(path: "/f", stamp: old) == .new)
        #expect(diff.gone == ["/b"])
        #expect(ScanDiff(known: [:]).gone.isEmpty)
    }
}
