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
