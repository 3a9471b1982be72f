import InterludeCore
import Testing
@testable import MusicLibrary

/// The pane's in-memory search: the same tracks as the brute-force reading
/// of a query, in the same order, up to the limit; a query typed a key at a
/// time (backspaces too) narrowed from the searches before it gives what a
/// fresh search gives, and reads only the earlier matches and the tracks
/// after where the earlier search stopped.
@Suite struct LibrarySearchTableTests {
    /// Words from a few syllables (accents, digits and CJK among them), so
    /// prefixes begin many words and queries narrow and widen often.
    static func library(seed: UInt64, count: Int) -> [LibraryTrack] {
        var generator = SeededGenerator(seed: seed)
        let syllables = ["so", "son", "ng", "ta", "tra", "ck", "é", "1", "0", "al", "bum", "Ö", "東", "方"]
        func word() -> String {
            (0..<(1 + Int(generator.next() % 3))).map { _ in syllables[Int(generator.next() % UInt64(syllables.count))] }.joined()
        }
        func words(_ most: Int) -> String { (0..<(1 + Int(generator.next() % UInt64(most)))).map { _ in word() }.joined(separator: " ") }
        return (0..<count).map { number in
            var track = LibraryTrack(path: "/m/\(words(2))/\(number).mp3", relativePath: "\(words(2))/\(number).mp3",
                                     title: generator.next() % 9 == 0 ? nil : words(3), album: words(2),
                                     year: generator.next() % 7 == 0 ? nil : 1960 + Int(generator.next() % 60))
            track.artists = (0..<Int(generator.next() % 3)).map { _ in words(2) }
            track.albumArtists = generator.next() % 4 == 0 ? [words(2)] : []
            track.genres = generator.next() % 3 == 0 ? [] : [words(1)]
            return track
        }
    }

    static func typedQueries(seed: UInt64, count: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let pieces = ["so", "son", "song", "ta", "track", "1", "10", "é", "alb", "Ö", "東方", "方", "zz", "year:19", "year:197",
                      "year:1965-1970", "artist:", "artist:so", "album:ta", "title:ng", "genre:bu", "path:1", "\"so ng\"", "ck"]
        return (0..<count).map { _ in
            (0..<(1 + Int(generator.next() % 3))).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined(separator: " ")
        }
    }

    func bruteForce(_ query: LibraryQuery, _ tracks: [LibraryTrack], limit: Int) -> [Int64] {
        Array(tracks.indices.filter { query.matches(tracks[$0]) }.prefix(limit).map(Int64.init))
    }

    @Test func freshSearchesFindWhatBruteForceFinds() throws {
        let tracks = Self.library(seed: 3, count: 600)
        let table = try #require(LibrarySearchTable(tracks: tracks))
        var nonEmpty = 0
        for text in Self.typedQueries(seed: 4, count: 150) {
            let query = LibraryQuery(text)
            for limit in [5, 40, 10_000] {
                var search = LibrarySearchTable.Search(table: table)
                let found = search.ids(matching: query, limit: limit)
                #expect(found == bruteForce(query, tracks, limit: limit), "\(text) limit \(limit)")
                if !found.isEmpty { nonEmpty += 1 }
            }
        }
        // The comparison means something only if most queries find tracks.
        #expect(nonEmpty > 250, "\(nonEmpty) searches found tracks")
    }

    /// Seeded queries typed a key at a time, then erased a key at a time
    /// down to a random point and typed on, through one search that narrows:
    /// every key's result is a fresh search's and brute force's.
    @Test func narrowedSearchesTypedKeyByKeyGiveWhatFreshSearchesGive() throws {
        let tracks = Self.library(seed: 11, count: 800)
        let table = try #require(LibrarySearchTable(tracks: tracks))
        var generator = SeededGenerator(seed: 12)
        var typing = LibrarySearchTable.Search(table: table)
        var keys = 0
        var narrowed = 0
        for text in Self.typedQueries(seed: 13, count: 80) {
            let limit = [3, 25, 500][Int(generator.next() % 3)]
            let characters = Array(text)
            var typed: [Character] = []
            var steps: [[Character]] = []
            for character in characters {
                typed.append(character)
                steps.append(typed)
            }
            let erase = Int(generator.next() % UInt64(characters.count + 1))
            for _ in 0..<erase {
                typed.removeLast()
                steps.append(typed)
            }
            for character in characters.suffix(erase) {
                typed.append(character)
                steps.append(typed)
            }
            var previous = LibraryQuery("")
            for step in steps {
                let query = LibraryQuery(String(step))
                let found = typing.ids(matching: query, limit: limit)
                var fresh = LibrarySearchTable.Search(table: table)
                #expect(found == fresh.ids(matching: query, limit: limit), "\(String(step)) limit \(limit)")
                #expect(found == bruteForce(query, tracks, limit: limit), "\(String(step)) limit \(limit)")
                if query.narrows(previous) && query != previous { narrowed += 1 }
                previous = query
                keys += 1
            }
        }
        #expect(keys > 800 && narrowed > 300, "\(keys) keys, \(narrowed) narrowed the one before")
    }

    /// A letter added to the filter checks the last search's matches and reads
    /// on from where it stopped, not the tracks before.
    @Test func aNarrowingKeyReadsOnlyTheEarlierMatchesAndWhatFollows() throws {
        let tracks = (0..<1000).map { number in
            LibraryTrack(path: "/m/\(number).mp3", title: number % 10 == 0 ? "song \(number)" : "track \(number)")
        }
        var search = LibrarySearchTable.Search(table: try #require(LibrarySearchTable(tracks: tracks)))
        // "s" matches every tenth track: 5 of them are the first 41 tracks.
        #expect(search.ids(matching: LibraryQuery("s"), limit: 5) == [0, 10, 20, 30, 40])
        #expect(search.tracksRead == 41)
        // "so": the 5 kept, all matching, and nothing read: the limit was reached among them.
        #expect(search.ids(matching: LibraryQuery("so"), limit: 5) == [0, 10, 20, 30, 40])
        #expect(search.tracksRead == 5)
        // "son 1": 10 among the 5 kept, then reading on from track 41 to 100.
        #expect(search.ids(matching: LibraryQuery("son 1"), limit: 2) == [10, 100])
        #expect(search.tracksRead == 5 + 60)
        // A backspace: "son" still narrows "so", whose matches it checks.
        #expect(search.ids(matching: LibraryQuery("son"), limit: 2) == [0, 10])
        #expect(search.tracksRead == 2)
        // Another word, which narrows none of them: a search of its own from the start.
        #expect(search.ids(matching: LibraryQuery("t"), limit: 2) == [1, 2])
        #expect(search.tracksRead == 3)
    }

    @Test func aQueryNarrowsAnotherWhenEachOfItsTermsIsHeldByOneOfThese() {
        #expect(LibraryQuery("song").narrows(LibraryQuery("so")))
        #expect(LibraryQuery("so ta").narrows(LibraryQuery("so")))
        #expect(LibraryQuery("title:song").narrows(LibraryQuery("so")))
        // An album artist is no free word's column: artist:song can hold where so does not.
        #expect(!LibraryQuery("artist:song").narrows(LibraryQuery("so")))
        #expect(!LibraryQuery("so").narrows(LibraryQuery("artist:so")))
        #expect(!LibraryQuery("so").narrows(LibraryQuery("song")))
        #expect(LibraryQuery("東方").narrows(LibraryQuery("東")))
        #expect(!LibraryQuery("東").narrows(LibraryQuery("東方")))
        #expect(LibraryQuery("year:197").narrows(LibraryQuery("year:19")))
        #expect(!LibraryQuery("year:19").narrows(LibraryQuery("year:197")))
        #expect(LibraryQuery("so year:1975").narrows(LibraryQuery("")))
        #expect(!LibraryQuery("").narrows(LibraryQuery("so")))
    }

    @Test func wordsAreNumberedInByteOrder() throws {
        let tracks = [LibraryTrack(path: "/m/a.mp3", title: "zoë ant 曲 anthem ｚ"), LibraryTrack(path: "/m/b.mp3", title: "Ant")]
        let table = try #require(LibrarySearchTable(tracks: tracks))
        let words = (0..<table.wordCount).map(table.word)
        #expect(words == SearchVocabulary(words: words).words)
        #expect(words.contains("zoe") && words.contains("anthem") && words.contains("mp3"))
        #expect(table.wordRange(prefix: Array("ant".utf8)).count == 2)
        #expect(table.wordRange(prefix: Array("q".utf8)).isEmpty)
    }
}
