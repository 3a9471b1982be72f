import Foundation
import Testing
import TestSupport

/// Issue 24, acceptance 3: no core message names a key. The player refuses
/// with a reason; the screen words it with the keys bound now, the socket
/// with none. The real binary in tmux, with a keys file that rebinds snooze.
@Suite(.serialized) struct ReboundKeyWordingTests {
    @Test("snooze rebound to Z: the screen's hint names Z, and the socket's reply to the same refusal names no key")
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

        try session.press("G", "b")
        let hint = session.waitFor("an alarm is ringing: snooze (Z) or dismiss (x) it first")
        #expect(hint.met, "\(hint.screen)")
        #expect(!hint.screen.contains("snooze (z)"))
        // The status line's hint too.
        #expect(hint.screen.contains("alarm ringing (Z snooze, x dismiss)"), "\(hint.screen)")

        let reply = try Remote.run(runtime, ["book", book.path])
        #expect(reply.exitStatus == 1, "\(reply.summary)")
        #expect(reply.stderrText.contains("an alarm is ringing: snooze or dismiss it first"), "\(reply.stderrText)")
        for key in ["(Z)", "(z)", "(x)"] { #expect(!reply.stderrText.contains(key), "\(reply.stderrText)") }

        // The new key snoozes; then a call: the same again.
        try session.press("Z")
        #expect(session.waitFor("alarmEnded").met, "\(session.screen())")
        #expect(try Remote.run(runtime, ["call", "start"]).exitStatus == 0)
        try session.press("b")
        let callHint = session.waitFor("a call is on: end it (c) first")
        #expect(callHint.met, "\(callHint.screen)")
        let callReply = try Remote.run(runtime, ["book-open", book.path])
        #expect(callReply.stderrText.contains("a call is on: end it first"), "\(callReply.stderrText)")
        #expect(!callReply.stderrText.contains("(c)"), "\(callReply.stderrText)")
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
