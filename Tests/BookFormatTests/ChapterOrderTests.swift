import Testing
@testable import BookFormat

struct ChapterOrderTests {
    let writer = TestTagWriter()

    func chapters(_ frames: [[UInt8]]) -> [Chapter] {
        ChapterList(tagBytes: writer.tag(frames)[...]).chapters
    }

    @Test func withoutTableOfContentsChaptersAreSortedByStartTime() {
        let list = chapters([
            writer.chapter("b", start: 61234, end: 3_723_456, title: "Second"),
            writer.chapter("c", start: 3_723_456, end: 4_000_000, title: "Third"),
            writer.chapter("a", start: 0, end: 61234, title: "First"),
        ])
        #expect(list.map(\.title) == ["First", "Second", "Third"])
        #expect(list.map(\.startMilliseconds) == [0, 61234, 3_723_456])
    }

    @Test func equalStartTimesKeepTagOrder() {
        let list = chapters([
            writer.chapter("x", start: 10, end: 20, title: "X"),
            writer.chapter("y", start: 10, end: 20, title: "Y"),
            writer.chapter("z", start: 0, end: 10, title: "Z"),
        ])
        #expect(list.map(\.title) == ["Z", "X", "Y"])
    }

    /// The table of contents, not the times, decides the order when it is
    /// top-level and ordered.
    @Test func topLevelOrderedTableOfContentsDecidesOrder() {
        let list = chapters([
            writer.tableOfContents("toc", children: ["late", "early"]),
            writer.chapter("early", start: 0, end: 100, title: "Early"),
            writer.chapter("late", start: 100, end: 200, title: "Late"),
        ])
        #expect(list.map(\.title) == ["Late", "Early"])
    }

    @Test(arguments: [(false, true), (true, false)])
    func tableOfContentsThatIsNotTopLevelAndOrderedIsIgnored(topLevel: Bool, ordered: Bool) {
        let list = chapters([
            writer.tableOfContents("toc", topLevel: topLevel, ordered: ordered, children: ["late", "early"]),
            writer.chapter("early", start: 0, end: 100, title: "Early"),
            writer.chapter("late", start: 100, end: 200, title: "Late"),
        ])
        #expect(list.map(\.title) == ["Early", "Late"])
    }

    @Test func nestedTablesAreFollowedInPlaceAndCyclesAreCutOnce() {
        let list = chapters([
            writer.tableOfContents("root", children: ["c3", "part", "root", "c1"]),
            writer.tableOfContents("part", topLevel: false, children: ["c2", "root", "part", "c3"]),
            writer.chapter("c1", start: 0, end: 1, title: "One"),
            writer.chapter("c2", start: 1, end: 2, title: "Two"),
            writer.chapter("c3", start: 2, end: 3, title: "Three"),
        ])
        #expect(list.map(\.title) == ["Three", "Two", "One"])
    }

    @Test func childrenWithoutChapterFramesAreSkipped() {
        let list = chapters([
            writer.tableOfContents("toc", children: ["missing", "c1"]),
            writer.chapter("c1", start: 0, end: 1, title: "One"),
        ])
        #expect(list.map(\.title) == ["One"])
    }

    @Test func tableOfContentsNamingNoChapterFallsBackToStartTimes() {
        let list = chapters([
            writer.tableOfContents("toc", children: ["nothing"]),
            writer.chapter("b", start: 5, end: 6, title: "B"),
            writer.chapter("a", start: 1, end: 2, title: "A"),
        ])
        #expect(list.map(\.title) == ["A", "B"])
    }

    @Test func missingAndEmptyTitlesAreNumberedByPosition() {
        let list = chapters([
            writer.chapter("a", start: 0, end: 1, title: "Prologue"),
            writer.chapter("b", start: 1, end: 2),
            writer.chapter("c", start: 2, end: 3, title: ""),
        ])
        #expect(list.map(\.title) == ["Prologue", "Chapter 2", "Chapter 3"])
    }

    @Test func chapterFrameCarriesSubtitleURLAndOffsets() throws {
        var url: [UInt8] = [0] + Array("link".utf8) + [0] + Array("https://example.org/c1".utf8)
        url = writer.frame("WXXX", url)
        var body = Array("c1".utf8) + [0]
        for value in [1000, 2000, 4096, 0xFFFF_FFFF] { body += TestTagWriter.bigEndian(value) }
        body += writer.text("TIT2", "Title") + writer.text("TIT3", "Sub", .utf8) + url
        let chapter = try ChapterFrame(body: body, majorVersion: 4)
        #expect(chapter.elementID == "c1")
        #expect(chapter.title == "Title")
        #expect(chapter.subtitle == "Sub")
        #expect(chapter.url == "https://example.org/c1")
        #expect(chapter.startByteOffset == 4096)
        #expect(chapter.endByteOffset == nil)
    }

    @Test func tableOfContentsDeclaringMoreChildrenThanItHoldsIsMalformed() {
        let body = Array("toc".utf8) + [0, 0x03, 5] + Array("a".utf8) + [0]
        #expect(throws: ID3v2Error.self) { try TableOfContentsFrame(body: body, majorVersion: 4) }
    }
}
