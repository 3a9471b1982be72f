import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The clients people use, each driven as its user would over the player's
/// MPD socket: `mpc` on the command line, ncmpcpp and ncmpc in a private tmux
/// server (keys in with `send-keys`, the screen out with `capture-pane`,
/// each step waited for on the screen or in the player's replies).
@Suite(.serialized) struct MPDClientTests {
    /// A terminal client in a tmux server of its own.
    final class TmuxClient {
        let socket: String

        init(_ command: String) throws {
            let directory = ScratchFiles.makeDirectory("mpd-client")
            socket = directory + "/tmux.sock"
            try tmux(["new-session", "-d", "-x", "100", "-y", "30", "env HOME=\(directory) LANG=C.UTF-8 \(command)"])
        }

        deinit { _ = try? tmux(["kill-server"]) }

        @discardableResult
        func tmux(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run("tmux", ["-u", "-S", socket] + arguments, environment: ["LANG": "C.UTF-8"], timeout: 10)
        }

        func press(_ keys: String...) throws { for key in keys { try tmux(["send-keys", key]) } }

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

    /// The shared library and the `ordered` folder (four songs of 3 s, in track order z, y then x first, sub/w last).
    static func player() throws -> (player: InterludeMPDPlayer, connection: MPDConnection) {
        let library = try MPDLibrary.make()
        try MPDLibrary.addOrderedFolder(to: library.folder)
        let player = try InterludeMPDPlayer(music: library.folder, files: library.files)
        let connection = try player.connect()
        #expect(Remote.waitUntil { connection.value("status", "state") == "play" })
        return (player, connection)
    }

    @Test("mpc add DIR queues the folder's songs in MPD's order, mpc playlist shows each with its length, and lsplaylists lists a saved one")
    func mpcAddsAFolderWithLengths() throws {
        let (player, _) = try Self.player()
        func mpc(_ arguments: [String]) throws -> String {
            try ProcessRunner.run("/usr/bin/mpc", arguments, environment: ["MPD_HOST": player.socket], timeout: 20).check().stdoutText
        }
        _ = try mpc(["add", "ordered"])
        let listed = try mpc(["-f", "%file% %time%", "playlist"])
        #expect(listed == """
        a.mp3 0:20
        b.mp3 0:21
        c.mp3 0:22
        ordered/x.mp3 0:03
        ordered/z.mp3 0:03
        ordered/y.mp3 0:03
        ordered/sub/w.mp3 0:03

        """, "\(listed)")
        _ = try mpc(["save", "mine"])
        #expect(try mpc(["lsplaylists"]) == "mine\n")
        _ = player.process.stop()
    }

    @Test("ncmpcpp shows a folder added whole, every row's length in its Time column and the queue's length from them")
    func ncmpcppShowsLengths() throws {
        let (player, connection) = try Self.player()
        #expect(connection.command("add ordered").last == "OK")
        let client = try TmuxClient("/usr/bin/ncmpcpp --host \(player.socket)")
        // 20 + 21 + 22 + 4 x 3 s: ncmpcpp adds up each song's Time.
        let shown = client.waitFor("Playlist (7 items, length: 1 minute, 15 seconds)", "Song z", "Song w")
        #expect(shown.met, "\(shown.screen)")
        let rows = shown.screen.split(separator: "\n").filter { $0.contains("Song ") }
        #expect(rows.count == 7 && rows.allSatisfy { $0.hasSuffix("0:20") || $0.hasSuffix("0:21") || $0.hasSuffix("0:22") || $0.hasSuffix("0:03") },
                "\(rows)")
        // What plays next, as status names it, is what `>` plays.
        let files = MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "file" }.map(\.value)
        let next = try #require(connection.value("status", "nextsong").flatMap(Int.init))
        #expect(files.indices.contains(next))
        try client.press(">")
        #expect(Remote.waitUntil {
            connection.value("status", "song") == String(next) && connection.value("currentsong", "file") == files[next]
        })
        #expect(!client.screen.contains("ACK") && !client.screen.contains("unknown command"), "\(client.screen)")
        _ = player.process.stop()
    }

    @Test("ncmpc's browser lists the library's folders and songs with their lengths and adds a folder whole with its key")
    func ncmpcAddsAFolderFromItsBrowser() throws {
        let (player, connection) = try Self.player()
        let client = try TmuxClient("/usr/bin/ncmpc --host=\(player.socket)")
        var shown = client.waitFor("Song a", "0:20")
        #expect(shown.met, "\(shown.screen)")
        try client.press("3")
        // The top: its folders first, then its songs with their lengths.
        shown = client.waitFor("[more]", "[ordered]", "0:21")
        #expect(shown.met, "\(shown.screen)")
        let lines = shown.screen.split(separator: "\n").map(String.init)
        let more = try #require(lines.firstIndex { $0.hasPrefix("[more]") }), ordered = try #require(lines.firstIndex { $0.hasPrefix("[ordered]") })
        for _ in 0..<(ordered - more) { try client.press("Down") }
        try client.press("a")
        shown = client.waitFor("Adding 'ordered' to queue")
        #expect(shown.met, "\(shown.screen)")
        let files = { MPDConnection.pairs(connection.command("playlistinfo")).filter { $0.key == "file" }.map(\.value) }
        #expect(Remote.waitUntil { files().count == 7 })
        #expect(files() == ["a.mp3", "b.mp3", "c.mp3", "ordered/x.mp3", "ordered/z.mp3", "ordered/y.mp3", "ordered/sub/w.mp3"])
        try client.press("2")
        shown = client.waitFor("Orderly - Song w", "0:03")
        #expect(shown.met, "\(shown.screen)")
        _ = player.process.stop()
    }
}
