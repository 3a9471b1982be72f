import InterludeCore
import Testing
@testable import Playlists

/// Acceptance 7: extended M3U written and read back as the same queue, relative
/// paths under the playlist's folder, `#EXTINF`, non-ASCII names, and the
/// encodings players meet.
struct M3UPlaylistTests {
    @Test("a queue written and parsed back is the same queue, relative under the folder")
    func roundTripKeepsEntries() {
        let entries = [
            PlaylistEntry(path: "/music/Björk/Homogenic/01 Hunter.mp3", seconds: 255, title: "Björk - Hunter"),
            PlaylistEntry(path: "/music/坂本龍一/戦場のメリークリスマス.flac", seconds: 301, title: "坂本龍一 - Merry Christmas"),
            PlaylistEntry(path: "/elsewhere/loose track.ogg"),
            PlaylistEntry(path: "/music/a,b - c.mp3", seconds: nil, title: "Untimed, with a comma"),
        ]
        let text = M3UPlaylist.write(entries, folder: "/music")
        #expect(text.hasPrefix("#EXTM3U\n"))
        #expect(text.contains("\nBjörk/Homogenic/01 Hunter.mp3\n"))
        #expect(text.contains("\n/elsewhere/loose track.ogg\n"))
        #expect(text.contains("#EXTINF:255,Björk - Hunter\n"))
        #expect(text.contains("#EXTINF:-1,Untimed, with a comma\n"))
        #expect(M3UPlaylist.parse(text, folder: "/music") == entries)
    }

    @Test("relative lines resolve against the playlist's folder, dot components removed")
    func relativeLinesResolve() {
        let text = "#EXTM3U\r\n#EXTINF:12,A - B\r\n../Album/01.mp3\r\n./02.mp3\r\nsub//03.mp3\r\n/abs/04.mp3\r\n"
        let parsed = M3UPlaylist.parse(text, folder: "/m/lists")
        #expect(parsed.map(\.path) == ["/m/Album/01.mp3", "/m/lists/02.mp3", "/m/lists/sub/03.mp3", "/abs/04.mp3"])
        #expect(parsed[0].seconds == 12 && parsed[0].title == "A - B")
        #expect(parsed[1].seconds == nil && parsed[1].title == nil)
    }

    @Test("a file outside the folder is written absolute, never through ..")
    func outsideFolderIsAbsolute() {
        #expect(PlaylistPath.line(for: "/music/x.mp3", inFolder: "/music/lists") == "/music/x.mp3")
        #expect(PlaylistPath.line(for: "/musicals/x.mp3", inFolder: "/music") == "/musicals/x.mp3")
        #expect(PlaylistPath.line(for: "/music/x.mp3", inFolder: "/music/") == "x.mp3")
    }

    @Test("comments and unknown extension lines are skipped; file URLs are decoded")
    func commentsAndURLs() {
        let text = "#EXTM3U\n# a comment\n#EXTGRP:Rock\n#EXTINF:3.6 tvg-id=\"x\",Ünï - Côdé\nfile:///m/%C3%A9t%C3%A9.mp3\n\n"
        let parsed = M3UPlaylist.parse(text, folder: "/")
        #expect(parsed == [PlaylistEntry(path: "/m/été.mp3", seconds: 4, title: "Ünï - Côdé")])
    }

    @Test("UTF-8 (with or without a byte-order mark) is read as UTF-8; other bytes as Latin-1")
    func encodings() {
        #expect(PlaylistText.decode(Array("Mötley.mp3".utf8)) == "Mötley.mp3")
        #expect(PlaylistText.decode([0xEF, 0xBB, 0xBF] + Array("#EXTM3U".utf8)) == "#EXTM3U")
        // "Mötley" in Latin-1: 0xF6 alone is not valid UTF-8.
        #expect(PlaylistText.decode([0x4D, 0xF6, 0x74, 0x6C, 0x65, 0x79]) == "Mötley")
    }

    @Test("a saved playlist loads back; missing files are named and the rest loads")
    func saveAndLoadFromDisk() throws {
        let folder = "/tmp/interlude-m3u-\(UInt32.random(in: 0...UInt32.max))"
        defer { for name in DirectoryListing.names(in: folder) ?? [] { try? StateFile(path: folder + "/" + name).remove() } }
        let present = ["\(folder)/Sigur Rós - Ára bátur.mp3", "\(folder)/two.mp3"]
        for path in present { try StateFile(path: path).writeAtomically([0]) }
        let entries = [PlaylistEntry(path: present[0], seconds: 60, title: "Sigur Rós - Ára bátur"),
                       PlaylistEntry(path: "\(folder)/gone.mp3", seconds: 1, title: "Gone"),
                       PlaylistEntry(path: present[1])]
        try PlaylistFile.save(entries, to: folder + "/mix.m3u8")
        let text = String(decoding: try #require(try StateFile(path: folder + "/mix.m3u8").read()), as: UTF8.self)
        #expect(text.contains("\nSigur Rós - Ára bátur.mp3\n"))
        let load = try PlaylistFile.load(folder + "/mix.m3u8")
        #expect(load.entries == [entries[0], entries[2]])
        #expect(load.missing == ["\(folder)/gone.mp3"])
        #expect(PlaylistFile.list(in: folder) == ["mix.m3u8"])
        #expect(throws: PlaylistFile.Failure.notFound(path: folder + "/none.m3u")) { try PlaylistFile.load(folder + "/none.m3u") }
    }

    @Test("the playlists folder follows XDG_DATA_HOME, ignoring a relative value")
    func playlistsDirectory() {
        #expect(PlaylistFile.directory(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/d"]) == "/d/interlude/playlists")
        #expect(PlaylistFile.directory(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "rel"])
            == "/home/u/.local/share/interlude/playlists")
    }
}
