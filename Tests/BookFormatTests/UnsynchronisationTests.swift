import Testing
@testable import BookFormat

struct UnsynchronisationTests {
    @Test(arguments: [
        ([0xFF, 0x00, 0xE0], [0xFF, 0xE0]),
        ([0xFF, 0x00, 0x00], [0xFF, 0x00]),
        ([0xFF, 0x00, 0xFF, 0x00], [0xFF, 0xFF]),
        ([0x00, 0x00, 0xFF], [0x00, 0x00, 0xFF]),
        ([0x12, 0xFF, 0x34], [0x12, 0xFF, 0x34]),
    ] as [([UInt8], [UInt8])])
    func decodingDropsTheZeroAfterEachFF(encoded: [UInt8], decoded: [UInt8]) {
        #expect(Unsynchronisation.decode(encoded[...]) == decoded)
    }

    /// 0xFF bytes in titles ("ÿ" in Latin-1) and in times (0xFFFF_FFFF byte
    /// offsets, start times with 0xFF bytes) all need unsynchronising.
    @Test(arguments: [UInt8(3), 4])
    func unsynchronisedTagYieldsTheSameChapters(major: UInt8) throws {
        var writer = TestTagWriter()
        writer.majorVersion = major
        writer.unsynchronise = true
        func tag(_ w: TestTagWriter) -> [UInt8] {
            w.tag([
                w.chapter("c1", start: 0x00FF_E0FF, end: 0x00FF_FFFF, title: "ÿÿ Ende"),
                w.chapter("c2", start: 0x00FF_FFFF, end: 0x01FF_0000, title: "Zwei"),
            ])
        }
        let bytes = tag(writer)
        // The writer really did insert bytes, or the test would prove nothing.
        var plain = writer
        plain.unsynchronise = false
        #expect(bytes.count > tag(plain).count)
        let list = ChapterList(tagBytes: bytes[...])
        #expect(list.damage == nil)
        #expect(list.chapters == [
            Chapter(title: "ÿÿ Ende", startMilliseconds: 0x00FF_E0FF, endMilliseconds: 0x00FF_FFFF),
            Chapter(title: "Zwei", startMilliseconds: 0x00FF_FFFF, endMilliseconds: 0x01FF_0000),
        ])
    }

    @Test func frameFlagAloneUnsynchronisesIn24() throws {
        let writer = TestTagWriter()
        var body = Array("c1".utf8) + [0]
        for value in [0xFF00_0000, 0xFFE0_0000, 0xFFFF_FFFF, 0xFFFF_FFFF] { body += TestTagWriter.bigEndian(value) }
        let stored = TestTagWriter.unsynchronised(body)
        let frame = Array("CHAP".utf8) + TestTagWriter.syncsafe(stored.count) + [0, 0x02] + stored
        let list = ChapterList(tag: try ID3v2Tag(bytes: writer.tag([frame])))
        #expect(list.chapters == [Chapter(title: "Chapter 1", startMilliseconds: 0xFF00_0000, endMilliseconds: 0xFFE0_0000)])
    }
}
