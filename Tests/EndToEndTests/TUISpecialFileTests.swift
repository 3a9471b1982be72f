import Foundation
import Testing
import TestSupport

/// Special files and wild numbers in the full-screen player: a FIFO named `00.mp3` in the folder the
/// player opens left a blank screen (the browser's tag read blocked the main
/// loop for good), and a `player.json` whose position is `1e300` trapped in
/// `frames(forSeconds:)` on every start.
@Suite(.serialized) struct TUISpecialFileTests {
    @Test("a FIFO named 00.mp3 in the opened folder is listed, the screen and the player answer, and q quits")
    func aFIFOInTheOpenedFolderDoesNotBlockTheScreen() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let folder = "\(library)/Tones"
        try ProcessRunner.check("mkfifo", ["\(folder)/00.mp3"])
        let session = try TUISession(columns: 120, rows: 40, arguments: [folder])
        let shown = session.waitFor { $0.contains("\n 00 ") && $0.contains("\n Morning ") }
        #expect(shown.met, "\(shown.screen)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    @Test("a player.json whose position is 1e300 does not stop the player from starting")
    func anImpossiblePositionDoesNotTrap() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let track = "\(library)/Tones/1 Morning.mp3"
        let session = try TUISession(columns: 120, rows: 40, arguments: [library]) { _ in }
        #expect(session.waitFor("Tones/").met)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        let stateDirectory = "\(session.directory)/state/interlude"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let state = "{\"queue\": [\(String(reflecting: track))], \"index\": 0, \"position\": 1e300, \"volume\": 1}"
        try Data(state.utf8).write(to: URL(fileURLWithPath: stateDirectory + "/player.json"))
        try session.type("clear; " + session.commandLine + "; echo AGAIN $?")
        try session.press("Enter")
        let shown = session.waitFor { $0.contains("Tones/") }
        #expect(shown.met, "\(shown.screen)")
        try session.press("q")
        let ended = session.waitFor { $0.contains("AGAIN ") }
        #expect(ended.screen.contains("AGAIN 0"), "\(ended.screen)")
    }
}
