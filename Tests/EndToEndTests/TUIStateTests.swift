import Foundation
import Testing
import TestSupport

/// q saves the queue and the place in it; the next start without files brings them back.
@Suite(.serialized) struct TUIStateTests {
    @Test("q saves the queue and the position; started again on a folder, the queue comes back paused there, and space plays on from it")
    func quitSavesTheQueueAndThePlace() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 30)
        let first = "\(library)/Tones/1 Morning.mp3"
        let second = "\(library)/Tones/2 Noon.mp3"
        let session = try TUISession(columns: 120, rows: 40, arguments: [first, second])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("n")
        #expect(session.waitFor { $0.contains("trackStarted") && $0.contains("index=1") }.met, "\(session.screen())")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 3 }.met)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)

        let stateFile = "\(session.directory)/state/interlude/player.json"
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stateFile))) as? [String: Any])
        #expect(json["queue"] as? [String] == [first, second])
        #expect(json["index"] as? Int == 1)
        let saved = try #require(json["position"] as? Double)
        #expect(saved >= 3 && saved < 30)

        // Again, on the folder only: the queue is back, on the second entry, paused at the saved place.
        let again = session.commandLine.replacingOccurrences(of: TUISession.quoted(first) + " " + TUISession.quoted(second),
                                                             with: TUISession.quoted(library))
        #expect(again != session.commandLine)
        try session.type("clear; " + again + "; echo AGAIN $?")
        try session.press("Enter")
        let restored = session.waitFor { $0.contains("Noon") && $0.contains("paused position=") }
        #expect(restored.met, "\(restored.screen)")
        #expect(TUISession.elapsed(restored.screen) == Int(saved))
        // Paused: the clock does not move until space.
        try session.press("Space")
        let resumed = session.waitFor { $0.contains("resumed position=") && (TUISession.elapsed($0) ?? 0) > Int(saved) }
        #expect(resumed.met, "\(resumed.screen)")
        #expect(!resumed.screen.contains("trackStarted path=\(first)"), "it started from the beginning of the queue")
        try session.press("q")
        #expect(session.waitFor("AGAIN 0").met)
    }

    @Test("a player.json that is not JSON is reported, set aside, and the player starts with an empty queue")
    func aCorruptStateFileIsSetAside() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 120, rows: 40, arguments: [library]) { _ in }
        #expect(session.waitFor("Tones/").met)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        let stateDirectory = "\(session.directory)/state/interlude"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try Data("{\"queue\": [".utf8).write(to: URL(fileURLWithPath: stateDirectory + "/player.json"))
        try session.type("clear; " + session.commandLine + "; echo AGAIN $?")
        try session.press("Enter")
        let shown = session.waitFor { $0.contains("player.json could not be read") }
        #expect(shown.met, "\(shown.screen)")
        let names = try FileManager.default.contentsOfDirectory(atPath: stateDirectory)
        // Under the UTC time, as every state file is set aside, so a second never overwrites the first.
        #expect(names.contains { $0.hasPrefix("player.json.corrupt-") && $0.hasSuffix("Z") }, "\(names)")
        try session.press("q")
        #expect(session.waitFor("AGAIN 0").met)
    }
}
