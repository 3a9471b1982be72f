import LibraryIO
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// A scan stores its rows in batches that grow from `firstBatchSize` to
/// `batchSize` through the writer thread; every row lands once, whatever
/// the sizes.
@Suite(.serialized) struct LibraryScanBatchTests {
    @Test func growingBatchesStoreEveryFileOnce() throws {
        let library = try LibraryIndexTests.makeLibrary(files: 300)
        let index = try LibraryIndex(path: library.indexPath)
        var scanner = LibraryScanner(folders: [library.root])
        scanner.firstBatchSize = 7
        scanner.batchSize = 50
        var problems: [String] = []
        let result = try scanner.run(index: index) { problems.append($0) }
        #expect(problems.isEmpty && result.read == 300)
        let paths = try index.allTracks().map(\.path)
        #expect(paths.count == 300 && Set(paths) == Set(library.entries.map(\.path)))
        #expect(try index.search(LibraryQuery("")).count == 300)
        let again = try scanner.run(index: index) { problems.append($0) }
        #expect(again.unchanged == 300 && again.read == 0)
    }

    /// A row the scan took for new is inserted without an upsert; if its path
    /// is in the index after all (another scan stored it meanwhile), the row
    /// is updated, and either way the full text has its latest words only.
    @Test func aNewRowWhosePathIsThereAfterAllIsUpdated() throws {
        let directory = ScratchFiles.makeDirectory("library-insert")
        let index = try LibraryIndex(path: directory + "/library.sqlite")
        func row(_ name: String, _ title: String) -> LibraryIndex.StoredRow {
            LibraryIndex.StoredRow(LibraryTrack(path: directory + "/" + name + ".mp3", relativePath: name + ".mp3",
                                                title: title, artist: "Quill"), isNew: true)
        }
        try index.store(rows: [row("a", "amber"), row("b", "basalt")])
        try index.store(rows: [row("a", "azure"), row("c", "cobalt")])
        #expect(try index.search(LibraryQuery("amber")).isEmpty)
        #expect(try index.search(LibraryQuery("azure")).map(\.path) == [directory + "/a.mp3"])
        #expect(try index.search(LibraryQuery("quill"), sort: nil).map(\.path).sorted()
                == ["a", "b", "c"].map { directory + "/" + $0 + ".mp3" })
        #expect(try index.statistics().tracks == 3)
        // A new file gets 8 KB pages.
        let pages = try index.connection.prepare("PRAGMA page_size")
        _ = try pages.step()
        #expect(pages.integer(0) == 8192)
    }
}
