import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Through the real binary: two writers of one state file
/// (a running player and the command line, two players) never lose a write.
@Suite(.serialized) struct SharedStateTests {
    static func alarmsOnDisk(_ stateHome: String) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: stateHome + "/interlude/alarms.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["alarms"] as? [[String: Any]] ?? []
    }

    @Test("'interlude alarm add 08:00' while a player runs, then a toggle in the player: the file keeps the new alarm and the player lists it")
    func alarmAddedFromTheCommandLineSurvivesThePlayersSave() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        var stateHome = ""
        let session = try TUISession(columns: 120, rows: 40, arguments: [library]) { configHome in
            // The player's alarms: one from before it started.
            stateHome = (configHome as NSString).deletingLastPathComponent + "/state"
            try InterludeBinary.run(["alarm", "add", "07:00"], environment: ["XDG_STATE_HOME": stateHome, "TZ": "UTC"]).check()
        }
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime))
        let added = try InterludeBinary.run(["alarm", "add", "08:00"], environment: ["XDG_STATE_HOME": stateHome, "TZ": "UTC"]).check()
        #expect(added.stdoutText.hasPrefix("alarm 2 added"), "\(added.stdoutText)")
        // At once, before the player need have read the file: its own save of its alarms.
        try Remote.run(runtime, ["alarm", "disable", "1"]).check()

        func ids() -> [Int] { Self.alarmsOnDisk(stateHome).compactMap { $0["id"] as? Int }.sorted() }
        #expect(Remote.waitUntil(5) { Self.alarmsOnDisk(stateHome).first { $0["id"] as? Int == 1 }?["isEnabled"] as? Bool == false },
                "the toggle never reached the file: \(Self.alarmsOnDisk(stateHome))")
        #expect(ids() == [1, 2], "the player's save wrote its old list back: \(Self.alarmsOnDisk(stateHome))")

        func listed() throws -> [Int] {
            let reply = try Remote.run(runtime, ["alarms", "--json"]).check()
            let rows = (try? JSONSerialization.jsonObject(with: reply.stdout) as? [[String: Any]]) ?? []
            return rows.compactMap { $0["id"] as? Int }.sorted()
        }
        #expect(try Remote.waitUntil(5) { try listed() == [1, 2] }, "the player does not list alarm 2: \((try? listed()) ?? [])")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        #expect(ids() == [1, 2], "quitting wrote a stale list: \(Self.alarmsOnDisk(stateHome))")
    }

    @Test("alarms added and removed by 'interlude alarm' show in a running player's list without anything done in the player")
    func thePlayerPicksUpAlarmChangesMadeOutsideIt() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        var stateHome = ""
        let session = try TUISession(columns: 120, rows: 40, arguments: [library]) { configHome in
            stateHome = (configHome as NSString).deletingLastPathComponent + "/state"
            try InterludeBinary.run(["alarm", "add", "07:00"], environment: ["XDG_STATE_HOME": stateHome, "TZ": "UTC"]).check()
        }
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime))
        func listed() -> [Int] {
            guard let reply = try? Remote.run(runtime, ["alarms", "--json"]).check() else { return [] }
            let rows = (try? JSONSerialization.jsonObject(with: reply.stdout) as? [[String: Any]]) ?? []
            return rows.compactMap { $0["id"] as? Int }.sorted()
        }
        #expect(Remote.waitUntil(5) { listed() == [1] })
        let environment = ["XDG_STATE_HOME": stateHome, "TZ": "UTC"]
        try InterludeBinary.run(["alarm", "add", "09:00"], environment: environment).check()
        #expect(Remote.waitUntil(5) { listed() == [1, 2] }, "the player did not pick up alarm 2: \(listed())")
        try InterludeBinary.run(["alarm", "rm", "1"], environment: environment).check()
        #expect(Remote.waitUntil(5) { listed() == [2] }, "the player still lists alarm 1: \(listed())")
        // The screen follows: the alarms pane lists 09:00.
        let pane = session.waitFor(5) { $0.contains("09:00") }
        #expect(pane.met, "\(pane.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        #expect(Self.alarmsOnDisk(stateHome).compactMap { $0["id"] as? Int } == [2], "\(Self.alarmsOnDisk(stateHome))")
    }

    @Test("'interlude bookmark add' from two processes at once while a player saves the book's place: every bookmark is kept")
    func bookmarksFromTwoProcessesAndAPlayer() throws {
        let book = try BookUnderTest.folder("Shared", files: 1, seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try InterludeBinary.start(["play", book.path, "--device", "pulse", "--events", "json"],
                                               environment: sink.environment.merging(book.environment) { $1 })
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        #expect(Remote.waitUntil(20) { !player.eventsSoFar().named("positionSaved").isEmpty })
        let perWriter = 12
        let script = "for i in $(seq 1 \(perWriter)); do \(TUISession.quoted(InterludeBinary.path())) bookmark add "
            + "\(TUISession.quoted(book.path)) --at \"$i\" --note \"$1 $i\" >/dev/null || exit 1; done"
        let writers = try (0..<2).map { writer in
            try BackgroundProcess.start("/bin/sh", ["-c", script, "sh", "writer\(writer)"], environment: book.environment)
        }
        for writer in writers {
            #expect(Remote.waitUntil(120) { !writer.isRunning }, "a writer did not finish")
        }
        #expect(player.isRunning)
        _ = player.stop(signal: SIGTERM, grace: 5)
        let state = try book.state()
        let marks = state["bookmarks"] as? [[String: Any]] ?? []
        #expect(marks.count == 2 * perWriter, "\(marks.count) bookmarks kept of \(2 * perWriter)")
        #expect(Set(marks.compactMap { $0["id"] as? Int }).count == marks.count, "two bookmarks share a number")
        #expect(Set(marks.compactMap { $0["note"] as? String }).count == 2 * perWriter)
    }

    @Test("two players (--new) both restore and save the queue: the volume the first set stays when the second quits last")
    func twoPlayersSaveTheQueue() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(3)), seconds: 30)
        let tracks = TaggedLibrary.standard.prefix(3).map { "\(library)/\($0.folder)/\($0.file)" }
        var stateHome = ""
        // A folder: the browser opens there and the saved queue comes back.
        let first = try TUISession(columns: 120, rows: 40, arguments: [library]) { configHome in
            stateHome = (configHome as NSString).deletingLastPathComponent + "/state"
            try FileManager.default.createDirectory(atPath: stateHome + "/interlude", withIntermediateDirectories: true)
            let saved: [String: Any] = ["queue": Array(tracks.prefix(2)), "index": 0, "position": 2.0, "volume": 1.0]
            try JSONSerialization.data(withJSONObject: saved).write(to: URL(fileURLWithPath: stateHome + "/interlude/player.json"))
        }
        let runtime = first.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime), "\(first.screen())")
        let second = try TUISession(columns: 120, rows: 40, arguments: ["--new", library],
                                    environment: ["XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": runtime])
        #expect(Remote.waitForPlayer(runtime, instance: 2))
        try Remote.run(runtime, ["--instance", "1", "volume", "0.4"]).check()
        try Remote.run(runtime, ["--instance", "2", "queue", "add", tracks[2]]).check()
        try first.press("q")
        #expect(first.waitFor("EXITED 0").met)
        try second.press("q")
        #expect(second.waitFor("EXITED 0").met)

        let data = try Data(contentsOf: URL(fileURLWithPath: stateHome + "/interlude/player.json"))
        let saved = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(saved["queue"] as? [String] == tracks, "the second player's queue, saved last")
        #expect(saved["volume"] as? Double == 0.4, "the first player's volume was written over with a stale one: \(saved)")
    }
}
