@testable import Interlude
import RemoteControl
import Testing

/// `search`'s byte search over lowercased values finds what the
/// Character-by-Character `value.lowercased().contains(needle)` it replaced finds.
@Suite struct MPDFoldedValuesTests {
    /// Values where bytes and Characters part: composed and decomposed
    /// accents, a combining mark with no composed form, flags, CR LF, a sign
    /// that lowercases to ASCII, a letter that lowercases to two scalars,
    /// emoji joined by ZWJ, no value at all.
    static let tracks: [[String]] = [
        ["Track 7 Song"], ["曲 7 さくら", "Chanson n°12 été"], [], ["Cafe\u{301} Crème"], ["Zoë", "ZOË"],
        ["e\u{20DD}x"], ["🇺🇸🇫🇷"], ["a\r\nb"], ["\u{212A}elvin"], ["İstanbul"], [""], ["👩‍👩‍👧 family"],
        ["Straße", "Track 8 Song"], ["ÉTÉ"],
    ]
    static let needles = ["", "song", "SONG 8", "さくら", "e", "é", "e\u{301}", "🇸🇫", "🇺🇸", "\r", "b", "k", "kelvin",
                          "i", "i\u{307}", "ß", "ss", "👩", "family", "x", "café", "été", "ë", "\u{20DD}", "zzz"]

    @Test(arguments: needles)
    func findsWhatLowercasedContainsFinds(_ needle: String) {
        let folded = MPDFoldedValues(count: Self.tracks.count) { Self.tracks[$0] }
        // The Interlude module's `contains` (this one's, with Foundation imported, is Foundation's).
        let expected = Self.tracks.map { values in
            values.contains { MPDFoldedValues.containsCharacters($0.lowercased(), needle.lowercased()) }
        }
        #expect(folded.matches(lowercased: needle.lowercased()) == expected)
    }

    @Test func aCharacterIsMatchedWholeAndInAnyForm() {
        let folded = MPDFoldedValues(count: Self.tracks.count) { Self.tracks[$0] }
        func tracks(_ needle: String) -> [Int] { folded.matches(lowercased: needle).indices.filter { folded.matches(lowercased: needle)[$0] } }
        // The decomposed é of "Cafe\u{301}" is found by the composed one, and its e alone is not a Character there.
        #expect(tracks("café") == [3])
        #expect(tracks("e\u{301}") == [1, 3, 13])
        #expect(tracks("🇸🇫") == [])
        #expect(tracks("") == [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    }
}
