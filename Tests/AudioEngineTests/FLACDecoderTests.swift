import Testing
@testable import AudioDecoding

/// The pieces of `FLACDecoder` that are its own arithmetic rather than
/// libFLAC's (the decode itself is checked against `ffmpeg` end to end, in
/// `FormatDecodingTests`).
struct FLACDecoderTests {
    /// As FFmpeg's decoder and libswresample do it: up to 16 bits shifted up,
    /// above 16 the low bits dropped by an arithmetic shift (no rounding), so
    /// -1 in 24 bits is -1 in 16, not 0.
    @Test(arguments: [
        (Int32(127), 8, Int16(32512)), (-128, 8, -32768),
        (32767, 16, 32767), (-32768, 16, -32768),
        (8_388_607, 24, 32767), (-8_388_608, 24, -32768), (-1, 24, -1), (255, 24, 0), (256, 24, 1),
        (524_287, 20, 32767), (-9, 20, -1),
    ])
    func samplesBecome16BitsAsFFmpegMakesThem(_ sample: Int32, _ bits: Int, _ expected: Int16) {
        #expect(FLACDecoder.sample16(sample, bits: bits) == expected)
    }

    @Test func chapterTimesAreReadAsTheOggChapterCommentsWriteThem() {
        #expect(FLACDecoder.milliseconds("00:00:01.240") == 1240)
        #expect(FLACDecoder.milliseconds("01:02:03.5") == 3_723_500)
        #expect(FLACDecoder.milliseconds("10:00:00") == 36_000_000)
        for bad in ["", "1.5", "00:00", "aa:00:00.000", "00:-1:00.000", "00:00:00.", "99999999999999999999:00:00.000"] {
            #expect(FLACDecoder.milliseconds(bad) == nil, "\(bad)")
        }
    }

    /// The stream information a FLAC starts with (here behind an ID3v2 tag),
    /// read from the file's first bytes to choose the decoder.
    @Test func streamHeaderIsFoundBehindAnID3Tag() {
        var streamInfo: [UInt8] = [0x00, 0x00, 0x00, 0x22, 0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0]
        // 48,000 Hz (0x0BB80 in 20 bits), 1 channel (0 in 3 bits), 16 bits.
        streamInfo += [0x0B, 0xB8, 0x00 | 0x0 << 1 | 0x0, 0xF0]
        let flac = Array("fLaC".utf8) + streamInfo + [UInt8](repeating: 0, count: 20)
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 5] + [0, 0, 0, 0, 0]
        let header = FLACDecoder.StreamHeader(tag + flac)
        #expect(header?.rate == 48000)
        #expect(header?.channels == 1)
        #expect(FLACDecoder.StreamHeader(Array("fLaX".utf8) + streamInfo) == nil)
        #expect(FLACDecoder.StreamHeader(Array("fLaC".utf8) + streamInfo.prefix(10)) == nil)
    }
}
