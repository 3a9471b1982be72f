import LibraryIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The library's folders are watched by the scan's thread
/// (`LibraryScanThread.watch`), not the main loop: each folder found but
/// those already watched gets a watch whose changes the loop's inotify
/// descriptor then reads.
@Suite struct LibraryFolderWatchTests {
    static func folders(_ count: Int) -> [String] {
        let root = ScratchFiles.makeDirectory("library-watch")
        return (0..<count).map { index in
            let folder = "\(root)/folder \(index)"
            mkdir(folder, 0o700)
            return folder
        }
    }

    @Test func everyFolderButTheWatchedOnesIsWatchedAndAFileMadeThereIsReadOnTheDescriptor() throws {
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(inotify >= 0)
        defer { close(inotify) }
        let folders = Self.folders(3)
        let made = LibraryScanThread.watch(folders, on: inotify, except: [folders[1]], stopping: { false })
        #expect(made.watches.map(\.folder) == [folders[0], folders[2]])
        #expect(made.watches.allSatisfy { $0.descriptor >= 0 } && !made.full)
        #expect(Set(made.watches.map(\.descriptor)).count == 2)

        FileManager.default.createFile(atPath: folders[2] + "/new.mp3", contents: Data([1]))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
        try #require(count >= 16, "no event read")
        let descriptor = buffer.withUnsafeBytes { $0.load(as: Int32.self) }
        #expect(descriptor == made.watches[1].descriptor)
        // Nothing from the folder left out.
        FileManager.default.createFile(atPath: folders[1] + "/other.mp3", contents: Data([1]))
        #expect(buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) } < 0)
    }

    @Test func aStoppingPlayerWatchesNothingMoreAndNoDescriptorWatchesNothing() {
        let folders = Self.folders(2)
        let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { close(inotify) }
        #expect(LibraryScanThread.watch(folders, on: inotify, except: [], stopping: { true }).watches.isEmpty)
        #expect(LibraryScanThread.watch(folders, on: -1, except: [], stopping: { false }).watches.isEmpty)
    }
}
