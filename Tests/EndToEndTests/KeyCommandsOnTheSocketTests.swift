import Foundation
import PlayerModel
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Whatever a key can make the player do, a script can too: every row of the
/// command table that a key runs in the player's scope is sent to the real
/// binary's control socket by the row's own name, and the player carries it
/// out. The rows come from the table, so a row added later without the
/// socket's reading of it fails here.
@Suite(.serialized) struct KeyCommandsOnTheSocketTests {
    /// A headless player with its socket and every XDG directory private to it.
    struct Player {
        let runtime: String
        let process: BackgroundProcess

        init(_ arguments: [String]) throws {
            runtime = try Remote.makeRuntimeDirectory()
            let home = ScratchFiles.makeDirectory("key-commands-home")
            let sink = try PulseServer.shared().makeSink()
            var environment = sink.environment
            environment["XDG_RUNTIME_DIR"] = runtime
            for (name, folder) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config"),
                                   ("XDG_CACHE_HOME", "cache")] {
                environment[name] = home + "/" + folder
            }
            process = try BackgroundProcess.start(InterludeBinary.path(), ["play"] + arguments + ["--device", "pulse"],
                                                  environment: environment, stdout: .file(runtime + "/out.txt"))
        }

        var socket: String { runtime + "/interlude/control" }
    }

    /// The rows whose command a key can give to the player (the screen's own rows are not the player's).
    static let keyRows = CommandTable.entries.filter { $0.scope == .player && $0.frontEnds.contains(.keys) }

    /// Rows the socket reads and hands to the dispatcher, which refuses them
    /// with this sentence: what they act on a headless test player cannot have.
    static let refusedHere = [
        "go-live": "no station is playing: nothing to take live",
        "book-open": "this player plays what it was started with (the full-screen player switches)",
    ]

    /// A value for each of the row's arguments (optional ones too) of the kind the row reads.
    static func arguments(for row: CommandSpec, file: String) -> [String] {
        row.arguments.map { argument in
            switch argument.kind {
            case .seconds: "5"
            // An hour for a delay in seconds (alarm-in), else the first id (the alarm, bookmark or station made before).
            case .count(let range): range.unit == "seconds" ? "3600" : String(max(1, range.range.lowerBound))
            case .number(let range, _): String(range.lowerBound)
            case .path: "\"\(file)\""
            case .text:
                // The placeholder as help writes it: "[URL]" when optional.
                switch argument.placeholder.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) {
                case "WHEN": "\"in 10m\""
                // Each URL once in the favourites: one of its own for each row that adds one.
                case "URL": "\"http://127.0.0.1:9/\(row.name)\""
                case "played|unplayed": "\"played\""
                case "off|on|gentle|medium|strong": "\"strong\""
                case "off|on|-24..-12": "\"on\""
                default: "\"word\""
                }
            }
        }
    }

    @Test("every command a key runs in the player's scope is read by the socket under the row's name and carried out")
    func everyKeyCommandRunsThroughTheSocket() throws {
        #expect(Self.keyRows.contains { $0.name == "session-suspend-toggle" })
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let second = try Fixtures.mp3(.sweep, seconds: 20, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let musicPlayer = try Player([music, second])
        let book = try BookUnderTest.folder("key-commands", files: 3, seconds: 20)
        let bookPlayer = try Player([book.path])
        for player in [musicPlayer, bookPlayer] {
            #expect(Remote.waitForPlayer(player.runtime), "no player at \(player.socket)")
        }
        let musicConnection = try RawControlConnection(musicPlayer.socket)
        let bookConnection = try RawControlConnection(bookPlayer.socket)
        // An alarm for the alarm rows' ID 1, whichever row comes first.
        musicConnection.send(#"{"id":0,"command":"alarm-in","args":[3600]}"#)
        #expect(musicConnection.readLine()?.contains(#""ok":true"#) == true)

        // Quit last: it ends the player.
        let rows = Self.keyRows.filter { $0.name != "quit" } + Self.keyRows.filter { $0.name == "quit" }
        for (index, row) in rows.enumerated() {
            let connection = row.section == .audiobooks && row.name != "book-open" ? bookConnection : musicConnection
            let arguments = Self.arguments(for: row, file: second).joined(separator: ",")
            connection.send(#"{"id":\#(index + 1),"command":"\#(row.name)","args":[\#(arguments)]}"#)
            let reply = try #require(connection.readLine(), "\(row.name): no reply")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], "\(reply)")
            #expect(object["id"] as? Int == index + 1, "\(row.name): \(reply)")
            if let refusal = Self.refusedHere[row.name] {
                #expect(object["error"] as? String == refusal, "\(row.name): \(reply)")
            } else {
                #expect(object["ok"] as? Bool == true, "\(row.name) [\(arguments)]: \(reply)")
            }
        }
        #expect(musicPlayer.process.wait(timeout: 15).exitStatus == 0, "quit did not end the player")
        bookConnection.send(#"{"id":0,"command":"quit"}"#)
        _ = bookPlayer.process.wait(timeout: 15)
    }

    @Test("interlude remote session-suspend-toggle and call-toggle: the key's names from the command line, their effect in status")
    func toggleNamesFromTheCommandLine() throws {
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let player = try Player([music])
        #expect(Remote.waitForPlayer(player.runtime), "no player at \(player.socket)")
        #expect(try Remote.status(player.runtime)["state"] as? String == "playing")

        #expect(try Remote.run(player.runtime, ["session-suspend-toggle"]).exitStatus == 0)
        #expect(try Remote.status(player.runtime)["suspended"] as? Bool == true)
        #expect(try Remote.run(player.runtime, ["session-suspend-toggle"]).exitStatus == 0)
        #expect(try Remote.status(player.runtime)["suspended"] as? Bool == false)
        // Continued: the session resumes what it paused.
        #expect(try Remote.waitUntil { try Remote.status(player.runtime)["state"] as? String == "playing" })

        #expect(try Remote.run(player.runtime, ["call", "toggle"]).exitStatus == 0)
        let during = try Remote.status(player.runtime)
        #expect(during["callActive"] as? Bool == true && during["interruption"] as? String == "call", "\(during)")
        #expect(try Remote.run(player.runtime, ["call-toggle"]).exitStatus == 0)
        #expect(try Remote.status(player.runtime)["callActive"] as? Bool == false)

        #expect(try Remote.run(player.runtime, ["volume", "0.5"]).exitStatus == 0)
        #expect(try Remote.run(player.runtime, ["volume", "up"]).exitStatus == 0)
        #expect(try Remote.status(player.runtime)["volume"] as? Double == 0.55)
        #expect(try Remote.run(player.runtime, ["volume-down"]).exitStatus == 0)
        #expect(try Remote.run(player.runtime, ["volume-down"]).exitStatus == 0)
        // 0.55 - 0.05 - 0.05 in binary floating point.
        let volume = try #require(try Remote.status(player.runtime)["volume"] as? Double)
        #expect(abs(volume - 0.45) < 1e-9, "\(volume)")
        _ = try Remote.run(player.runtime, ["quit"])
        _ = player.process.wait(timeout: 15)
    }
}
