import Testing
@testable import BookFormat

struct DamagedTagTests {
    let writer = TestTagWriter()

    func threeChapters() -> [UInt8] {
        writer.tag([
            writer.chapter("a", start: 0, end: 1000, title: "One"),
            writer.chapter("b", start: 1000, end: 2000, title: "Two"),
            writer.chapter("c", start: 2000, end: 3000, title: "Three"),
        ])
    }

    @Test func truncatedTagKeepsChaptersBeforeTheCut() {
        let bytes = threeChapters()
        let cut = bytes.count - 5
        let list = ChapterList(tagBytes: bytes[..<cut])
        #expect(list.chapters.map(\.title) == ["One", "Two"])
        #expect(list.damage == .truncatedTag(declared: bytes.count - 10, available: cut - 10))
    }

    @Test func garbageAfterTwoFramesKeepsThemAndReportsWhere() throws {
        var bytes = threeChapters()
        let third = bytes.count - writer.chapter("c", start: 2000, end: 3000, title: "Three").count
        bytes[third] = UInt8(ascii: "c")  // "cHAP" is not a valid frame ID
        let list = ChapterList(tagBytes: bytes[...])
        #expect(list.chapters.map(\.title) == ["One", "Two"])
        #expect(list.damage == .invalidFrameID(offset: third - 10))
    }

    @Test func frameSizeBeyondTheTagIsReportedNotFollowed() throws {
        var bytes = threeChapters()
        bytes[10 + 4] = 0x7F  // first frame claims ~266 MB
        let tag = try ID3v2Tag(bytes: bytes)
        #expect(tag.frames.isEmpty)
        guard case .frameOverrunsTag(let id, let offset, _, _) = tag.damage else {
            Issue.record("expected an overrun, got \(String(describing: tag.damage))")
            return
        }
        #expect(id == "CHAP")
        #expect(offset == 0)
    }

    @Test func chapterWithDamagedTitleStillCountsWithNumberedTitle() throws {
        let broken = writer.frame("TIT2", [9, 0x41])  // unknown encoding
        var body = Array("a".utf8) + [0]
        for value in [0, 500, 0xFFFF_FFFF, 0xFFFF_FFFF] { body += TestTagWriter.bigEndian(value) }
        let list = ChapterList(tagBytes: writer.tag([writer.frame("CHAP", body + broken)])[...])
        #expect(list.chapters == [Chapter(title: "Chapter 1", startMilliseconds: 0, endMilliseconds: 500)])
    }

    @Test func chapterFrameTooShortForItsTimesIsDamage() {
        let list = ChapterList(tagBytes: writer.tag([
            writer.chapter("a", start: 0, end: 1, title: "Fine"),
            writer.frame("CHAP", Array("b".utf8) + [0, 1, 2, 3]),
        ])[...])
        #expect(list.chapters.map(\.title) == ["Fine"])
        #expect(list.damage == .malformedFrame(id: "CHAP", reason: "shorter than its element ID and four times"))
    }
}
