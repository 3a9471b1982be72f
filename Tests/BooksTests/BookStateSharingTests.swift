@testable import Books
import Dispatch
import Foundation
import InterludeCore
import Testing

/// The books' state files: impossible values are
/// damage (set aside once), every place a book can have saves and loads, and
/// two writers of one book's file lose nothing.
struct BookStateSharingTests {
    static let now = WallInstant(secondsSince1970: 1_764_460_800)  // 2025-11-30T00:00:00Z

    static func book(_ fixtures: BookFixtures, lengths: [Int]) throws -> Book {
        let folder = try fixtures.folder("long")
        for index in lengths.indices { try fixtures.file(folder + "/\(index + 1).mp3") }
        var remaining = lengths
        return try Book(source: try BookSource.load(path: folder), absolutePath: folder) { _ in remaining.removeFirst() }
    }

    @Test("a book as long as a book can be (1000 h): its last place and a bookmark there save and load")
    func theLongestBookSavesAndLoadsItsEnd() throws {
        let fixtures = try BookFixtures()
        // 100 hours in one file, the rest of the 1000 in another.
        let book = try Self.book(fixtures, lengths: [360_000_000, Book.longestMilliseconds - 360_000_000])
        #expect(book.durationMilliseconds == Book.longestMilliseconds && book.lengthProblems.isEmpty)
        let store = BookStateStore(directory: fixtures.root + "/books")
        var state = BookState.start
        state.setPosition(Book.longestMilliseconds, in: book, now: Self.now)
        state.addBookmark(at: Book.longestMilliseconds, note: "the end", now: Self.now)
        try store.save(state, for: book.id)
        let loaded = store.load(book.id, now: Self.now)
        #expect(loaded.problem == nil)
        #expect(loaded.state.resumePosition(in: book) == Book.longestMilliseconds)
        #expect(loaded.state.bookmarks.first?.positionMilliseconds == Book.longestMilliseconds)
    }

    @Test("a file that would end past the longest book is left out and named; the book's end still saves and loads")
    func filesPastTheLimitAreLeftOut() throws {
        let fixtures = try BookFixtures()
        let book = try Self.book(fixtures, lengths: [Book.longestMilliseconds - 1000, 2000, Int.max])
        #expect(book.files.count == 1 && book.durationMilliseconds == Book.longestMilliseconds - 1000)
        #expect(book.lengthProblems.count == 2 && book.lengthProblems.allSatisfy { $0.contains("past 1000 h") })
        let store = BookStateStore(directory: fixtures.root + "/books")
        var state = BookState.start
        state.setPosition(.max, in: book, now: Self.now)
        try store.save(state, for: book.id)
        #expect(store.load(book.id, now: Self.now).problem == nil)
    }

    static func stateFile(position: String = "5", speed: String = "1.0", bookmark: String = "5") -> String {
        "{\"version\": 1, \"position\": {\"milliseconds\": \(position)}, \"updated\": 0, \"speed\": \(speed), "
            + "\"bookmarks\": [{\"id\": 1, \"milliseconds\": \(bookmark), \"created\": 0}]}"
    }

    @Test("impossible book state values are damage", arguments: [
        stateFile(position: String(Book.longestMilliseconds + 1)),
        stateFile(position: "1e300"),
        stateFile(position: "-1"),
        stateFile(speed: "0.25"),
        stateFile(speed: "3.5"),
        stateFile(speed: "1e300"),
        stateFile(bookmark: String(Book.longestMilliseconds + 1)),
        "{\"version\": 1, \"position\": {\"milliseconds\": 5}, \"updated\": 0, \"bookmarks\": "
            + "[{\"id\": 1, \"milliseconds\": 5, \"created\": 0}, {\"id\": 1, \"milliseconds\": 9, \"created\": 0}]}",
    ])
    func impossibleValuesAreSetAsideOnce(content: String) throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let id = BookID(absolutePath: "/books/x")
        try StateFile(path: store.file(for: id).path).writeAtomically(Array(content.utf8))
        var problems: [String] = []
        var state = BookState.start
        for second in 0..<5 {
            let update = store.update(id, now: Self.now + .seconds(second), fallback: state) { state in
                state.positionMilliseconds = 1000 * second
            }
            problems += update.problem.map { [$0] } ?? []
            #expect(update.failure == nil)
            state = update.state
        }
        #expect(problems.count == 1 && !problems[0].contains("\n"), "\(problems)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1, "set aside once, not once per save: \(aside)")
    }

    @Test("a state no load would accept is not written")
    func aStateTheLoadRefusesIsNotWritten() throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let id = BookID(absolutePath: "/books/x")
        try store.save(.start, for: id)
        var state = BookState.start
        state.speed = 7
        #expect(throws: StateFileError.self) { try store.save(state, for: id) }
        #expect(store.load(id, now: Self.now).state == .start)
    }

    @Test("two writers of one book at once (a player's place, bookmarks added): every bookmark is kept, each its own number")
    func twoWritersLoseNoBookmark() throws {
        let fixtures = try BookFixtures()
        let store = BookStateStore(directory: fixtures.root + "/books")
        let id = BookID(absolutePath: "/books/shared")
        let perWriter = 60
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            var state = BookState.start
            for step in 0..<perWriter {
                state = store.update(id, now: Self.now, fallback: state) { state in
                    if writer == 0 {
                        state.positionMilliseconds = step
                    }
                    state.addBookmark(at: step, note: "writer \(writer)", now: Self.now)
                }.state
            }
        }
        let saved = store.load(id, now: Self.now).state
        #expect(saved.bookmarks.count == 2 * perWriter)
        #expect(Set(saved.bookmarks.map(\.id)).count == 2 * perWriter)
    }
}
