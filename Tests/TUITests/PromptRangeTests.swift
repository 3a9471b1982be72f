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

    @Test("the seek prompt reads 1:23:45, 12:30 and 90 as places from the start, +30 and -10 from here, in the listener's time")
    func seekPromptReadsTimesAsPeopleWriteThem() {
        var ui = InterfaceState(browser: nil)
        var playing = PlayerSnapshot()
        playing.currentIndex = 0
        // A book 40 minutes in (book time): a place is a seek by its distance from here.
        playing.bookPath = "/books/keeper"
        playing.elapsed = 2400
        #expect(ui.submit(.seekTime, "1:23:45", snapshot: playing) == [.player(.seek(seconds: 5025 - 2400))])
        #expect(ui.submit(.seekTime, "12:30", snapshot: playing) == [.player(.seek(seconds: 750 - 2400))])
        #expect(ui.submit(.seekTime, "90", snapshot: playing) == [.player(.seek(seconds: 90 - 2400))])
        #expect(ui.submit(.seekTime, "+30", snapshot: playing) == [.player(.seek(seconds: 30))])
        #expect(ui.submit(.seekTime, "-10", snapshot: playing) == [.player(.seek(seconds: -10))])
        #expect(ui.submit(.seekTime, "-1:30", snapshot: playing) == [.player(.seek(seconds: -90))])
        #expect(ui.message == nil)
        // Not a time: the table's sentence, quoting what was typed; nothing reaches the player.
        #expect(ui.submit(.seekTime, "soon", snapshot: playing).isEmpty)
        #expect(ui.message == .init(text: "seek-to: expects a time from the start (90, 12:30, 1:23:45) or from here (+30, -10), not 'soon'",
                                    isError: true))
        #expect(ui.submit(.seekTime, "12:75", snapshot: playing).isEmpty)
        // Nothing playing: said, nothing sent.
        ui.message = nil
        #expect(ui.submit(.seekTime, "90", snapshot: PlayerSnapshot()).isEmpty)
        #expect(ui.message?.text == "seek-to: nothing is playing")
    }
}
