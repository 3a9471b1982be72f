import PlayerModel
import Testing
@testable import TUI

/// Keys and standard input only translate text into the one `PlayerCommand`
/// type: the same action reaches the player as the same value either way.
struct CommandTranslationTests {
    let source = MemoryBrowserSource.library

    func keys(_ text: String, book: Bool) -> [InterfaceAction] {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        var snapshot = PlayerSnapshot()
        if book {
            snapshot.book = BookInfo(path: "/books/b", title: "b",
                                     chapters: [.init(title: "one", startMilliseconds: 0, durationMilliseconds: 1000)],
                                     currentChapter: 0)
        }
        return text.flatMap { character in
            ui.handle(character == " " ? .named(.space) : .character(character), snapshot: snapshot, source: source)
        }
    }

    @Test("space, x, z and Q send what toggle, dismiss, snooze and quit do on standard input")
    func playerKeysAndWords() {
        let words = ["toggle", "dismiss", "snooze", "quit"].map(StandardInputVocabulary.command(for:))
        #expect(keys(" xzQ", book: false) == words.map { .player($0!) })
    }

    @Test("the book keys send what next-chapter, prev-chapter, skip-back and skip-forward do")
    func bookKeysAndWords() {
        let words = ["next-chapter", "prev-chapter", "skip-back", "skip-forward"].map(StandardInputVocabulary.command(for:))
        #expect(keys("><,.", book: true) == words.map { .player($0!) })
        #expect(words.allSatisfy { $0?.needsBook == true })
    }

    @Test("standard input's words in any case; play and pause; an unknown word names them all")
    func vocabulary() {
        #expect(StandardInputVocabulary.command(for: "PLAY") == .play)
        #expect(StandardInputVocabulary.command(for: "pause") == .pause)
        #expect(StandardInputVocabulary.command(for: "jump") == nil)
        // station-add alone: the stream playing, under its own name.
        #expect(StandardInputVocabulary.command(for: "station-add") == .addStation(url: nil, name: nil))
        #expect(StandardInputVocabulary.unknown("jump") == "unknown command 'jump' (play, pause, play-pause, stop, go-live, mute, "
                + "shuffle-toggle, repeat-cycle, chapter-next, chapter-previous, trim-silence, voice-boost, skip-back, skip-forward, station-add, "
                + "alarm-snooze, alarm-dismiss, quit)")
    }
}
