import Foundation
import Glibc
import InterludeCore
import Testing
import TestSupport
@testable import Playlists

/// Playlists: no read grows without a bound. `/dev/zero`
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

/// Found by `make fuzz` (m3u, seed `fuzz/seeds/m3u/newline-in-file-url.m3u`):
/// a path holding a line break (legal in a Linux file name; a `file://` line
/// with `%0A` gives one) was written as two lines, and the saved playlist
/// read back as other entries. Such paths, and those starting with `#` or a
/// blank, are written as `file://` URLs.
struct PlaylistAwkwardPathTests {
    @Test func pathsThatAPlainLineCannotHoldReadBackTheSame() {
        let paths = ["/music/three four.m4a\n# comment", "/music/lists/#1 hit.mp3", "/music/lists/ leading.mp3",
                     "/music/lists/\tx.mp3", "/music/a\r\nb.mp3", "/music/100% 唐詩.mp3", "/music/lists/plain.mp3"]
        let entries = paths.map { PlaylistEntry(path: $0, seconds: nil, title: nil) }
        let text = M3UPlaylist.write(entries, folder: "/music/lists")
        #expect(M3UPlaylist.parse(text, folder: "/music/lists").map(\.path) == paths, "\(text)")
        #expect(text.split(separator: "\n").count == paths.count + 1)
        #expect(text.contains("\nplain.mp3\n") && text.contains("\n/music/100% 唐詩.mp3\n") && text.contains("file:///music/a%0D%0Ab.mp3"))
    }
}
