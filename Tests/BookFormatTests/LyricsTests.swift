import Testing
@testable import BookFormat

/// Lyrics on plain values: the LRC parser, the line heard at a
/// position, a lyrics file's encodings, and SYLT/USLT frames built by hand.
@Suite struct LyricsTests {
    private func lines(_ lyrics: Lyrics?) -> [Lyrics.Line] {
        guard case .synced(let lines) = lyrics?.content else { return [] }
        return lines
    }

    @Test func readsEachTimeFormOfLRC() {
        let lyrics = LRCLyrics.parse("[00:01]one\n[00:02.5]two\n[00:03.25]three\n[00:04.125]four\n[01:05:50]five", source: "a.lrc")
        #expect(lines(lyrics) == [
            .init(milliseconds: 1000, text: "one"), .init(milliseconds: 2500, text: "two"),
            .init(milliseconds: 3250, text: "three"), .init(milliseconds: 4125, text: "four"),
            .init(milliseconds: 65_500, text: "five"),
        ])
        #expect(lyrics?.problem == nil)
        #expect(lyrics?.source == "a.lrc")
    }

    @Test func placesALineWithSeveralTagsAtEachAndSortsUnsortedLines() {
        let text = "[00:30.00]later\n[00:10.00][00:20.00]chorus\r\n[00:05.00]first\r[00:20.00]after the chorus"
        #expect(lines(LRCLyrics.parse(text, source: "a.lrc")) == [
            .init(milliseconds: 5000, text: "first"), .init(milliseconds: 10_000, text: "chorus"),
            .init(milliseconds: 20_000, text: "chorus"), .init(milliseconds: 20_000, text: "after the chorus"),
            .init(milliseconds: 30_000, text: "later"),
        ])
    }

    @Test func appliesTheOffsetAndIgnoresMetadataTags() {
        let text = "[ar:Someone]\n[ti:A Song]\n[al:An Album]\n[by:me]\n[length:03:00]\n[offset:+500]\n[00:01.00]one\n[00:00.20]zero"
        #expect(lines(LRCLyrics.parse(text, source: "a.lrc")) == [
            .init(milliseconds: 0, text: "zero"), .init(milliseconds: 500, text: "one"),
        ])
        #expect(lines(LRCLyrics.parse("[offset:-250]\n[00:01.00]one", source: "a.lrc")) == [.init(milliseconds: 1250, text: "one")])
    }

    @Test func dropsBadTimesWithOneLineNamingTheFileAndLine() {
        let text = "[00:01.00]good\n[00:75.00]bad seconds\n[ab:cd]metadata\n[1x:00]bad\n[99999:00]too long\n[00:03.00]good again"
        let lyrics = LRCLyrics.parse(text, source: "song.lrc")
        #expect(lines(lyrics) == [.init(milliseconds: 1000, text: "good"), .init(milliseconds: 3000, text: "good again")])
        #expect(lyrics?.problem == "song.lrc line 2: bad time [00:75.00], dropped (and 2 more)")
    }

    @Test func keepsBracketedTextAndEmptyLinesAndDropsWordTimes() {
        let lyrics = LRCLyrics.parse("[00:01.00][Chorus] <00:01.50>la <00:02.00>la\n[00:03.00]\n[00:04.00]end", source: "a.lrc")
        #expect(lines(lyrics) == [
            .init(milliseconds: 1000, text: "[Chorus] la la"), .init(milliseconds: 3000, text: ""),
            .init(milliseconds: 4000, text: "end"),
        ])
    }

    @Test func readsTextWithoutTimesAsUntimedLyrics() {
        let lyrics = LRCLyrics.parse("\n[ar:Someone]\nFirst line\n\n[Chorus]\nSecond line\n\n", source: "USLT")
        #expect(lyrics?.content == .unsynced(["First line", "", "[Chorus]", "Second line"]))
        #expect(LRCLyrics.parse("", source: "x") == nil)
        #expect(LRCLyrics.parse("[ti:only metadata]", source: "x") == nil)
    }

    @Test func theCurrentLineIsTheLastWhoseTimeWasPassed() {
        let lyrics = Lyrics(content: .synced([
            .init(milliseconds: 1000, text: "a"), .init(milliseconds: 2000, text: "b"),
            .init(milliseconds: 2000, text: "c"), .init(milliseconds: 5000, text: "d"),
        ]), source: "x")
        #expect(lyrics.currentLine(atMilliseconds: 0) == nil)
        #expect(lyrics.currentLine(atMilliseconds: 999) == nil)
        #expect(lyrics.currentLine(atMilliseconds: 1000) == 0)
        #expect(lyrics.currentLine(atMilliseconds: 1999) == 0)
        #expect(lyrics.currentLine(atMilliseconds: 2000) == 2)
        #expect(lyrics.currentLine(atMilliseconds: 4999) == 2)
        #expect(lyrics.currentLine(atMilliseconds: 5000) == 3)
        #expect(lyrics.currentLine(atMilliseconds: Int.max) == 3)
        #expect(Lyrics.currentLine(in: [], atMilliseconds: 10) == nil)
        #expect(Lyrics(content: .unsynced(["a"]), source: "x").currentLine(atMilliseconds: 10) == nil)
        // Against the plain definition, over every position of a longer list.
        let many = (0..<50).map { Lyrics.Line(milliseconds: $0 / 2 * 300, text: "\($0)") }
        for position in stride(from: -10, to: 8000, by: 7) {
            let expected = many.lastIndex { $0.milliseconds <= position }
            #expect(Lyrics.currentLine(in: many, atMilliseconds: position) == expected)
        }
    }

    @Test func decodesUTF8WithABOMUTF16AndWindows1252() {
        #expect(LyricsText.decode([0xEF, 0xBB, 0xBF] + Array("[00:01]é".utf8)) == "[00:01]é")
        #expect(LyricsText.decode([0xFF, 0xFE, 0x61, 0x00, 0xE9, 0x00]) == "aé")
        #expect(LyricsText.decode([0xFE, 0xFF, 0x00, 0x61, 0x00, 0xE9]) == "aé")
        // "It’s “café” …" as a Windows editor saved it.
        let cp1252: [UInt8] = [0x49, 0x74, 0x92, 0x73, 0x20, 0x93, 0x63, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x85]
        #expect(LyricsText.decode(cp1252[...]) == "It\u{2019}s \u{201C}café\u{201D} \u{2026}")
        #expect(LyricsText.decode(Array("plain ascii".utf8)[...]) == "plain ascii")
    }

    @Test func lrcPathsReplaceTheLastExtension() {
        #expect(Lyrics.lrcPaths(audioPath: "/music/a.b/song.mp3") == ["/music/a.b/song.lrc", "/music/a.b/song.LRC"])
        #expect(Lyrics.lrcPaths(audioPath: "song") == ["song.lrc", "song.LRC"])
        #expect(Lyrics.lrcPaths(audioPath: "/music/.hidden") == ["/music/.hidden.lrc", "/music/.hidden.LRC"])
    }

    /// A SYLT body: encoding, "eng", the stamp format, content type 1, an empty descriptor, then pieces.
    private func sylt(_ pieces: [(String, UInt32)], format: UInt8 = 2) -> ID3v2Frame {
        var body: [UInt8] = [3] + Array("eng".utf8) + [format, 1, 0]
        for (text, stamp) in pieces {
            body += Array(text.utf8) + [0]
            body += [UInt8(stamp >> 24), UInt8(stamp >> 16 & 0xFF), UInt8(stamp >> 8 & 0xFF), UInt8(stamp & 0xFF)]
        }
        return ID3v2Frame(id: "SYLT", body: body)
    }

    @Test func readsSYLTInMillisecondsAndInMPEGFrames() {
        let frame = sylt([("two", 2000), ("one", 1000)])
        #expect(lines(ID3Lyrics.synced(frame)?.lyrics(samplesPerFrame: nil, sampleRate: nil)) == [
            .init(milliseconds: 1000, text: "one"), .init(milliseconds: 2000, text: "two"),
        ])
        // 1152 samples a frame at 44.1 kHz: 100 frames are 2612 ms.
        let frames = ID3Lyrics.synced(sylt([("a", 0), ("b", 100)], format: 1))
        #expect(frames?.unit == .mpegFrames)
        #expect(lines(frames?.lyrics(samplesPerFrame: 1152, sampleRate: 44100)) == [
            .init(milliseconds: 0, text: "a"), .init(milliseconds: 2612, text: "b"),
        ])
        #expect(ID3Lyrics.synced(sylt([("x", 1)], format: 7)) == nil)
    }

    @Test func joinsSYLTSyllablesIntoLinesWhereNewlinesMarkThem() {
        let frame = sylt([("Hel", 1000), ("lo", 1200), ("\nworld", 2000), (" again", 2500)])
        #expect(lines(ID3Lyrics.synced(frame)?.lyrics(samplesPerFrame: nil, sampleRate: nil)) == [
            .init(milliseconds: 1000, text: "Hello"), .init(milliseconds: 2000, text: "world again"),
        ])
    }

    @Test func aSYLTTimePast100HoursIsDroppedAndSaid() {
        let lyrics = ID3Lyrics.synced(sylt([("ok", 5), ("late", UInt32.max)]))?.lyrics(samplesPerFrame: nil, sampleRate: nil)
        #expect(lines(lyrics) == [.init(milliseconds: 5, text: "ok")])
        #expect(lyrics?.problem == "ID3 SYLT: 1 line with a time past 100 hours, dropped")
    }

    @Test func aTruncatedOrEmptyLyricsFrameGivesNone() {
        #expect(ID3Lyrics.synced(ID3v2Frame(id: "SYLT", body: [3, 0x65])) == nil)
        #expect(ID3Lyrics.synced(ID3v2Frame(id: "SYLT", body: [3] + Array("eng".utf8) + [2, 1, 0, 0x61, 0, 0, 0])) == nil)
        #expect(ID3Lyrics.unsynced(ID3v2Frame(id: "USLT", body: [9, 0, 0, 0, 0, 0x61])) == nil)
        let uslt = ID3v2Frame(id: "USLT", body: [0] + Array("eng".utf8) + [0] + [0x63, 0x61, 0x66, 0xE9])
        #expect(ID3Lyrics.unsynced(uslt)?.content == .unsynced(["café"]))
    }

    @Test func aHugeLRCKeepsAtMostTheLimitAndSaysSoInOneLine() {
        let line = "[00:01.00]" + String(repeating: "x", count: 90) + "\n"
        let text = String(repeating: line, count: 30_000)
        let lyrics = LRCLyrics.parse(text, source: "huge.lrc")
        let kept = lines(lyrics)
        #expect(kept.count <= Lyrics.lineLimit)
        #expect(kept.reduce(0) { $0 + $1.text.utf8.count } <= Lyrics.byteLimit)
        #expect(lyrics?.problem == "huge.lrc: longer than the 20000 lines (1 MB) kept; the rest is not shown")
    }
}
