import Books
import Testing

struct BookNavigationTests {
    /// Chapters at 0, 60 s, 150 s; the book is 200 s long.
    static func book() throws -> Book {
        let source = BookSource(path: "/b/book.mp3", kind: .file, files: [
            BookSource.File(path: "/b/book.mp3", chapters: [
                .init(title: "One", startMilliseconds: 0, endMilliseconds: 60_000),
                .init(title: "Two", startMilliseconds: 60_000, endMilliseconds: 150_000),
                .init(title: "Three", startMilliseconds: 150_000, endMilliseconds: 200_000),
            ]),
        ])
        return try Book(source: source, absolutePath: "/b/book.mp3", duration: { _ in 200_000 })
    }

    @Test func nextChapterGoesToTheFollowingStartAndStopsAtTheLast() throws {
        let book = try Self.book()
        let navigation = BookNavigation()
        #expect(navigation.nextChapter(in: book, from: 0)?.title == "Two")
        #expect(navigation.nextChapter(in: book, from: 59_999)?.startMilliseconds == 60_000)
        #expect(navigation.nextChapter(in: book, from: 60_000)?.title == "Three")
        #expect(navigation.nextChapter(in: book, from: 170_000) == nil)
    }

    @Test func previousChapterRestartsTheCurrentOneUnlessJustStarted() throws {
        let book = try Self.book()
        let navigation = BookNavigation()
        #expect(navigation.previousChapter(in: book, from: 100_000).title == "Two")
        #expect(navigation.previousChapter(in: book, from: 62_000).title == "One")
        #expect(navigation.previousChapter(in: book, from: 63_001).title == "Two")
        #expect(navigation.previousChapter(in: book, from: 1_000).title == "One")
        let eager = BookNavigation(restartThresholdMilliseconds: 0)
        #expect(eager.previousChapter(in: book, from: 60_000).title == "One")
        #expect(eager.previousChapter(in: book, from: 60_001).title == "Two")
    }

    @Test func skipsAreThirtySecondsByDefaultConfigurableAndStayInTheBook() throws {
        let book = try Self.book()
        let navigation = BookNavigation()
        #expect(navigation.skipBack(in: book, from: 100_000) == 70_000)
        #expect(navigation.skipBack(in: book, from: 10_000) == 0)
        #expect(navigation.skipForward(in: book, from: 100_000) == 130_000)
        #expect(navigation.skipForward(in: book, from: 185_000) == 200_000)
        let custom = BookNavigation(skipBackMilliseconds: 10_000, skipForwardMilliseconds: 45_000)
        #expect(custom.skipBack(in: book, from: 100_000) == 90_000)
        #expect(custom.skipForward(in: book, from: 100_000) == 145_000)
    }
}
