@testable import Interlude
import Core
import Foundation
import InterludeCore
import LoopIO
import PlayerModel
import Testing
import TestSupport

/// The queue edited as a user edits it: the remote's numbers read as
/// numbers, the keys' edits of any entry, the saved queue what the pane shows,
/// and player.json remembering that a book played last.
struct QueueEditingTests {
    @Test("interlude remote's words become numbers where the row takes a count: queue-remove 1, queue-move 0 1, queue move up 2")
    func remoteWordsAreNumbers() throws {
        let remove = try RemoteCommandLine.translate(["queue-remove", "1"])
        #expect(remove == .init(command: "queue-remove", arguments: [.integer(1)]))
        #expect(try RemoteRequest.parse(Array(RemoteCommandLine.requestLine(id: 1, remove).utf8)).action
                == .perform(.editQueue(.remove(from: 1, count: 1))))
        let move = try RemoteCommandLine.translate(["queue", "move", "0", "1"])
        #expect(move == .init(command: "queue-move", arguments: [.integer(0), .integer(1)]))
        #expect(try RemoteRequest.parse(Array(RemoteCommandLine.requestLine(id: 2, move).utf8)).action
                == .perform(.editQueue(.move(from: 0, count: 1, to: 1))))
        let up = try RemoteCommandLine.translate(["queue-move-up", "2", "3"])
        #expect(try RemoteRequest.parse(Array(RemoteCommandLine.requestLine(id: 3, up).utf8)).action
                == .perform(.editQueue(.shift(from: 2, count: 3, by: -1))))
        // A word that is no number stays a word, and the row names it.
        let word = try RemoteCommandLine.translate(["queue-remove", "first"])
        #expect(word.arguments == [.string("first")])
        // Paths stay paths, numbers or not.
        #expect(try RemoteCommandLine.translate(["queue-add", "2024"]).arguments == [.string("2024")])
        #expect(try RemoteCommandLine.translate(["open", "/books/Dune", "book"]).arguments == [.string("/books/Dune"), .string("book")])
    }

    @Test("the whole queue's edits: what each keeps, in which order; a move past an end goes as far as it can, an entry that is not there is refused")
    func wholeQueueEdits() {
        #expect(QueueEdit.drop(from: 1, count: 2).kept(count: 5) == .kept([0, 3, 4]))
        #expect(QueueEdit.shift(from: 1, count: 2, by: -1).kept(count: 5) == .kept([1, 2, 0, 3, 4]))
        #expect(QueueEdit.shift(from: 1, count: 2, by: 2).kept(count: 5) == .kept([0, 3, 4, 1, 2]))
        #expect(QueueEdit.drop(from: 4, count: 2).kept(count: 5) == .refused(.noQueueEntry(position: 4)))
        // Past an end: as far as it goes, the first moved up stays first.
        #expect(QueueEdit.shift(from: 0, count: 1, by: -1).kept(count: 5) == .kept([0, 1, 2, 3, 4]))
        #expect(QueueEdit.shift(from: 2, count: 2, by: Int.max).kept(count: 5) == .kept([0, 1, 4, 2, 3]))
        #expect(QueueEdit.shift(from: 1, count: 1, by: Int.min).kept(count: 5) == .kept([1, 0, 2, 3, 4]))
        #expect(QueueEdit.shift(from: 5, count: 1, by: -1).kept(count: 5) == .refused(.noQueueEntry(position: 5)))
        #expect(QueueEdit.remove(from: 1, count: 1).kept(count: 5) == nil)
    }

    static func runtime(_ paths: [String]) throws -> PlayerRuntime {
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        return try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: paths, events: stream,
                                               signals: SignalChannel([])))
    }

    @Test("removing and moving any entry from the keys' edits: the played one too; the queue is what the pane then shows")
    func runtimeEditsAnyEntry() throws {
        let paths = try (0..<4).map { try Fixtures.mp3(.tone(frequency: 300 + 50 * Double($0)), seconds: 0.3) }
        let runtime = try Self.runtime(paths)
        #expect(runtime.perform(.editQueue(.drop(from: 0, count: 1))) == .done(report: .queueRemoved(count: 1)))
        #expect(runtime.queue == Array(paths.dropFirst()))
        #expect(runtime.perform(.editQueue(.shift(from: 2, count: 1, by: -2))) == .done)
        #expect(runtime.queue == [paths[3], paths[1], paths[2]])
    }

    @Test("w saves the queue the pane shows, every entry and in its order, a file queued twice twice")
    func savedQueueIsThePanes() throws {
        let paths = try (0..<2).map { try Fixtures.mp3(.tone(frequency: 300 + 50 * Double($0)), seconds: 0.3) }
        let runtime = try Self.runtime(paths)
        _ = runtime.perform(.enqueue([paths[0], paths[1]]))
        let list = NSTemporaryDirectory() + "saved-\(UUID().uuidString).m3u8"
        defer { try? FileManager.default.removeItem(atPath: list) }
        #expect(runtime.perform(.saveQueue(path: list)) == .done(report: .queueSaved(count: 4, path: list)))
        let saved = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        // Written relative to the playlist's folder: the names, in order.
        #expect(saved.map { ($0 as NSString).lastPathComponent } == (paths + paths).map { ($0 as NSString).lastPathComponent })
    }

    @Test("player.json keeps the book that played last beside the queue, and a music save forgets it")
    func playerStateRemembersTheBook() throws {
        let root = NSTemporaryDirectory() + "player-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/interlude", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        func store() -> PlayerStateStore { PlayerStateStore(directories: XDGDirectories(environment: ["XDG_STATE_HOME": root])) }
        let music = SavedPlayerState(queue: ["/m/a.mp3", "/m/b.mp3"], index: 1, seconds: 12, volume: 0.5, theme: "light")
        try store().save(music)
        // A later run that played a book, started with a path (it never read the file): the queue stays.
        try store().saveBookPlayedLast("/books/Dune", volume: 0.5, theme: "light")
        var loaded = try #require(store().load().state)
        #expect(loaded.book == "/books/Dune" && loaded.queue == music.queue && loaded.index == 1 && loaded.seconds == 12)
        try store().save(music)
        loaded = try #require(store().load().state)
        #expect(loaded.book == nil)
        // A book that is no whole path is damage.
        try Data(#"{"queue": [], "index": 0, "position": 0, "volume": 1, "book": "Dune"}"#.utf8)
            .write(to: URL(fileURLWithPath: store().file.path))
        #expect(store().load().problem?.contains("its book is not a whole path") == true)
    }
}
