import Foundation
import InterludeCore
import Testing
@testable import Playlists

/// Playlists that hold stations. An M3U line or a PLS entry that
/// is an http(s) URL is kept as the URL (never joined to the playlist's
/// folder, never looked up on disk); other schemes are refused with the reason.
struct StationPlaylistTests {
    @Test("an M3U's station URLs stay URLs beside resolved paths, and write back as they were")
    func m3uKeepsStationURLs() {
        let text = "#EXTM3U\n#EXTINF:-1,Test FM\nhttp://radio.example:8000/live.mp3\nlocal/song.mp3\nHTTPS://secure.example/stream\n"
        let entries = M3UPlaylist.parse(text, folder: "/music")
        #expect(entries.map(\.path) == ["http://radio.example:8000/live.mp3", "/music/local/song.mp3", "HTTPS://secure.example/stream"])
        #expect(entries[0].title == "Test FM")
        let written = M3UPlaylist.write(entries, folder: "/music")
        #expect(written.contains("\nhttp://radio.example:8000/live.mp3\n"), "\(written)")
        #expect(M3UPlaylist.parse(written, folder: "/music").map(\.path) == entries.map(\.path))
    }

    @Test("a PLS file loads its stations and its files; a refused scheme and a bad line are named, the rest loads")
    func plsLoadsStationsAndNamesWhatItRefuses() throws {
        let folder = NSTemporaryDirectory() + "pls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/song.mp3", contents: Data([1, 2, 3]))
        let text = """
            [playlist]
            File1=http://radio.example:8000/live.mp3
            Title1=Test FM
            Length1=-1
            File2=song.mp3
            File3=pipe:0
            File4=missing.mp3
            nonsense
            NumberOfEntries=4
            Version=2
            """
        _ = FileManager.default.createFile(atPath: folder + "/stations.pls", contents: Data(text.utf8))
        #expect(PlaylistFile.isPlaylist(folder + "/stations.pls"))
        let load = try PlaylistFile.load(folder + "/stations.pls")
        #expect(load.entries.map(\.path) == ["http://radio.example:8000/live.mp3", folder + "/song.mp3"])
        #expect(load.entries.first?.title == "Test FM")
        #expect(load.missing == [folder + "/missing.mp3"])
        #expect(load.refused.count == 2, "\(load.refused)")
        #expect(load.refused.contains { $0.hasPrefix("pipe:0: ") }, "\(load.refused)")
    }
}
