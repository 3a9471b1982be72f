import Testing
@testable import BookFormat

struct TextEncodingTests {
    static let unicodeTitle = "Kapitel für Café — 第一章 東京"

    @Test(arguments: [ID3v2TextEncoding.utf16WithBOM, .utf16BigEndian, .utf8])
    func unicodeEncodingsDecodeNonASCIIAndCJK(encoding: ID3v2TextEncoding) throws {
        let frame = try ID3v2TextFrame(body: [encoding.rawValue] + TestTagWriter.encode(Self.unicodeTitle, encoding))
        #expect(frame.values == [Self.unicodeTitle])
    }

    @Test func latin1MapsEveryByteToItsCodePoint() throws {
        let frame = try ID3v2TextFrame(body: [0, 0x43, 0x61, 0x66, 0xE9, 0x20, 0xFC, 0xFF])
        #expect(frame.text == "Café üÿ")
    }

    @Test func utf16BigEndianByteOrderMarkIsHonoured() throws {
        let frame = try ID3v2TextFrame(body: [1, 0xFE, 0xFF, 0x00, 0xE9, 0x67, 0x71])
        #expect(frame.text == "é東")
    }

    @Test(arguments: [ID3v2TextEncoding.latin1, .utf16WithBOM, .utf16BigEndian, .utf8])
    func terminatorsSeparateValuesAndAFinalOneIsIgnored(encoding: ID3v2TextEncoding) throws {
        let zero = [UInt8](repeating: 0, count: encoding.terminatorWidth)
        let body = [encoding.rawValue] + TestTagWriter.encode("One", encoding) + zero
            + TestTagWriter.encode("Two", encoding) + zero
        #expect(try ID3v2TextFrame(body: body).values == ["One", "Two"])
    }

    /// A UTF-16 "ā" is 0x01 0x00 in little-endian: a zero byte that is not a
    /// terminator because it is not an aligned pair.
    @Test func utf16TerminatorMustBeAlignedPair() throws {
        let body: [UInt8] = [1, 0xFF, 0xFE, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00]
        #expect(try ID3v2TextFrame(body: body).values == ["āĀ"])
    }

    @Test func invalidUTF8BecomesReplacementCharacter() throws {
        #expect(try ID3v2TextFrame(body: [3, 0x41, 0xC3, 0x28]).text == "A\u{FFFD}(")
    }

    @Test func unknownEncodingByteIsMalformed() {
        #expect(throws: ID3v2Error.self) { try ID3v2TextFrame(body: [4, 0x41]) }
    }

    @Test(arguments: [
        (UInt8(3), ID3v2TextEncoding.latin1), (3, .utf16WithBOM),
        (4, .latin1), (4, .utf16WithBOM), (4, .utf16BigEndian), (4, .utf8),
    ])
    func chapterTitleIsReadInEachEncoding(major: UInt8, encoding: ID3v2TextEncoding) {
        var writer = TestTagWriter()
        writer.majorVersion = major
        let title = encoding == .latin1 ? "Café über" : Self.unicodeTitle
        let bytes = writer.tag([writer.chapter("c", start: 61234, end: 3_723_456, title: title, encoding: encoding)])
        #expect(ChapterList(tagBytes: bytes[...]).chapters == [
            Chapter(title: title, startMilliseconds: 61234, endMilliseconds: 3_723_456)
        ])
    }
}
