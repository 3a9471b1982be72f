import Testing
@testable import MusicLibrary

@Suite struct SearchTextTests {
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
