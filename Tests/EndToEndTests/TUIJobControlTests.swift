import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Job control in the full-screen player (the headless player's: `JobControlTests`).
@Suite(.serialized)
struct TUIJobControlTests {
    /// Stopped with Ctrl-Z past an alarm's time, then `fg`: the alarm rings
    /// late, and the keys still work. The first key read after `fg` made
    /// ncurses report a resize; the player resized again, which queued another
    /// KEY_RESIZE, and it read only resizes from then on (a full core, no key
    /// ever seen): the ringing alarm could not be dismissed.
    @Test("an alarm found late after Ctrl-Z and fg rings, and x dismisses it")
    func lateAlarmAfterCtrlZIsDismissed() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 120, rows: 45, arguments: ["\(library)/Tones/1 Morning.mp3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        let environment = ["XDG_STATE_HOME": "\(session.directory)/state", "TZ": "UTC"]
        let added = try InterludeBinary.run(["alarm", "add", "in", "4s"], environment: environment)
        #expect(added.succeeded, "\(added.summary)")
        let taken = session.waitFor { $0.contains("#1 on") }
        #expect(taken.met, "the player did not take the alarm: \(taken.screen)")

        try session.tmux(["send-keys", "C-z"])
        let stopped = session.waitFor("Stopped")
        #expect(stopped.met, "\(stopped.screen)")
        // Stopped until past the alarm's time (4 s after it was added).
        usleep(6_000_000)
        try session.tmux(["send-keys", "-l", "fg"])
        try session.tmux(["send-keys", "Enter"])
        let late = session.waitFor { $0.contains("alarmLate") && $0.contains("player was stopped") }
        #expect(late.met, "the alarm did not ring late after fg: \(late.screen)")

        try session.press("x")
        let dismissed = session.waitFor { $0.contains("alarmEnded reason=dismissed") }
        #expect(dismissed.met, "x did not dismiss the ringing alarm after fg: \(dismissed.screen)")
    }
}
