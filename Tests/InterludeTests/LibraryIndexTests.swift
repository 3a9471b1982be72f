import LibraryIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import InterludeCore
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// The index over a generated library: the scan reads every tag encoding,
/// search agrees with a brute-force filter over the same rows, a rescan
/// re-reads only what changed, and a lost or damaged index is rebuilt.
@Suite(.serialized) struct LibraryIndexTests {
    static let frameRun: [UInt8] = (try? LibraryTreeGenerator.frameRun()) ?? []

    struct Library {
        let root: String
        let indexPath: String
        let entries: [LibraryTreeGenerator.Entry]
    }

    static func makeLibrary(files: Int = 300) throws -> Library {
        let directory = ScratchFiles.makeDirectory("library")
        let generator = LibraryTreeGenerator(root: directory + "/music", fileCount: files)
        let entries = try generator.write(frameRun: frameRun)
        return Library(root: directory + "/music", indexPath: directory + "/cache/interlude/library.sqlite", entries: entries)
    }

    static func scan(_ library: Library, folders: [String]? = nil) throws -> (LibraryIndex, LibraryScanner.Progress, [String]) {
        let index = try LibraryIndex(path: library.indexPath)
        var problems: [String] = []
        let result = try LibraryScanner(folders: folders ?? [library.root]).run(index: index) { problems.append($0) }
        return (index, result, problems)
    }

    @Test func scanReadsLatin1Utf16AndUtf8TagsAndCJK() throws {
        let library = try Self.makeLibrary()
        let (index, result, problems) = try Self.scan(library)
        #expect(problems.isEmpty)
        #expect(result.found == 300 && result.read == 300 && result.removed == 0)
        let tracks = Dictionary(uniqueKeysWithValues: try index.allTracks().map { ($0.path, $0) })
        #expect(tracks.count == library.entries.count)
        for entry in library.entries {
            let track = try #require(tracks[entry.path], "\(entry.path) not indexed")
            #expect(track.title == entry.title)
            #expect(track.artist == entry.artist)
            #expect(track.album == entry.album)
            #expect(track.albumArtist == entry.albumArtist)
            #expect(track.year == entry.year)
            #expect(track.trackNumber == entry.trackNumber)
            #expect(track.genre == entry.genre)
            #expect(track.format == "mp3")
            // The generator's frames are 44.1 kHz mono: the rate and channels are stored and read back.
            #expect(track.sampleRate == 44100 && track.channels == 1, "\(entry.path)")
            #expect(track.relativePath == String(entry.path.dropFirst(library.root.count + 1)))
            #expect(abs((track.durationSeconds ?? 0) - 0.2) < 0.06, "\(entry.path): \(track.durationSeconds ?? -1) s")
        }
        let statistics = try index.statistics()
        #expect(statistics.tracks == 300 && statistics.albums == 30)
    }

    /// Acceptance 3's correctness half: twenty queries of every kind give the
    /// rows a brute-force filter over the same rows gives, in the same order.
    @Test func twentyQueriesAgreeWithBruteForce() throws {
        let library = try Self.makeLibrary()
        let (index, _, _) = try Self.scan(library)
        let rows = try index.allTracks()
        let queries = [
            "track", "t", "song 1", "chanson ete", "ÉTÉ", "CHANSON N°4", "曲", "さくら", "くら", "東方の",
            "artist:zoe", "artist:歌手 year:1965", "album:cafe crème", "album:\"album 1\"", "genre:electro",
            "genre:民謡", "year:197", "year:1960-1965 song", "path:compilations", "nandu 東京 zzz library",
        ]
        #expect(queries.count == 20)
        var nonEmpty = 0
        for text in queries {
            let query = LibraryQuery(text)
            let expected = rows.filter { query.matches($0) }.map(\.path)
            let found = try index.search(query).map(\.path)
            #expect(found == expected, "\(text): \(found.count) rows from the index, \(expected.count) by brute force")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        // The comparison means something only if most queries find rows.
        #expect(nonEmpty >= 18)
    }

    /// Long prefixes searched as the words the index holds that they begin
    /// (`SearchVocabulary`) find the rows the prefix finds and a brute-force
    /// filter finds: seeded random queries typed a key at a time, as the
    /// pane searches them, from words of the library's own tags and paths.
    @Test func prefixesSearchedAsTheirWordsAgreeWithBruteForce() throws {
        let library = try Self.makeLibrary()
        let (index, _, _) = try Self.scan(library)
        let vocabulary = try index.vocabulary()
        let rows = try index.allTracks()
        #expect(vocabulary.words.contains("chanson") && vocabulary.words.contains("東"))
        let words = Array(Set(rows.flatMap { track in
            [track.title, track.artist, track.album, track.relativePath].compactMap { $0 }
                .flatMap { SearchText.words($0).map(\.text) }
        })).sorted()
        var generator = SeededGenerator(seed: 8)
        func pick<T>(_ list: [T]) -> T { list[Int(generator.next() % UInt64(list.count))] }
        var expanded = 0
        var nonEmpty = 0
        for _ in 0..<60 {
            // One to three words, some behind a field, some misspelt at the end.
            var text = ""
            for position in 0..<(1 + Int(generator.next() % 3)) {
                var word = pick(words)
                if generator.next() % 4 == 0 { word += pick(["x", "q", "1", "é"]) }
                text += (position == 0 ? "" : " ") + pick(["", "", "", "artist:", "album:", "title:", "path:"]) + word
            }
            for end in 1...text.count {
                let query = LibraryQuery(String(text.prefix(end)))
                let expected = rows.filter { query.matches($0) }.map(\.path)
                let asWords = try index.search(query, vocabulary: vocabulary).map(\.path)
                let asPrefixes = try index.search(query).map(\.path)
                #expect(asWords == expected, "\(text.prefix(end)): \(asWords.count) rows, \(expected.count) by brute force")
                #expect(asPrefixes == expected, "\(text.prefix(end))")
                if query.fullText(vocabulary: vocabulary) != query.fullText(vocabulary: nil) { expanded += 1 }
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        // The comparison means something only if many queries were rewritten and found rows.
        #expect(expanded > 200 && nonEmpty > 200, "\(expanded) rewritten, \(nonEmpty) found rows")
    }

    /// The same over words made to share their beginnings (syllables of a
    /// small set, accents and digits among them), so most long prefixes
    /// begin several words and an OR of them is what is searched.
    @Test func prefixesOfManyWordsSearchedAsTheirWordsAgreeWithBruteForce() throws {
        let directory = ScratchFiles.makeDirectory("library-words")
        let index = try LibraryIndex(path: directory + "/library.sqlite")
        var generator = SeededGenerator(seed: 45)
        let syllables = ["so", "son", "ng", "ta", "tra", "ck", "é", "1", "0", "al", "bum"]
        func word() -> String { (0..<(2 + Int(generator.next() % 3))).map { _ in syllables[Int(generator.next() % 11)] }.joined() }
        func words(_ count: Int) -> String { (0..<count).map { _ in word() }.joined(separator: " ") }
        let tracks = (0..<400).map { number in
            LibraryTrack(path: "/m/\(number).mp3", relativePath: "\(number).mp3", title: words(3), artist: words(2), album: words(2),
                         trackNumber: 1, year: 1990 + number % 20)
        }
        try index.store(tracks)
        let vocabulary = try index.vocabulary()
        let rows = try index.allTracks()
        var expanded = 0
        var nonEmpty = 0
        for _ in 0..<80 {
            let text = (generator.next() % 3 == 0 ? "artist:" : "") + word() + (generator.next() % 2 == 0 ? " " + word() : "")
            for end in 1...text.count {
                let query = LibraryQuery(String(text.prefix(end)))
                let expected = rows.filter { query.matches($0) }.map(\.path)
                let found = try index.search(query, vocabulary: vocabulary).map(\.path)
                #expect(found == expected, "\(text.prefix(end)): \(found.count) rows, \(expected.count) by brute force")
                if case .expression(let expression) = query.fullText(vocabulary: vocabulary), expression.contains(" OR ") { expanded += 1 }
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(expanded > 150 && nonEmpty > 150, "\(expanded) written as ORs, \(nonEmpty) found rows")
    }

    /// The library pane's in-memory search over the index's own words
    /// (`searchTable`), narrowing as a query is typed a key at a time, finds
    /// what the index's full-text search finds, in its order, and the rows
    /// read by id are the rows the search reads.
    @Test func theInMemoryTableFindsWhatTheFullTextSearchFinds() throws {
        let library = try Self.makeLibrary()
        let (index, _, _) = try Self.scan(library)
        let table = try #require(try index.searchTable())
        #expect(table.count == 300 && table.isWhole)
        // The first tracks' table: the first in the index's order, and said to be part.
        let first = try #require(try index.searchTable(first: 100))
        #expect(first.count == 100 && !first.isWhole && first.ids == Array(table.ids.prefix(100)))
        #expect(try index.searchTable(first: 1000)?.isWhole == true)
        let rows = try index.allTracks()
        let words = Array(Set(rows.flatMap { track in
            [track.title, track.artist, track.album, track.relativePath].compactMap { $0 }
                .flatMap { SearchText.words($0).map(\.text) }
        })).sorted()
        var generator = SeededGenerator(seed: 16)
        func pick<T>(_ list: [T]) -> T { list[Int(generator.next() % UInt64(list.count))] }
        var typing = LibrarySearchTable.Search(table: table)
        var nonEmpty = 0
        let fixed = ["track", "chanson ete", "曲", "東方の", "artist:zoe", "artist:歌手 year:1965", "album:cafe crème", "genre:民謡",
                     "year:197", "year:1960-1965 song", "path:compilations", "nandu 東京 zzz"]
        let random = (0..<40).map { _ in
            (0..<(1 + Int(generator.next() % 3))).map { _ in pick(["", "", "artist:", "album:", "title:", "genre:"]) + pick(words) }
                .joined(separator: " ")
        }
        for text in fixed + random {
            for end in 1...text.count {
                let query = LibraryQuery(String(text.prefix(end)))
                let expected = try index.search(query, sort: nil, limit: 40, columns: .shown)
                let found = try index.shownTracks(ids: typing.ids(matching: query, limit: 40))
                #expect(found.map(\.path) == expected.map(\.path), "\(text.prefix(end))")
                #expect(found == expected, "\(text.prefix(end)): the rows as the search reads them")
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(nonEmpty > 300, "\(nonEmpty) queries found rows")
    }

    @Test func rescanReadsOnlyWhatChangedAndDropsWhatIsGone() throws {
        let library = try Self.makeLibrary(files: 100)
        _ = try Self.scan(library)
        let changed = library.entries[3].path
        let gone = library.entries[4].path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: changed)))
        bytes += [0]
        try Data(bytes).write(to: URL(fileURLWithPath: changed))
        #expect(unlink(gone) == 0)
        let added = library.root + "/new/added.mp3"
        try FileManager.default.createDirectory(atPath: library.root + "/new", withIntermediateDirectories: true)
        try Data(Self.frameRun).write(to: URL(fileURLWithPath: added))
        let (index, result, _) = try Self.scan(library)
        #expect(result.read == 2 && result.removed == 1 && result.unchanged == 98)
        let paths = Set(try index.allTracks().map(\.path))
        #expect(paths.contains(added) && !paths.contains(gone) && paths.count == 100)
        #expect(try index.search(LibraryQuery("added")).map(\.path) == [added])
    }

    @Test func deletedIndexIsRebuiltWithOneLine() throws {
        let library = try Self.makeLibrary(files: 20)
        let (first, _, _) = try Self.scan(library)
        #expect(first.notice?.contains("no library index") == true)
        first.close()
        for suffix in ["", "-wal", "-shm"] { unlink(library.indexPath + suffix) }
        let (index, result, _) = try Self.scan(library)
        #expect(index.notice == "no library index at \(library.indexPath) yet; building it")
        #expect(result.read == 20)
    }

    @Test func truncatedIndexIsSetAsideAndRebuilt() throws {
        let library = try Self.makeLibrary(files: 200)
        let (first, _, _) = try Self.scan(library)
        try first.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        first.close()
        var info = stat()
        #expect(stat(library.indexPath, &info) == 0)
        #expect(truncate(library.indexPath, off_t(info.st_size / 2)) == 0)
        let (index, result, _) = try Self.scan(library)
        let notice = try #require(index.notice)
        #expect(notice.hasPrefix("the library index \(library.indexPath) is damaged ("))
        #expect(notice.hasSuffix("moved to \(library.indexPath).damaged and rebuilt"))
        #expect(access(library.indexPath + ".damaged", F_OK) == 0)
        #expect(result.read == 200)
        #expect(try index.statistics().tracks == 200)
    }

    @Test func emptiedIndexIsRebuiltWithOneLine() throws {
        let library = try Self.makeLibrary(files: 20)
        let (first, _, _) = try Self.scan(library)
        first.close()
        for suffix in ["-wal", "-shm"] { unlink(library.indexPath + suffix) }
        #expect(truncate(library.indexPath, 0) == 0)
        let (index, result, _) = try Self.scan(library)
        #expect(index.notice == "the library index \(library.indexPath) is damaged (an empty file); rebuilt")
        #expect(result.read == 20)
    }

    @Test func indexOfAnotherLayoutIsRebuiltWithOneLine() throws {
        let library = try Self.makeLibrary(files: 20)
        let directory = String(library.indexPath[..<library.indexPath.lastIndex(of: "/")!])
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // An index as a build before schema versions would have left it.
        let old = try SQLiteConnection(path: library.indexPath)
        try old.execute("CREATE TABLE tracks (path TEXT PRIMARY KEY, title TEXT); INSERT INTO tracks VALUES ('/x.mp3', 'x');")
        old.close()
        let (index, result, _) = try Self.scan(library)
        #expect(index.notice == "the library index \(library.indexPath) has another layout (schema 0, this version uses \(LibraryIndex.schemaVersion)); rebuilt")
        #expect(result.read == 20 && result.removed == 0)

        try index.connection.execute("PRAGMA user_version = \(LibraryIndex.schemaVersion + 1)")
        index.close()
        let reopened = try LibraryIndex(path: library.indexPath)
        #expect(reopened.notice?.contains("schema \(LibraryIndex.schemaVersion + 1)") == true)
    }

    @Test func loudnessRowsAreListedAndStored() throws {
        let library = try Self.makeLibrary(files: 20)
        let (index, _, _) = try Self.scan(library)
        #expect(try index.rowsMissingLoudness().count == 20)
        let path = library.entries[0].path
        #expect(try index.setLoudness(path: path, trackGain: -3.5, trackPeak: 0.9, albumGain: -4, albumPeak: 0.95))
        #expect(try !index.setLoudness(path: "/no/such.mp3", trackGain: 0, trackPeak: 1))
        #expect(try index.rowsMissingLoudness().count == 19)
        let track = try #require(try index.allTracks().first { $0.path == path })
        #expect(track.trackGain == -3.5 && track.trackPeak == 0.9 && track.albumGain == -4 && track.albumPeak == 0.95)
    }

    /// The full-text delete is skipped for rows above every indexed one; a
    /// path stored twice in one batch, again in a later batch, and a highest
    /// row removed and its id given to a new path must each leave one
    /// full-text row per track, with its latest words only.
    @Test func storedAgainReplacesTheSearchRowsWords() throws {
        let directory = ScratchFiles.makeDirectory("library-store")
        let index = try LibraryIndex(path: directory + "/library.sqlite")
        func track(_ name: String, _ title: String) -> LibraryTrack {
            LibraryTrack(path: directory + "/" + name + ".mp3", relativePath: name + ".mp3", title: title, artist: "Quill")
        }
        try index.store([track("a", "amber"), track("b", "basalt"), track("a", "azure")])
        try index.store([track("c", "cobalt"), track("b", "beryl")])
        try index.remove(paths: [directory + "/c.mp3"])
        try index.store([track("d", "dune")])
        #expect(try index.search(LibraryQuery("amber")).isEmpty)
        #expect(try index.search(LibraryQuery("basalt")).isEmpty)
        #expect(try index.search(LibraryQuery("cobalt")).isEmpty)
        #expect(try index.search(LibraryQuery("azure")).map(\.path) == [directory + "/a.mp3"])
        #expect(try index.search(LibraryQuery("beryl")).map(\.path) == [directory + "/b.mp3"])
        #expect(try index.search(LibraryQuery("dune")).map(\.path) == [directory + "/d.mp3"])
        #expect(try index.search(LibraryQuery("quill"), sort: nil).map(\.path).sorted()
                == ["a", "b", "d"].map { directory + "/" + $0 + ".mp3" })
    }

    /// The unfiltered tree's catalog, read from the index of a scanned
    /// library: every artist, filed as the tree of all the index's rows files
    /// them, and each artist's rows read back by their ids.
    @Test func theCatalogFilesEveryArtistAsTheTreeOfAllRows() throws {
        let library = try Self.makeLibrary(files: 400)
        let (index, _, problems) = try Self.scan(library)
        #expect(problems.isEmpty)
        let catalog = try index.catalog()
        let tree = LibraryTree(tracks: try index.allTracks())
        #expect(catalog.artists.map(\.name) == tree.artists.map(\.name))
        #expect(catalog.artists.map(\.tracks) == tree.artists.map(\.trackCount))
        #expect(catalog.artists.map(\.albums) == tree.artists.map(\.albums.count))
        #expect(catalog.trackCount == 400)
        // Compilations (every 97th album) are there, under Various Artists.
        #expect(catalog.artists.contains { $0.name == LibraryTree.variousArtists })
        for (entry, artist) in zip(catalog.artists, tree.artists) {
            let rows = try index.tracks(ids: entry.ids)
            #expect(Set(rows) == Set(artist.albums.flatMap(\.tracks)), "\(entry.name)")
        }
    }
}
