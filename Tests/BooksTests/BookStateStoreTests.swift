@testable import Books
import Foundation
import InterludeCore
import Testing

struct BookStateStoreTests {
    static let now = WallInstant(secondsSince1970: 1_764_460_800)  // 2025-11-30T00:00:00Z

    static func folderBook(_ fixtures: BookFixtures, names: [String]) throws -> Book {
        let folder = try fixtures.folder("book")
        for name in names where !FileManager.default.fileExists(atPath: folder + "/" + name) {
            try fixtures.file(folder + "/" + name)
        }
        return try Book(source: try BookSource.load(path: folder), absolutePath: folder, duration: { _ in 60_000 })
    }

    @Test func stateRoundTripsThroughItsFileUnderBooks() throws {
        let fixtures = try BookFixtures()
        let book = try Self.folderBook(fixtures, names: ["1.mp3", "2.mp3"])
        let store = BookStateStore(directories: XDGDirectories(environment: ["XDG_STATE_HOME": fixtures.root + "/state"]))
        var state = BookState.start
        state.setPosition(75_250, in: book, now: Self.now)
        state.speed = 1.35
        state.addBookmark(at: 90_000, note: "the \"map\" / légende", now: Self.now)
        state.addBookmark(at: 10_000, note: nil, now: Self.now + .seconds(1))
        try store.save(state, for: book.id)
        let path = fixtures.root + "/state/interlude/books/\(book.id.rawValue).json"
        #expect(FileManager.default.fileExists(atPath: path))
        // Only the state file: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.root + "/state/interlude/books") == ["\(book.id.rawValue).json"])
        let loaded = store.load(book.id, now: Self.now)
        #expect(loaded.problem == nil)
        #expect(loaded.state == state)
        #expect(loaded.state.fileName == "2.mp3")
        #expect(loaded.state.fileOffsetMilliseconds == 15_250)
        #expect(loaded.state.resumePosition(in: book) == 75_250)
        // The book's length goes with the position, for the books pane.
        #expect(loaded.state.durationMilliseconds == 120_000)
    }

    /// State files from before the length was kept still load, without one.
    @Test func aStateFileWithoutTheLengthLoadsWithNone() throws {
        let json = try JSONParser.parse(Array("{\"version\": 1, \"position\": {\"milliseconds\": 5}, \"updated\": 0}".utf8))
        let state = try BookStateFormat.decode(json)
        #expect(state.positionMilliseconds == 5 && state.durationMilliseconds == nil)
    }

    @Test func unknownBookStartsAtTheBeginning() throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let loaded = store.load(BookID(absolutePath: "/nowhere"), now: Self.now)
        #expect(loaded == BookStateStore.LoadResult(state: .start, problem: nil, setAsidePath: nil))
    }

    @Test("a damaged state file is named, set aside, and the book starts over", arguments: [
        "", "{\"version\": 1, \"position\": {\"millis", "[1, 2]", "{\"version\": 2, \"position\": {\"milliseconds\": 5}, \"updated\": 0}",
        "{\"version\": 1, \"position\": {\"milliseconds\": -5}, \"updated\": 0}",
        "{\"version\": 1, \"position\": {\"milliseconds\": 5}, \"updated\": 0, \"speed\": 0}",
        "{\"version\": 1, \"position\": {\"milliseconds\": 5}, \"updated\": 0, \"durationMilliseconds\": -1}",
    ])
    func damagedFileIsSetAside(content: String) throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let id = BookID(absolutePath: "/books/x")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        let path = store.file(for: id).path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = store.load(id, now: Self.now)
        #expect(loaded.state == .start)
        let problem = try #require(loaded.problem)
        #expect(problem.contains(path))
        #expect(!problem.contains("\n"))
        #expect(loaded.setAsidePath == path + ".corrupt-20251130T000000Z")
        #expect(FileManager.default.contents(atPath: loaded.setAsidePath!) == Data(content.utf8))
        #expect(!FileManager.default.fileExists(atPath: path))
        // The next save writes a fresh file beside the kept one.
        try store.save(.start, for: id)
        #expect(store.load(id, now: Self.now).problem == nil)
    }

    @Test func savedFileAndOffsetFindThePlaceAfterAFileIsAddedInFront() throws {
        let fixtures = try BookFixtures()
        let before = try Self.folderBook(fixtures, names: ["02.mp3", "03.mp3"])
        var state = BookState.start
        state.setPosition(70_000, in: before, now: Self.now)
        #expect(state.fileName == "03.mp3")
        let after = try Self.folderBook(fixtures, names: ["01.mp3", "02.mp3", "03.mp3"])
        #expect(state.resumePosition(in: after) == 130_000)
        // Without the file, book time serves, clamped to the book.
        let renamed = BookState(positionMilliseconds: 500_000, fileName: "gone.mp3", fileOffsetMilliseconds: 1)
        #expect(renamed.resumePosition(in: after) == 180_000)
    }

    @Test func bookmarksAreAddedListedInBookOrderDeletedAndNeverRenumbered() throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let id = BookID(absolutePath: "/books/y")
        var state = BookState.start
        let first = state.addBookmark(at: 50_000, note: "later", now: Self.now)
        let second = state.addBookmark(at: 20_000, note: "", now: Self.now)
        let third = state.addBookmark(at: 80_000, note: "end", now: Self.now)
        #expect([first.id, second.id, third.id] == [Int](1...3))
        #expect(second.note == nil)
        #expect(state.bookmarks.map(\.id) == [2, 1, 3])
        let deleted = state.deleteBookmark(id: 3, now: Self.now)
        let deletedAgain = state.deleteBookmark(id: 3, now: Self.now)
        #expect(deleted && !deletedAgain)
        try store.save(state, for: id)
        var reloaded = store.load(id, now: Self.now).state
        #expect(reloaded.bookmark(id: 1)?.positionMilliseconds == 50_000)
        #expect(reloaded.bookmark(id: 3) == nil)
        #expect(reloaded.addBookmark(at: 1, note: nil, now: Self.now).id == 4)
    }
}
