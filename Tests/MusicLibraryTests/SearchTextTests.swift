import Testing
@testable import MusicLibrary

@Suite struct SearchTextTests {
    @Test func asciiFastPathFoldsLikeTheWords() {
        // Every printable ASCII character in seeded random strings, the edges
        // (leading, trailing, repeated separators) included.
        var generator = SplitMix64(seed: 15)
        var samples = ["", " ", "  a  ", "AC/DC", "Track 01 - Song", "--x--y--", "ZOE123abc", "a\tb\nc"]
        for _ in 0..<500 {
            let length = Int(generator.next() % 24)
            samples.append(String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(0x20 + generator.next() % 95))) }))
        }
        for text in samples {
            #expect(SearchText.indexedASCII(text) == SearchText.words(text).map(\.text).joined(separator: " "), "\(text)")
        }
        #expect(SearchText.indexedASCII("Café") == nil)
    }

    @Test func foldsCaseAndDiacritics() {
        #expect(SearchText.indexed("Beyoncé — Ça Ira, ÑANDÚ") == "beyonce ca ira nandu")
        #expect(SearchText.indexed("Motörhead Øresund Łódź") == "motorhead oresund lodz")
    }

    @Test func dropsDecomposedMarksLikePrecomposedOnes() {
        // "e" followed by U+0301 COMBINING ACUTE ACCENT folds like "é".
        #expect(SearchText.indexed("Caf\u{65}\u{301}") == SearchText.indexed("Café"))
    }

    @Test func splitsCJKIntoSingleCharacters() {
        let words = SearchText.words("東方の音 Tones")
        #expect(words.map(\.text) == ["東", "方", "の", "音", "tones"])
        #expect(words.map(\.isCJK) == [true, true, true, true, false])
    }

    @Test func punctuationSeparatesWords() {
        #expect(SearchText.indexed("AC/DC - Back_in-Black (Live)") == "ac dc back in black live")
        #expect(SearchText.indexed("/music/a b/01.mp3") == "music a b 01 mp3")
    }
}

/// A small seeded generator (SplitMix64), so a failing sample repeats.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
