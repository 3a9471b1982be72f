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
}
