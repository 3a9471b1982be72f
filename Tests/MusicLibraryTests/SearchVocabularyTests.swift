import InterludeCore
import Testing
@testable import MusicLibrary

/// The index's words, kept in SQLite's byte order, and long prefixes of a
/// query written as the words they begin.
@Suite struct SearchVocabularyTests {
    @Test func wordsAreKeptInByteOrderOnce() {
        // By bytes: "é" (C3 A9) after "z", "曲" (E6 9B B2) after it, "ｚ" (EF BD 9A) last.
        let vocabulary = SearchVocabulary(words: ["zoe", "été", "ant", "zoe", "ｚ", "anthem", "曲", "ant"])
        #expect(vocabulary.words == ["ant", "anthem", "zoe", "été", "曲", "ｚ"])
        let sorted = SearchVocabulary(words: ["a", "b", "c"])
        #expect(sorted.words == ["a", "b", "c"])
    }

    @Test func aPrefixFindsExactlyTheWordsItBegins() {
        // Seeded words over a small alphabet (some non-ASCII), so prefixes share and split often.
        var generator = SeededGenerator(seed: 45)
        let letters: [Character] = ["a", "b", "n", "é", "ö", "1", "曲"]
        func word(_ length: Int) -> String { String((0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }) }
        let words = (0..<2000).map { _ in word(1 + Int(generator.next() % 6)) }
        let vocabulary = SearchVocabulary(words: words)
        for _ in 0..<300 {
            let prefix = word(1 + Int(generator.next() % 4))
            let expected = Set(words.filter { $0.utf8.starts(with: prefix.utf8) })
            let found = vocabulary.words(withPrefix: prefix, limit: 10_000)
            #expect(found.map(Set.init) == expected, "\(prefix)")
            if let found { #expect(found == found.sorted(by: SearchVocabulary.precedes)) }
            if expected.count > 3 { #expect(vocabulary.words(withPrefix: prefix, limit: 3) == nil) }
        }
    }

    @Test func longPrefixesBecomeTheirWordsShortOnesStayPrefixes() {
        let vocabulary = SearchVocabulary(words: ["song", "songs", "sonata", "track", "album", "東"])
        let columns = "{title artist album path}"
        #expect(LibraryQuery("so son").fullText(vocabulary: vocabulary)
            == .expression("\(columns) : \"so\"* AND \(columns) : (\"sonata\" OR \"song\" OR \"songs\")"))
        #expect(LibraryQuery("artist:trac").fullText(vocabulary: vocabulary)
            == .expression("{artist albumartist} : (\"track\")"))
        // A word no track has: nothing matches, without asking the index.
        #expect(LibraryQuery("album zzz").fullText(vocabulary: vocabulary) == .nothing)
        // CJK runs are phrases already; years are no text.
        #expect(LibraryQuery("東方").fullText(vocabulary: vocabulary) == .expression("\(columns) : \"東 方\""))
        #expect(LibraryQuery("year:1999").fullText(vocabulary: vocabulary) == LibraryQuery.FullText.none)
        // Without a vocabulary, or past the limit, a prefix stays a prefix.
        #expect(LibraryQuery("son").fullText(vocabulary: nil) == .expression("\(columns) : \"son\"*"))
        let many = SearchVocabulary(words: (0..<(LibraryQuery.expansionLimit + 1)).map { "son\($0)" })
        #expect(LibraryQuery("son").fullText(vocabulary: many) == .expression("\(columns) : \"son\"*"))
    }
}
