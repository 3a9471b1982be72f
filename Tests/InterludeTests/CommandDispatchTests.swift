import LoopIO
import Core
import Books
@testable import Interlude
import PlayerModel
import TestSupport
import Testing

/// Every player command goes through `PlayerRuntime.perform`, whichever
/// front end sent it; these drive it directly, on a runtime over the null
/// output (the frame clock), and read what it answers and reports.
@Suite(.serialized) struct CommandDispatchTests {
    /// The runtime and every event it reported.
    final class Player {
        let runtime: PlayerRuntime
        private(set) var events: [PlayerEvent] = []

        init(seconds: Double = 4, bookStore: BookStateStore? = nil) throws {
            let stream = PlayerEventStream()
            stream.writesErrorsToStandardError = false
            let file = try Fixtures.mp3(.sweep, seconds: seconds)
            var configuration = PlayerRuntime.Configuration(output: .null)
            configuration.bookStore = bookStore
            runtime = try #require(PlayerRuntime.open(configuration: configuration, paths: [file], events: stream,
                                                      signals: SignalChannel([])))
            stream.subscribe { [unowned self] in events.append($0.event) }
        }

        func perform(_ command: PlayerCommand) -> CommandResult { runtime.perform(command) }
    }

    @Test("volume and speed change the player and report it")
    func volumeAndSpeed() throws {
        let player = try Player()
        #expect(player.perform(.setVolume(0.5)) == .done)
        #expect(player.runtime.volume == 0.5)
        #expect(player.perform(.speedUp) == .done)
        #expect(player.runtime.engine.speed.description == "1.05x")
        #expect(player.events == [.volume(0.5), .speed(1.05)])
    }

    @Test("volume up and down move by the table's step and stop at 0 and 1")
    func volumeSteps() throws {
        let player = try Player()
        #expect(player.perform(.setVolume(0.97)) == .done)
        #expect(player.perform(.volumeUp) == .done)
        #expect(player.runtime.volume == 1)
        #expect(player.perform(.volumeDown) == .done)
        #expect(abs(player.runtime.volume - (1 - CommandTable.volumeStep)) < 1e-9)
        #expect(player.perform(.setVolume(0.02)) == .done)
        #expect(player.perform(.volumeDown) == .done)
        #expect(player.runtime.volume == 0)
        #expect(player.events.count == 5)
    }

    @Test("alarm-toggle disables an enabled alarm and enables it again; a gone alarm is refused")
    func alarmToggle() throws {
        let player = try Player()
        _ = player.perform(.addAlarm(afterSeconds: 60))
        let id = try #require(player.runtime.alarms.alarms.first?.id)
        #expect(player.perform(.toggleAlarm(id: id.rawValue)) == .done)
        #expect(player.runtime.alarms.alarms.first?.isEnabled == false)
        #expect(player.perform(.toggleAlarm(id: id.rawValue)) == .done)
        #expect(player.runtime.alarms.alarms.first?.isEnabled == true)
        #expect(player.perform(.toggleAlarm(id: id.rawValue + 1)) == .refused(reason: .alarmGone(id: id.rawValue + 1)))
    }

    @Test("book commands without a book are refused with the screen's sentence")
    func bookCommandsWithoutABook() throws {
        let player = try Player()
        for command in [PlayerCommand.chapterNext, .chapterPrevious, .skipBack, .skipForward, .cycleSleepTimer,
                        .addBookmark(note: nil), .jumpToBookmark(id: 1), .deleteBookmark(id: 1), .jumpToChapter(0)] {
            #expect(player.perform(command) == .refused(reason: .noBook), "\(command)")
        }
        #expect(player.events.isEmpty)
    }

    @Test("a play while a call holds the output is refused with the session's reason; after the call it plays")
    func playRefusedDuringACall() throws {
        let player = try Player()
        #expect(player.perform(.toggleCall) == .done)
        #expect(player.runtime.isCallActive)
        guard case .refused(let reason) = player.perform(.play) else {
            Issue.record("play during a call was not refused")
            return
        }
        guard case .problem(let sentence) = reason else {
            Issue.record("not the session's reason: \(reason)")
            return
        }
        #expect(!sentence.isEmpty)
        #expect(player.events.contains(.playRefused(reason: sentence)))
        #expect(player.perform(.toggleCall) == .done)
        #expect(!player.runtime.isCallActive)
        #expect(player.perform(.togglePlayPause) == .done)
        #expect(player.runtime.player.isPlaying)
        #expect(player.events.first == .callStarted)
        #expect(player.events.contains(.callEnded))
    }

    @Test("opening a book is refused where the player keeps no books; with a book store it opens during a call, held by it")
    func openBookDuringACall() throws {
        let player = try Player()
        let book = try Fixtures.mp3(.sweep, seconds: 2)
        guard case .refused(let reason) = player.perform(.openBook(book)) else {
            Issue.record("a headless runtime switched")
            return
        }
        #expect(reason == .cannotSwitch)
        #expect(reason.sentence().contains("plays what it was started with"))
        let shelf = try Player(bookStore: BookStateStore(directory: ScratchFiles.makeDirectory("dispatch-books")))
        #expect(shelf.perform(.play) == .done)
        _ = shelf.perform(.toggleCall)
        #expect(shelf.runtime.player.interruption != nil)
        guard case .done(let report?) = shelf.perform(.openBook(book)) else {
            Issue.record("the book was not opened during the call")
            return
        }
        #expect(report.sentence.hasPrefix("opening "))
        #expect(shelf.runtime.book?.book.path == AbsolutePath.absolute(book))
        #expect(shelf.runtime.isSpokenAudio)
        // Held by the call, and to play when it ends.
        #expect(!shelf.runtime.player.isPlaying)
        #expect(shelf.runtime.player.interruption?.resumeWhenEnded == true)
        _ = shelf.perform(.toggleCall)
        #expect(shelf.runtime.player.isPlaying)
    }

    @Test("alarms: in N seconds answers with the screen's message; a time that does not parse is refused")
    func alarms() throws {
        let player = try Player()
        let result = player.perform(.addAlarm(afterSeconds: 5))
        guard case .done(report: .alarmSet(id: 1, seconds: 5, let at)?) = result else {
            Issue.record("not an alarm in 5 seconds: \(result)")
            return
        }
        #expect(CommandReport.alarmSet(id: 1, seconds: 5, at: at).sentence == "alarm #1 rings in 5 seconds, at \(at)")
        #expect(player.runtime.testAlarms.count == 1)
        guard case .alarmAdded(let id, .inSeconds(5))? = player.events.last else {
            Issue.record("no alarmAdded event: \(player.events)")
            return
        }
        #expect(id.rawValue == 1)
        guard case .refused(let reason) = player.perform(.addAlarmSchedule("soonish")) else {
            Issue.record("a bad time was accepted")
            return
        }
        #expect(!reason.sentence().isEmpty)
        #expect(player.perform(.deleteAlarm(id: 1)) == .done)
        #expect(player.runtime.alarms.alarms.isEmpty)
    }

    @Test("enqueue answers how many files were added; quit ends the run")
    func enqueueAndQuit() throws {
        let player = try Player()
        let second = try Fixtures.mp3(.sweep, seconds: 3)
        #expect(player.perform(.enqueue([second])) == .done(report: .queued(count: 1)))
        #expect(player.runtime.queue.count == 2)
        #expect(player.events == [.enqueued(count: 1)])
        #expect(player.perform(.quit) == .done)
        #expect(player.runtime.quitRequested)
    }
}
