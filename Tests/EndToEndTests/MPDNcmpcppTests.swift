import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Debian's ncmpcpp, in a private tmux server, over the player's MPD socket:
/// keys in with `send-keys`, its screen out with `capture-pane`, each step
/// waited for on the screen (and in the player's MPD replies), never slept on.
@Suite(.serialized) struct MPDNcmpcppTests {
    final class Ncmpcpp {
        let socket: String

        init(mpd: String) throws {
            let directory = ScratchFiles.makeDirectory("ncmpcpp")
            socket = directory + "/tmux.sock"
            let command = "env HOME=\(directory) LANG=C.UTF-8 /usr/bin/ncmpcpp --host \(mpd)"
            try tmux(["new-session", "-d", "-x", "100", "-y", "30", command])
        }

        deinit { _ = try? tmux(["kill-server"]) }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run("tmux", ["-u", "-S", socket] + arguments, environment: ["LANG": "C.UTF-8"], timeout: 10)
        }

        func press(_ keys: String...) throws { for key in keys { try tmux(["send-keys", key]) } }

        func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

        var screen: String { (try? tmux(["capture-pane", "-p"]).stdoutText) ?? "" }

        /// Waits until the screen shows every one of `texts`; the screen then.
        func waitFor(_ texts: String...) -> (met: Bool, screen: String) {
            var last = ""
            let met = Remote.waitUntil(20) {
                last = screen
                return texts.allSatisfy(last.contains)
            }
            return (met, last)
        }
    }

    @Test("ncmpcpp shows the playlist, browses the library into a folder, searches it and plays what it found")
    func ncmpcppShowsBrowsesSearchesAndPlays() throws {
        let library = try MPDLibrary.make()
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let connection = try player.connect()
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        let client = try Ncmpcpp(mpd: player.socket)

        // The playlist (its first screen): the three queued songs with their tags.
        var shown = client.waitFor("Playlist (3 items", "Artist a", "Song a", "Artist c", "Song c", "Album")
        #expect(shown.met, "\(shown.screen)")

        // The browser: the library's top folder, then into `more`.
        try client.press("2")
        shown = client.waitFor("Browse: /", "[more]", "Artist b - Song b")
        #expect(shown.met, "\(shown.screen)")
        try client.press("Enter")
        shown = client.waitFor("Browse: more", "Other - Song d")
        #expect(shown.met, "\(shown.screen)")

        // The search engine: "other" in any tag, then its Search button (13 rows down).
        try client.press("3")
        shown = client.waitFor("Search engine", "Any")
        #expect(shown.met, "\(shown.screen)")
        try client.press("Enter")
        try client.type("other")
        try client.press("Enter")
        shown = client.waitFor("Any          : other")
        #expect(shown.met, "\(shown.screen)")
        for _ in 0..<13 { try client.press("Down") }
        try client.press("Enter")
        shown = client.waitFor("Found 1 song", "Other - Song d")
        #expect(shown.met, "\(shown.screen)")

        // Enter on the result adds it and plays it.
        try client.press("Enter")
        #expect(Remote.waitUntil(20) { connection.value("currentsong", "file") == "more/d.mp3" })
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        try client.press("1")
        shown = client.waitFor("Playlist (4 items", "Other", "Song d", "More")
        #expect(shown.met, "\(shown.screen)")
        #expect(!client.screen.contains("ACK") && !client.screen.contains("unknown command"), "\(client.screen)")
        _ = player.process.stop()
    }
}
