import Foundation
import Glibc
import InterludeCore
import Testing
import TestSupport
@testable import Playlists

/// Issue 25, point 1 for playlists: no read grows without a bound. `/dev/zero`
/// as a playlist, a FIFO, a 5-million-line M3U and a file past the size limit
/// are each refused in one line naming the playlist and the limit.
struct PlaylistLimitTests {
    static func scratch() -> String {
        let directory = NSTemporaryDirectory() + "interlude-playlist-limits-\(UInt64.random(in: 0...UInt64.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func failure(_ path: String) -> String? {
        do { _ = try PlaylistFile.load(path) } catch { return error.description }
        return nil
    }

    @Test func devZeroAsAPlaylistIsRefusedNotReadForEver() throws {
        let path = Self.scratch() + "/zero.m3u"
        try #require(symlink("/dev/zero", path) == 0)
        #expect(Self.failure(path) == "cannot read the playlist \(path): a character device, not a file")
    }

    @Test func aFIFOAsAPlaylistIsRefusedWithoutWaitingForAWriter() throws {
        let path = Self.scratch() + "/pipe.m3u8"
        try WritableFIFO.make(path)
        #expect(Self.failure(path) == "cannot read the playlist \(path): a FIFO (named pipe), not a file")
    }

    @Test func fiveMillionLinesAreRefusedByTheEntryLimit() throws {
        let path = Self.scratch() + "/long.m3u"
        // Two bytes a line: 10 MB, under the size limit, so the entry limit is what refuses it.
        var lines = [UInt8](repeating: 0x0A, count: 10_000_000)
        for index in stride(from: 0, to: lines.count, by: 2) { lines[index] = UInt8(ascii: "a") }
        try Data(lines).write(to: URL(fileURLWithPath: path))
        #expect(Self.failure(path) == "cannot read the playlist \(path): more than 100000 entries")
    }

    @Test func aPlaylistPastTheSizeLimitIsRefused() throws {
        let path = Self.scratch() + "/big.m3u"
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: path))
        try #require(truncate(path, off_t(PlaylistFile.byteLimit + 1)) == 0)
        #expect(Self.failure(path) == "cannot read the playlist \(path): larger than 16 MB, more than such a file holds")
    }

    @Test func theParserStopsAtItsLimit() {
        let text = String(repeating: "a.mp3\n", count: 1000)
        #expect(M3UPlaylist.parse(text, folder: "/music", limit: 10).count == 10)
        #expect(M3UPlaylist.parse(text, folder: "/music").count == 1000)
    }
}
