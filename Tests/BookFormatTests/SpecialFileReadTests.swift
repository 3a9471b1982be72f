import Foundation
import Glibc
import InterludeCore
import Testing
import TestSupport
@testable import BookFormat

/// The tag and cue sheet readers against special files: a FIFO named like
/// audio is refused without an open that waits for a writer, a tag declaring
/// more than the reader's limit is refused before it is read, and a "cue
/// sheet" of 2 GB is refused after its first megabyte.
struct SpecialFileReadTests {
    static func scratch() -> String {
        let directory = NSTemporaryDirectory() + "interlude-special-\(UInt64.random(in: 0...UInt64.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theTagOfAFIFOIsRefusedNamingIt() throws {
        let path = Self.scratch() + "/00.mp3"
        try WritableFIFO.make(path)
        #expect(throws: TagFileError.cannotOpen(path: path, reason: "a FIFO (named pipe), not a file")) {
            _ = try TagFileReader.tagBytes(atPath: path)
        }
        #expect(AudioTags.read(path: path) == AudioTags())
    }

    @Test func aTagDeclaringMoreThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = Self.scratch() + "/huge.mp3"
        // 0x7f 0x7f 0x7f 0x7f syncsafe: 256 MB declared, in a file of 10 bytes and a hole.
        try Data([0x49, 0x44, 0x33, 4, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f]).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 300 << 20) == 0)
        #expect(throws: TagFileError.cannotRead(path: path, reason: "its ID3v2 tag declares 268435465 bytes, more than the 32 MB read")) {
            _ = try TagFileReader.tagBytes(atPath: path)
        }
    }

    @Test func aTwoGigabyteCueSheetIsRefusedAfterItsFirstMegabyte() throws {
        let path = Self.scratch() + "/album.cue"
        try Data("FILE \"a.flac\" WAVE\n".utf8).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, 2 << 30) == 0)
        let result = CueTrack.readSheet(path)
        #expect(result.failureMessage == "\(path): larger than 1 MB, which no cue sheet is")
    }

    @Test func aCueSheetThatIsAFIFOIsRefusedNamingIt() throws {
        let path = Self.scratch() + "/album.cue"
        try WritableFIFO.make(path)
        #expect(CueTrack.readSheet(path).failureMessage == "\(path): cannot be read: a FIFO (named pipe), not a file")
        #expect(AudioTags.read(path: path) == AudioTags())
    }
}

private extension Result where Failure == CueTrackError {
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
