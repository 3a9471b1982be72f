import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The next alarm in the real full-screen player: the status line
/// announces the next alarm; `interlude alarm skip` and the socket's
/// `alarm-skip` pass over one occurrence. (The missed-alarm policy end to end: `JobControlTests`.)
@Suite(.serialized)
struct TUIAlarmPolicyTests {
    /// "today", "tomorrow" or the weekday ("Wed") of 07:00 UTC `days` after the next one.
    private static func dayOf0700(after days: Int) -> (word: String, weekday: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = Date()
        let hour = calendar.component(.hour, from: now)
        let offset = (hour < 7 ? 0 : 1) + days
        let date = calendar.date(byAdding: .day, value: offset, to: now)!
        let weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][calendar.component(.weekday, from: date) - 1]
        let word = switch offset {
        case 0: "today"
        case 1: "tomorrow"
        default: weekday
        }
        return (word, weekday)
    }

    @Test("the status line announces the next alarm; alarm skip and alarm-skip pass over one ring each, and list says which")
    func nextAlarmAndSkip() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 200, rows: 50, arguments: [library])
        #expect(session.waitFor("4 Alarms").met)
        let environment = ["XDG_STATE_HOME": "\(session.directory)/state", "TZ": "UTC"]
        let added = try InterludeBinary.run(["alarm", "add", "07:00", "--repeat", "daily"], environment: environment)
        #expect(added.succeeded, "\(added.summary)")

        let first = Self.dayOf0700(after: 0)
        let announced = session.waitFor { $0.contains("next alarm \(first.word) 07:00 (in ") }
        #expect(announced.met, "\(announced.screen)")
        #expect(announced.screen.range(of: #"next alarm \#(first.word) 07:00 \(in (\d+ h )?\d+ min\)"#,
                                       options: .regularExpression) != nil, "\(announced.screen)")

        let skipped = try InterludeBinary.run(["alarm", "skip", "1"], environment: environment)
        #expect(skipped.succeeded, "\(skipped.summary)")
        #expect(skipped.stdoutText.hasPrefix("alarm 1 skips \(first.weekday) 07:00, next at "), "\(skipped.stdoutText)")
        let second = Self.dayOf0700(after: 1)
        let moved = session.waitFor { $0.contains("next alarm \(second.word) 07:00 (in ") && $0.contains("(skips \(first.weekday) 07:00)") }
        #expect(moved.met, "the player did not take the skip: \(moved.screen)")
        let list = try InterludeBinary.run(["alarm", "list"], environment: environment)
        #expect(list.stdoutText.contains("(skips \(first.weekday) 07:00)"), "\(list.stdoutText)")

        // The socket's alarm-skip, through the command table: the next one now.
        let remote = try ProcessRunner.run(InterludeBinary.path(), ["remote", "alarm-skip", "1"],
                                           environment: ["XDG_RUNTIME_DIR": session.runtimeDirectory], timeout: 15)
        #expect(remote.succeeded, "\(remote.stderrText)")
        let third = Self.dayOf0700(after: 2)
        let again = session.waitFor { $0.contains("next alarm \(third.word) 07:00 (in ") && $0.contains("(skips \(second.weekday) 07:00)") }
        #expect(again.met, "\(again.screen)")
        let listed = session.waitFor(5) { _ in
            (try? InterludeBinary.run(["alarm", "list"], environment: environment).stdoutText.contains("(skips \(second.weekday) 07:00)")) == true
        }
        #expect(listed.met, "the player's skip is not in alarms.json")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
