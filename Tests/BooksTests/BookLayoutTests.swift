import Foundation
import Books
import Testing

struct BookLayoutTests {
    /// Lengths as the decoder would give them, by file name.
    static func durations(_ table: [String: Int]) -> (BookSource.File) -> Int? {
        { file in table[String(file.path.split(separator: "/").last!)] }
    }

    @Test func folderPlaysItsMP3FilesInNaturalOrderOneChapterEach() throws {
        let fixtures = try BookFixtures()
        let folder = try fixtures.folder("The Long Walk")
        try fixtures.file(folder + "/Chapter 10.mp3", text: ["TIT2": "Ten", "TALB": "A Long Walk", "TPE1": "R. Bachman"])
        try fixtures.file(folder + "/Chapter 2.mp3")
        try fixtures.file(folder + "/chapter 1.MP3", text: ["TIT2": "One"])
        try fixtures.file(folder + "/._Chapter 3.mp3")
        try fixtures.file(folder + "/cover.jpg")
        let source = try BookSource.load(path: folder)
        #expect(source.kind == .folder)
        let book = try Book(source: source, absolutePath: folder,
                            duration: Self.durations(["chapter 1.MP3": 60_000, "Chapter 2.mp3": 90_500, "Chapter 10.mp3": 30_000]))
        #expect(book.files.map(\.name) == ["chapter 1.MP3", "Chapter 2.mp3", "Chapter 10.mp3"])
        #expect(book.files.map(\.startMilliseconds) == [0, 60_000, 150_500])
        #expect(book.durationMilliseconds == 180_500)
        #expect(book.chapters.map(\.title) == ["One", "Chapter 2", "Ten"])
        #expect(book.chapters.map(\.startMilliseconds) == [0, 60_000, 150_500])
        #expect(book.chapters.map(\.endMilliseconds) == [60_000, 150_500, 180_500])
        #expect(book.title == "A Long Walk")
        #expect(book.author == "R. Bachman")
    }

    @Test func folderWithoutTagsIsNamedAfterTheFolder() throws {
        let fixtures = try BookFixtures()
        let folder = try fixtures.folder("Moby Dick")
        try fixtures.file(folder + "/01.mp3")
        let book = try Book(source: try BookSource.load(path: folder + "/"), absolutePath: folder,
                            duration: { _ in 1000 })
        #expect(book.title == "Moby Dick")
        #expect(book.author == nil)
        #expect(book.chapters.map(\.title) == ["01"])
    }

    @Test func chapteredFileTakesItsChaptersFromCHAPFramesTilingTheBook() throws {
        let fixtures = try BookFixtures()
        let path = try fixtures.file(fixtures.root + "/dune.mp3", text: ["TIT2": "Dune", "TPE1": "Frank Herbert"], chapters: [
            ("Prologue", 0, 12_000),
            ("Arrakis", 12_345, 40_000),
            // Its end is left short in the tag: chapters end where the next starts.
            ("Muad'Dib", 50_000, 55_000),
            // Starts beyond the audio: clamped to the end, zero length.
            ("Appendix", 99_000, 100_000),
        ])
        let book = try Book(source: try BookSource.load(path: path), absolutePath: path, duration: { _ in 70_000 })
        #expect(book.kind == .file)
        #expect(book.title == "Dune")
        #expect(book.author == "Frank Herbert")
        #expect(book.chapters.map(\.title) == ["Prologue", "Arrakis", "Muad'Dib", "Appendix"])
        #expect(book.chapters.map(\.startMilliseconds) == [0, 12_345, 50_000, 70_000])
        #expect(book.chapters.map(\.endMilliseconds) == [12_345, 50_000, 70_000, 70_000])
        #expect(book.chapter(at: 12_344).title == "Prologue")
        #expect(book.chapter(at: 12_345).title == "Arrakis")
        #expect(book.chapter(at: 69_999).title == "Muad'Dib")
        #expect(book.timeLeftInChapter(from: 45_000) == 5_000)
    }

    @Test func fileWithoutChaptersIsOneChapterNamedAfterIt() throws {
        let fixtures = try BookFixtures()
        let path = try fixtures.file(fixtures.root + "/Short Story.mp3")
        let book = try Book(source: try BookSource.load(path: path), absolutePath: path, duration: { _ in 42_000 })
        #expect(book.title == "Short Story")
        #expect(book.chapters == [BookChapter(index: 0, title: "Short Story", startMilliseconds: 0, endMilliseconds: 42_000, fileIndex: 0)])
    }

    @Test func folderOfChapteredFilesOffsetsEachFilesChapters() throws {
        let fixtures = try BookFixtures()
        let folder = try fixtures.folder("parts")
        // The first chapter of a file opens the file, even when its tag says 500 ms.
        try fixtures.file(folder + "/part1.mp3", chapters: [("A", 500, 10_000), ("B", 10_000, 20_000)])
        try fixtures.file(folder + "/part2.mp3", chapters: [("C", 0, 5_000), ("D", 5_000, 20_000)])
        let book = try Book(source: try BookSource.load(path: folder), absolutePath: folder, duration: { _ in 20_000 })
        #expect(book.chapters.map(\.startMilliseconds) == [0, 10_000, 20_000, 25_000])
        #expect(book.chapters.map(\.fileIndex) == [0, 0, 1, 1])
    }

    @Test func undecodableFilesAreLeftOutAndNamed() throws {
        let fixtures = try BookFixtures()
        let folder = try fixtures.folder("b")
        try fixtures.file(folder + "/1.mp3")
        try fixtures.file(folder + "/2.mp3")
        let book = try Book(source: try BookSource.load(path: folder), absolutePath: folder,
                            duration: Self.durations(["2.mp3": 5_000]))
        #expect(book.files.map(\.name) == ["2.mp3"])
        #expect(book.skippedFiles == [folder + "/1.mp3"])
        #expect(throws: BookLoadError.nothingPlayable(path: folder)) {
            try Book(source: try BookSource.load(path: folder), absolutePath: folder, duration: { _ in nil })
        }
    }

    @Test func pathsThatAreNotBooksSayWhy() throws {
        let fixtures = try BookFixtures()
        let empty = try fixtures.folder("empty")
        try fixtures.file(empty + "/notes.txt")
        #expect(throws: BookLoadError.noAudioFiles(path: empty)) { try BookSource.load(path: empty) }
        #expect(throws: BookLoadError.cannotOpen(path: fixtures.root + "/missing")) {
            try BookSource.load(path: fixtures.root + "/missing")
        }
        #expect(BookLoadError.noAudioFiles(path: empty).description.contains(empty))
    }

    @Test func damagedTagIsReportedAndTheFileStillPlays() throws {
        let fixtures = try BookFixtures()
        let path = fixtures.root + "/broken.mp3"
        // A 2.4 header declaring 1000 bytes of tag, followed by 10.
        try Data(Array("ID3".utf8) + [4, 0, 0, 0, 0, 7, 0x68] + [UInt8](repeating: 0x41, count: 10)).write(to: URL(fileURLWithPath: path))
        let book = try Book(source: try BookSource.load(path: path), absolutePath: path, duration: { _ in 3_000 })
        #expect(book.chapters.count == 1)
        #expect(book.tagProblems.count == 1)
        #expect(book.tagProblems.first?.contains(path) == true)
    }

    @Test func positionsMapToFilesAndBack() throws {
        let fixtures = try BookFixtures()
        let folder = try fixtures.folder("m")
        for name in ["a.mp3", "b.mp3", "c.mp3"] { try fixtures.file(folder + "/" + name) }
        let book = try Book(source: try BookSource.load(path: folder), absolutePath: folder,
                            duration: Self.durations(["a.mp3": 10_000, "b.mp3": 20_000, "c.mp3": 30_000]))
        #expect(book.location(at: 0) == BookLocation(fileIndex: 0, offsetMilliseconds: 0))
        #expect(book.location(at: 9_999) == BookLocation(fileIndex: 0, offsetMilliseconds: 9_999))
        #expect(book.location(at: 10_000) == BookLocation(fileIndex: 1, offsetMilliseconds: 0))
        #expect(book.location(at: 45_000) == BookLocation(fileIndex: 2, offsetMilliseconds: 15_000))
        #expect(book.location(at: 99_000) == BookLocation(fileIndex: 2, offsetMilliseconds: 30_000))
        #expect(book.location(at: -5) == BookLocation(fileIndex: 0, offsetMilliseconds: 0))
        for position in stride(from: 0, through: 60_000, by: 1_250) {
            #expect(book.position(of: book.location(at: position)) == position)
        }
        #expect(book.position(of: BookLocation(fileIndex: 1, offsetMilliseconds: 25_000)) == 30_000)
        #expect(book.timeLeft(from: 45_000) == 15_000)
        #expect(book.timeLeft(from: 45_000, speed: 1.5) == 10_000)
    }

    @Test func bookIDIsStableAndIgnoresATrailingSlash() {
        #expect(BookID(absolutePath: "/books/Dune") == BookID(absolutePath: "/books/Dune/"))
        #expect(BookID(absolutePath: "/books/Dune") != BookID(absolutePath: "/books/Dune 2"))
        // FNV-1a 64 of "a" (published test vector), so ids never change between versions.
        #expect(BookID(absolutePath: "a").rawValue == "af63dc4c8601ec8c")
        #expect(BookID(absolutePath: "/books/Dune").rawValue.count == 16)
    }
}
