import Streams
import Testing

@Suite struct StreamTagsTests {
    func title(_ artist: String?, _ title: String?) -> String? {
        StreamTags.title(artist: artist.map { Array($0.utf8) }, title: title.map { Array($0.utf8) })
    }

    @Test func artistAndTitleReadAsIcecastShowsThem() {
        #expect(title("First Artist", "First Title") == "First Artist - First Title")
        #expect(title("Été", "à Zürich") == "Été - à Zürich")
    }

    @Test func eitherAloneIsTheTitleAndNeitherIsNone() {
        #expect(title(nil, "Only a Title") == "Only a Title")
        #expect(title("Only an Artist", nil) == "Only an Artist")
        #expect(title("  ", "Title") == "Title")
        #expect(title("Artist", "\0\0") == "Artist")
        #expect(title(nil, nil) == nil)
        #expect(title("", " \t") == nil)
    }

    @Test func latin1TagsAreNotLost() {
        let latin1: [UInt8] = Array("Caf".utf8) + [0xE9]
        #expect(StreamTags.title(artist: nil, title: latin1) == "Café")
    }

    @Test func aLongValueIsCutBeforeAWholeCharacter() throws {
        // "é" is two bytes: one of them past the limit must not turn the rest into Latin-1.
        let long = String(repeating: "a", count: StreamTags.maximumValueBytes - 1) + "é" + "tail"
        let cut = try #require(title(nil, long))
        #expect(cut == String(repeating: "a", count: StreamTags.maximumValueBytes - 1))
        let fits = String(repeating: "b", count: StreamTags.maximumValueBytes - 2) + "é"
        #expect(title(nil, fits + "more") == fits)
        // Megabytes of tag read as no more than the limit.
        #expect(title(nil, String(repeating: "x", count: 1 << 20))?.utf8.count == StreamTags.maximumValueBytes)
    }
}

/// HLS's timed ID3 titles, whole and as FFmpeg 5.1 hands them over (five bytes short).
@Suite struct TimedID3TitleTests {
    static func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }

    /// An ID3v2.4 tag of UTF-8 text frames, as a packager writes one.
    static func tag(_ frames: [(String, String)]) -> [UInt8] {
        let body = frames.flatMap { id, text -> [UInt8] in
            let content: [UInt8] = [3] + Array(text.utf8)
            return Array(id.utf8) + syncsafe(content.count) + [0, 0] + content
        }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    @Test func artistAndTitleOfAWholeTag() {
        #expect(StreamTags.title(timedID3: Self.tag([("TPE1", "Second"), ("TIT2", "été à Zürich")])) == "Second - été à Zürich")
        #expect(StreamTags.title(timedID3: Self.tag([("TIT2", "Only a Title")])) == "Only a Title")
    }

    @Test func aTagFFmpegCutFiveBytesShortIsReadWhole() {
        let whole = Self.tag([("TPE1", "First Artist"), ("TIT2", "First Title")])
        #expect(StreamTags.title(timedID3: Array(whole.dropFirst(5))) == "First Artist - First Title")
    }

    @Test func whatIsNoWholeTagGivesNoTitle() {
        let whole = Self.tag([("TPE1", "First Artist"), ("TIT2", "First Title")])
        // Cut short, at either end: its declared size is more than is there.
        #expect(StreamTags.title(timedID3: Array(whole.dropLast(3))) == nil)
        #expect(StreamTags.title(timedID3: Array(whole.dropFirst(5).dropLast(3))) == nil)
        // A tag of other frames only (a PRIV timestamp), random bytes, nothing.
        let priv = Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(18) + Array("PRIV".utf8) + Self.syncsafe(8) + [0, 0]
            + Array("ts\0".utf8) + [0, 0, 0, 0, 1]
        #expect(StreamTags.title(timedID3: priv) == nil)
        #expect(StreamTags.title(timedID3: (0..<64).map { UInt8(($0 * 37) & 0xFF) }) == nil)
        #expect(StreamTags.title(timedID3: []) == nil)
    }
}

/// A station's own name in its tags: an Ogg stream's ORGANIZATION, a timed ID3 tag's TRSN.
@Suite struct StationNameTagTests {
    @Test func aTimedID3TagNamesItsStationByTRSNWholeOrCutShort() {
        let tag = TimedID3TitleTests.tag([("TRSN", "Harbour HLS"), ("TPE1", "Artist"), ("TIT2", "Song")])
        #expect(StreamTags.stationName(timedID3: tag) == "Harbour HLS")
        #expect(StreamTags.stationName(timedID3: Array(tag.dropFirst(5))) == "Harbour HLS")
        // The song is no station's name.
        #expect(StreamTags.stationName(timedID3: TimedID3TitleTests.tag([("TPE1", "Artist"), ("TIT2", "Song")])) == nil)
        #expect(StreamTags.stationName(timedID3: TimedID3TitleTests.tag([("TRSN", "  ")])) == nil)
        #expect(StreamTags.stationName(timedID3: Array(tag.dropLast(3))) == nil)
    }

    @Test func anOggStreamsOrganizationIsItsNameTrimmedAndBounded() {
        #expect(StreamTags.stationName(organization: Array(" Ogg Harbour ".utf8)) == "Ogg Harbour")
        #expect(StreamTags.stationName(organization: Array("Caf".utf8) + [0xE9]) == "Café")
        #expect(StreamTags.stationName(organization: Array(" \t".utf8)) == nil)
        #expect(StreamTags.stationName(organization: nil) == nil)
        #expect(StreamTags.stationName(organization: Array(repeating: 0x78, count: 1 << 20))?.utf8.count == StreamTags.maximumValueBytes)
    }
}
