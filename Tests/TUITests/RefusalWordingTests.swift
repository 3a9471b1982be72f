import PlayerModel
import Testing
@testable import TUI

/// The core's refusals are data; the screen words them with the keys bound
/// now, every other front end with none.
struct RefusalWordingTests {
    static let all: [Refusal] = [
        .noBook, .enqueueDuringBook, .clearQueueDuringBook, .playOrderDuringBook, .emptyQueue,
        .playlistNamesNoFile(path: "/p.m3u"), .notABook(path: "/x"), .bookPlayingAlready(title: "T"), .cannotSwitch,
        .noBookmark(id: 2), .alarmGone(id: 3), .problem("a file's error"),
    ]

    @Test("with the default keys the screen names them, as it always did")
    func defaultKeys() {
        let ui = InterfaceState(browser: nil)
        #expect(ui.sentence(for: .enqueueDuringBook)
                == "a book is playing: enter on a file plays music instead (the book keeps its place)")
    }

    @Test("play-selection rebound to P: the screen names P; unbound, it is named without a key")
    func reboundKeys() {
        let load = KeyConfigParser.apply("bind P play-selection\nunbind enter", path: "keys")
        #expect(load.problems.isEmpty)
        let ui = InterfaceState(bindings: load.bindings, browser: nil)
        #expect(ui.sentence(for: .enqueueDuringBook)
                == "a book is playing: P on a file plays music instead (the book keeps its place)")
        let unbound = InterfaceState(bindings: KeyConfigParser.apply("unbind enter", path: "keys").bindings, browser: nil)
        #expect(unbound.sentence(for: .enqueueDuringBook)
                == "a book is playing: playing a file plays music instead (the book keeps its place)")
    }

    @Test("without keys (the socket, MPRIS, standard input) no sentence names a key", arguments: all)
    func noKeysNamed(_ reason: Refusal) {
        let sentence = reason.sentence()
        #expect(!sentence.isEmpty)
        for (key, _) in KeyBindings.defaults.all {
            #expect(!sentence.contains("(\(key))"), "\(sentence)")
        }
        #expect(!sentence.contains("enter on"), "\(sentence)")
    }
}
