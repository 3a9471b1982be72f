import Testing
@testable import BookFormat

struct HeaderTests {
    @Test func syncsafeSizeUsesSevenBitsPerByte() throws {
        let header = try ID3v2Header(bytes: Array("ID3".utf8)[...] + [4, 0, 0, 0x01, 0x02, 0x03, 0x04])
        #expect(header.bodySize == (1 << 21) | (2 << 14) | (3 << 7) | 4)
        #expect(header.totalSize == header.bodySize + 10)
    }

    @Test func sizeWithHighBitSetIsRejected() {
        #expect(throws: ID3v2Error.invalidSyncsafeSize) {
            try ID3v2Header(bytes: Array("ID3".utf8)[...] + [3, 0, 0, 0, 0, 0x80, 0])
        }
    }

    @Test func dataWithoutMagicIsNoTag() {
        #expect(throws: ID3v2Error.noTag) { try ID3v2Header(bytes: [0xFF, 0xFB, 0x90, 0x64][...]) }
        #expect(ChapterList(tagBytes: [0xFF, 0xFB, 0x90, 0x64][...]) == .empty)
    }

    @Test func headerShorterThanTenBytesIsTruncated() {
        #expect(throws: ID3v2Error.truncatedHeader) { try ID3v2Header(bytes: Array("ID3".utf8)[...] + [4, 0]) }
    }

    @Test(arguments: [UInt8(1), 5])
    func versionsOtherThanTwoThreeAndFourAreUnsupported(major: UInt8) {
        #expect(throws: ID3v2Error.unsupportedVersion(major: major)) {
            try ID3v2Header(bytes: Array("ID3".utf8)[...] + [major, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func footerFlagCountsTenMoreBytesOnlyIn24() throws {
        let v4 = try ID3v2Header(bytes: Array("ID3".utf8)[...] + [4, 0, 0x10, 0, 0, 0, 20])
        let v3 = try ID3v2Header(bytes: Array("ID3".utf8)[...] + [3, 0, 0x10, 0, 0, 0, 20])
        #expect(v4.totalSize == 40)
        #expect(v3.totalSize == 30)
    }

    @Test(arguments: [UInt8(3), 4])
    func extendedHeaderIsSkipped(major: UInt8) throws {
        var writer = TestTagWriter()
        writer.majorVersion = major
        writer.extendedHeader = true
        let tag = try ID3v2Tag(bytes: writer.tag([writer.chapter("c1", start: 0, end: 1000, title: "One")]))
        #expect(tag.damage == nil)
        #expect(ChapterList(tag: tag).chapters == [Chapter(title: "One", startMilliseconds: 0, endMilliseconds: 1000)])
    }

    @Test func extendedHeaderLargerThanTagIsDamage() throws {
        var bytes = Array("ID3".utf8) + [4, 0, 0x40] + TestTagWriter.syncsafe(8)
        bytes += TestTagWriter.syncsafe(100) + [1, 0, 0, 0]
        let tag = try ID3v2Tag(bytes: bytes)
        #expect(tag.damage == .invalidExtendedHeader(size: 100))
        #expect(tag.frames.isEmpty)
    }

    @Test func footerAndPaddingDoNotDisturbFrames() throws {
        var writer = TestTagWriter()
        writer.footer = true
        writer.padding = 0
        var withPadding = TestTagWriter()
        withPadding.padding = 300
        for w in [writer, withPadding] {
            let bytes = w.tag([w.chapter("a", start: 5, end: 6, title: "A")]) + [0xFF, 0xFB]  // audio follows
            let list = ChapterList(tagBytes: bytes[...])
            #expect(list.damage == nil)
            #expect(list.chapters.map(\.title) == ["A"])
        }
    }
}
