import Foundation
import Testing
import TestSupport

/// `interlude play` in a terminal (tmux): its progress line on stderr shows
/// where the listener is, also after a seek or a move while paused, when no
/// more audio plays to move it along.
@Suite(.serialized) struct ProgressLineTests {
    @Test func aSeekWhilePausedShowsOnTheProgressLineAtOnce() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 60, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let session = try TUISession(columns: 100, rows: 10, arguments: ["play", mp3])
        #expect(session.waitFor { $0.contains("/ 1:00 [") }.met, "\(session.screen())")
        try session.type("pause")
        try session.press("Enter")
        #expect(try Remote.waitUntil { try Remote.status(session.runtimeDirectory)["state"] as? String == "paused" })
        try Remote.run(session.runtimeDirectory, ["seek-to", "42"]).check()
        let shown = session.waitFor { $0.contains("0:42 / 1:00 [") }
        #expect(shown.met, "\(shown.screen)")
        try Remote.run(session.runtimeDirectory, ["seek", "-30"]).check()
        let back = session.waitFor { $0.contains("0:12 / 1:00 [") }
        #expect(back.met, "\(back.screen)")
        #expect(try Remote.status(session.runtimeDirectory)["state"] as? String == "paused")
        try session.type("quit")
        try session.press("Enter")
    }
}
