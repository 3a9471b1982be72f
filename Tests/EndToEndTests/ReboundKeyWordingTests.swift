import Foundation
import Testing
import TestSupport

/// No core message names a key. The player refuses
/// with a reason; the screen words it with the keys bound now, the socket
/// with none. The real binary in tmux, with a keys file that rebinds snooze.
@Suite(.serialized) struct ReboundKeyWordingTests {
    @Test("snooze rebound to Z: the status line names Z, and no socket reply during the alarm or the call names a key")
    func reboundSnoozeIsNamedOnTheScreenOnly() throws {
        let book = try BookUnderTest.folder("Rebound Book", files: 1, seconds: 30)
        let root = (book.path as NSString).deletingLastPathComponent
        let session = try TUISession(columns: 120, rows: 40, arguments: [root], environment: book.environment) { config in
            try "bind Z alarm-snooze\n".write(toFile: config + "/interlude/keys", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor((book.path as NSString).lastPathComponent + "/").met, "\(session.screen())")
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime), "no control socket: \(session.screen())")
        try session.press("a")
        #expect(session.waitFor("alarmRinging").met, "\(session.screen())")

        // The status line names the key bound now; what the socket says of the same moment names none.
        let hint = session.waitFor("alarm ringing (Z snooze, x dismiss)")
        #expect(hint.met, "\(hint.screen)")
        #expect(!hint.screen.contains("z snooze"))
        let keys = ["(Z)", "(z)", "(x)", "(c)", "Z snooze", "z snooze", "x dismiss", "c ends"]
        for words in [["status"], ["play"], ["book", book.path]] {
            let reply = try Remote.run(runtime, words)
            for key in keys { #expect(!(reply.stdoutText + reply.stderrText).contains(key), "\(words): \(reply.summary)") }
        }

        // The new key snoozes; then a call: the same again.
        try session.press("Z")
        #expect(session.waitFor("alarmEnded").met, "\(session.screen())")
        #expect(try Remote.run(runtime, ["call", "start"]).exitStatus == 0)
        let callHint = session.waitFor("call (c ends)")
        #expect(callHint.met, "\(callHint.screen)")
        for words in [["status"], ["play"], ["pause"]] {
            let reply = try Remote.run(runtime, words)
            for key in keys { #expect(!(reply.stdoutText + reply.stderrText).contains(key), "\(words): \(reply.summary)") }
        }
        #expect(try Remote.run(runtime, ["call", "end"]).exitStatus == 0)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}

extension ReboundKeyWordingTests {
    @Test("play-selection rebound to P: queueing during a book, the screen's hint names P, and the socket's reply names no key")
    func reboundPlaySelectionIsNamedOnTheScreenOnly() throws {
        let book = try BookUnderTest.folder("Rebound Queue Book", files: 1, seconds: 30)
        let root = (book.path as NSString).deletingLastPathComponent
        let session = try TUISession(columns: 120, rows: 40, arguments: [root], environment: book.environment) { config in
            try "unbind enter\nbind P play-selection\n".write(toFile: config + "/interlude/keys", atomically: true, encoding: .utf8)
        }
        #expect(session.waitFor((book.path as NSString).lastPathComponent + "/").met, "\(session.screen())")
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime), "no control socket: \(session.screen())")
        try session.press("G", "b")
        #expect(session.waitFor("bookOpened").met, "\(session.screen())")
        #expect(Remote.waitForPlayer(runtime), "no control socket after the switch: \(session.screen())")

        try session.press("e")
        let hint = session.waitFor("a book is playing: P on a file plays music instead (the book keeps its place)")
        #expect(hint.met, "\(hint.screen)")

        let reply = try Remote.run(runtime, ["queue", "add", book.path])
        #expect(reply.exitStatus == 1, "\(reply.summary)")
        #expect(reply.stderrText.contains("a book is playing: playing a file plays music instead"), "\(reply.stderrText)")
        for key in ["P on", "enter on"] { #expect(!reply.stderrText.contains(key), "\(reply.stderrText)") }
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}

extension ReboundKeyWordingTests {
    @Test("play-pause rebound to P, no device at start: the banner names P, and the player's own line about the device names the command, no key")
    func noDeviceLineNamesNoKey() throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 30)
        let (_, pulse) = try NoSoundCardTests.absentServer()
        let session = try TUISession(columns: 200, rows: 40, arguments: [music], environment: pulse) { config in
            try "unbind space\nbind P play-pause\n".write(toFile: config + "/interlude/keys", atomically: true, encoding: .utf8)
        }
        let waiting = session.waitFor { NoSoundCardTests.bannerLine($0).contains("audio device 'pulse'") }
        #expect(waiting.met, "\(waiting.screen)")
        #expect(NoSoundCardTests.bannerLine(waiting.screen).hasPrefix(" audio paused — press P to resume ("), "\(waiting.screen)")
        // The event log wraps the line: it is the player's, so it names the command ("play"), not the key bound to it.
        let line = session.waitFor("(playback waits: play again to try the")
        #expect(line.met, "\(line.screen)")
        for key in ["space", "press P to try", "type 'play'"] { #expect(!line.screen.contains(key), "\(key): \(line.screen)") }
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
