import Foundation
import Testing
import TestSupport

/// The event log's wrapping, with the real binary in tmux: at 120x40 (the size
/// the acceptance tests had to avoid) the log pane shows the whole
/// interruption line, `wasSuspended=true` and the fields after it included.
@Suite(.serialized) struct TUIEventLogTests {
    @Test("at 120x40 a suspended session's alarm shows wasSuspended=true and every field after it in the log")
    func wasSuspendedIsOnScreenAt120x40() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let session = try TUISession(columns: 120, rows: 40, arguments: ["\(library)/Tones/1 Morning.mp3", "--resume-delay", "3"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met)
        try session.press("s")
        #expect(session.waitFor("session suspended").met)
        try session.press("a")
        #expect(session.waitFor("alarmRinging").met)
        // The field, then the two after it on the same or the wrapped next line.
        let shown = session.waitFor { screen in
            // The log pane is right of the alarms pane's separator; its wrapped rows read on.
            let log = TUISession.rows(screen).compactMap { $0.components(separatedBy: "│").dropFirst().last }
                .joined(separator: " ").split(separator: " ").joined(separator: " ")
            return log.contains("reason=appWasSuspended wasSuspended=true id=1 source=suspension")
        }
        #expect(shown.met, "\(shown.screen)")
        #expect(!shown.screen.contains("wasSusp…") && !shown.screen.contains("reason=appWasSuspended…"), "\(shown.screen)")
        try session.press("x")
        #expect(session.waitFor("alarmEnded reason=dismissed").met)
    }
}
