import Testing
@testable import BookFormat

/// Latin-1 text that is all ASCII takes a shorter way; both ways give each
/// byte's own code point.
@Suite struct Latin1TextTests {
    @Test func asciiAndNonAsciiLatin1DecodeAlike() throws {
        #expect(try ID3v2TextFrame(body: [0, 0x41, 0x20, 0x7E, 0x7F]).text == "A ~\u{7F}")
        #expect(try ID3v2TextFrame(body: [0, 0x41, 0x80, 0xC9]).text == "A\u{80}É")
        #expect(try ID3v2TextFrame(body: [0, 0x41, 0x00, 0x42]).values == ["A", "B"])
    }
}
