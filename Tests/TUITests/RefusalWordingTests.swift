import PlayerModel
import Testing
@testable import TUI

/// The core's refusals are data; the screen words them with the keys bound
/// now, every other front end with none.
struct RefusalWordingTests {
    static let all: [Refusal] = [
        .noBook, .enqueueDuringBook, .clearQueueDuringBook, .playOrderDuringBook, .emptyQueue,
        .playlistNamesNoFile(path: "/p.m3u"), .notABook(path: "/x"), .bookPlayingAlready(title: "T"), .cannotSwitch,
        .alarmRinging, .callActive, .sessionSuspended, .noBookmark(id: 2), .alarmGone(id: 3), .problem("a file's error"),
    ]

    @Test("with the default keys the screen names them, as it always did")
    func defaultKeys() {
        let ui = InterfaceState(browser: nil)
        #expect(ui.sentence(for: .alarmRinging) == "an alarm is ringing: snooze (z) or dismiss (x) it first")
        #expect(ui.sentence(for: .callActive) == "a call is on: end it (c) first")
        #expect(ui.sentence(for: .sessionSuspended) == "the session is suspended: continue it (s) first")
        #expect(ui.sentence(for: .enqueueDuringBook)
                == "a book is playing: enter on a file plays music instead (the book keeps its place)")
    }

    @Test("snooze rebound to Z: the screen names Z; unbound dismiss is named without a key")
    func reboundKeys() {
        let load = KeyConfigParser.apply("bind Z alarm-snooze\nunbind z\nunbind x", path: "keys")
        #expect(load.problems.isEmpty)
        let ui = InterfaceState(bindings: load.bindings, browser: nil)
        #expect(ui.sentence(for: .alarmRinging) == "an alarm is ringing: snooze (Z) or dismiss it first")
    }

    @Test("without keys (the socket, MPRIS, standard input) no sentence names a key", arguments: all)
    func noKeysNamed(_ reason: Refusal) {
        let sentence = reason.sentence()
        #expect(!sentence.isEmpty)
        for (key, _) in KeyBindings.defaults.all {
            #expect(!sentence.contains("(\(key))"), "\(sentence)")
        }
        #expect(!sentence.contains("enter on"), "\(sentence)")
        if reason == .alarmRinging { #expect(sentence == "an alarm is ringing: snooze or dismiss it first") }
    }
}
