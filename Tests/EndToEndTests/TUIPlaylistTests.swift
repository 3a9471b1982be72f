import Foundation
import Testing
import TestSupport

/// The playlists pane, saving the queue, shuffle and repeat in the
/// status line, in the full-screen player in tmux.
@Suite(.serialized) struct TUIPlaylistTests {
    @Test("w saves the queue as a playlist, 9 lists it, enter plays it; a missing file is named; u and r show in the status line")
    func playlistsPane() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 30)
        let first = "\(library)/Tones/1 Morning.mp3"
        let second = "\(library)/Tones/2 Noon.mp3"
        let data = ScratchFiles.makeDirectory("xdg-data")
        let lists = "\(data)/interlude/playlists"
        try FileManager.default.createDirectory(atPath: lists, withIntermediateDirectories: true)
        // A playlist made elsewhere: one file that is there (relative to the music, absolute here) and one that is not.
        try "#EXTM3U\n#EXTINF:30,Interlude - Noon\n\(second)\n\(library)/Tones/gone.mp3\n"
            .write(toFile: "\(lists)/Old mix.m3u", atomically: true, encoding: .utf8)
        let session = try TUISession(columns: 120, rows: 40, arguments: [first, second],
                                     environment: ["XDG_DATA_HOME": data])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")

        try session.press("u")
        try session.press("r")
        let status = session.waitFor { $0.contains("shuffle · repeat all") }
        #expect(status.met, "\(status.screen)")

        try session.press("w")
        #expect(session.waitFor("save the queue as playlist").met, "\(session.screen())")
        try session.type("Road trip")
        try session.press("Enter")
        let saved = "\(lists)/Road trip.m3u8"
        #expect(session.waitFor("saved 2 files").met, "\(session.screen())")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.hasPrefix("#EXTM3U\n") && text.contains("#EXTINF:30,Interlude - Morning\n") && text.contains(first + "\n"))

        try session.press("0")
        let pane = session.waitFor { $0.contains("0 Playlists (2)") && $0.contains("Old mix.m3u") && $0.contains("Road trip.m3u8") }
        #expect(pane.met, "\(pane.screen)")
        // "Old mix.m3u" sorts first: enter plays it, the missing file named on a line of its own.
        try session.press("Enter")
        let loaded = session.waitFor { $0.contains("loaded 1 file from") && $0.contains("count=1 missing=1") }
        #expect(loaded.met, "\(loaded.screen)")
        // The event log, filtered: the missing file's line.
        try session.press("5")
        try session.press("/")
        try session.type("is missing")
        try session.press("Enter")
        let missing = session.waitFor { $0.contains("gone.mp3 is") && $0.contains("missing (skipped)") }
        #expect(missing.met, "\(missing.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
