import PlayerModel
import Testing
@testable import TUI

/// The screen's prompts build their commands through the command table's
/// rows, with the socket's parse and ranges: an answer out of range is
/// refused with the table's sentence and nothing goes to the player.
struct PromptRangeTests {
    @Test("alarm seconds beyond the table's range are refused in its words; in range, the table's command")
    func alarmSecondsOutOfRange() {
        var ui = InterfaceState(browser: nil)
        #expect(ui.submit(.alarmSeconds, "700000").isEmpty)
        #expect(ui.message == .init(text: "alarm-in: expects whole seconds from 1 to 604800, not 700000", isError: true))
        #expect(ui.submit(.alarmSeconds, "0").isEmpty)
        #expect(ui.message?.text == "alarm-in: expects whole seconds from 1 to 604800, not 0")
        #expect(ui.submit(.alarmSeconds, "soon").isEmpty)
        #expect(ui.message?.text == "alarm-in: expects whole seconds from 1 to 604800, not 'soon'")
        #expect(ui.submit(.alarmSeconds, "90") == [.player(.addAlarm(afterSeconds: 90))])
    }

    @Test("a bookmark note longer than the table allows is refused in its words and never reaches the player")
    func longNoteIsRefused() {
        var ui = InterfaceState(browser: nil)
        #expect(ui.submit(.bookmarkNote, String(repeating: "n", count: 1001)).isEmpty)
        #expect(ui.message == .init(text: "bookmark-add: the note is 1001 characters long; at most 1000", isError: true))
        #expect(ui.submit(.bookmarkNote, "") == [.player(.addBookmark(note: nil))])
        #expect(ui.submit(.bookmarkNote, "map") == [.player(.addBookmark(note: "map"))])
    }

    @Test("a new alarm's time and a playlist's name are the table's text arguments, a number among them")
    func textAnswersStayText() {
        var ui = InterfaceState(browser: nil)
        #expect(ui.submit(.alarmNew, "07:30") == [.player(.addAlarmSchedule("07:30"))])
        #expect(ui.submit(.playlistName, "42") == [.player(.saveQueue(path: "42"))])
        #expect(ui.submit(.playlistName, "").isEmpty)
    }
}
