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

    @Test func tagNumbersTakeTheLeadingNumber() {
        #expect(TagNumbers.leadingNumber("3/12") == 3)
        #expect(TagNumbers.leadingNumber("x") == nil)
        #expect(TagNumbers.year("2004-05-01") == 2004)
        #expect(TagNumbers.year("04") == nil)
    }
}
