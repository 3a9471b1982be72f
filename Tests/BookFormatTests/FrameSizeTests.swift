import Testing
@testable import BookFormat

struct FrameSizeTests {
    /// A title long enough that the frame passes 127 bytes, where plain and
    /// syncsafe sizes differ.
    static let longTitle = String(repeating: "Long chapter title ", count: 12)

    func frames(_ w: TestTagWriter) -> [[UInt8]] {
        [
            w.chapter("c1", start: 0, end: 61234, title: Self.longTitle),
            w.chapter("c2", start: 61234, end: 3_723_456, title: "Two " + Self.longTitle),
            w.text("TIT2", "Book"),
        ]
    }

    /// iTunes wrote 2.4 tags with plain sizes; read as syncsafe, a 200-byte
    /// frame would be taken as 328 bytes and the walk would fail.
    @Test func iTunesPlainSizesIn24AreDetected() throws {
        var writer = TestTagWriter()
        writer.plainSizesIn24 = true
        let bytes = writer.tag(frames(writer))
        let tag = try ID3v2Tag(bytes: bytes)
        #expect(FrameSizeEncoding.detect(majorVersion: 4, frames: bytes[10...]) == .bigEndian)
        #expect(tag.damage == nil)
        #expect(tag.frames.map(\.id) == ["CHAP", "CHAP", "TIT2"])
        #expect(ChapterList(tag: tag).chapters.map(\.title) == [Self.longTitle, "Two " + Self.longTitle])
    }

    @Test func genuineSyncsafeSizesIn24AreKept() throws {
        let writer = TestTagWriter()
        let bytes = writer.tag(frames(writer))
        #expect(FrameSizeEncoding.detect(majorVersion: 4, frames: bytes[10...]) == .syncsafe)
        #expect(try ID3v2Tag(bytes: bytes).frames.map(\.id) == ["CHAP", "CHAP", "TIT2"])
    }

    @Test func version23AlwaysUsesPlainSizes() {
        var writer = TestTagWriter()
        writer.majorVersion = 3
        let bytes = writer.tag(frames(writer))
        #expect(FrameSizeEncoding.detect(majorVersion: 3, frames: bytes[10...]) == .bigEndian)
        #expect(ChapterList(tagBytes: bytes[...]).chapters.count == 2)
    }

    @Test func compressedAndEncryptedFramesAreSkippedAndLaterFramesRead() throws {
        let writer = TestTagWriter()
        let compressed = writer.frame("CHAP", [0, 0, 0, 9] + [1, 2, 3, 4, 5, 6, 7, 8, 9], formatFlags: 0x09)
        let encrypted = writer.frame("CHAP", [0x80, 1, 2, 3], formatFlags: 0x04)
        let tag = try ID3v2Tag(bytes: writer.tag([compressed, encrypted, writer.chapter("c", start: 7, end: 8, title: "Kept")]))
        #expect(tag.damage == nil)
        #expect(ChapterList(tag: tag).chapters.map(\.title) == ["Kept"])
    }

    @Test func dataLengthIndicatorAndGroupByteAreSkippedIn24() throws {
        let writer = TestTagWriter()
        let content = [3] + Array("Grouped".utf8)
        let frame = writer.frame("TIT2", [0x42] + TestTagWriter.syncsafe(content.count) + content, formatFlags: 0x41)
        let tag = try ID3v2Tag(bytes: writer.tag([frame]))
        #expect(try ID3v2TextFrame(body: tag.frames[0].body).text == "Grouped")
    }

    @Test func groupByteIsSkippedIn23() throws {
        var writer = TestTagWriter()
        writer.majorVersion = 3
        let frame = writer.frame("TIT2", [0x42, 0] + Array("Grouped".utf8), formatFlags: 0x20)
        let tag = try ID3v2Tag(bytes: writer.tag([frame]))
        #expect(try ID3v2TextFrame(body: tag.frames[0].body).text == "Grouped")
    }
}
