import Foundation
import Testing
import TestSupport
@testable import BookFormat

/// Lyrics written by a tagger we did not write (mutagen)
/// into real files are read back by `AudioTags.read`: ID3 SYLT (timed in
/// milliseconds and in MPEG frames, in each text encoding) and USLT, Vorbis
/// `LYRICS` and `UNSYNCEDLYRICS` in FLAC, Ogg Vorbis and Opus, MP4 `©lyr`;
/// and a huge SYLT and a huge LRC are kept within the limits with one line.
@Suite(.serialized) struct LyricsTagTests {
    static let timed: [(String, Int)] = [("Première ligne 第一", 1000), ("Second line", 2500), ("Third — line", 4000)]

    private func write(_ spec: [String: Any]) throws {
        let specPath = (spec["path"] as! String) + ".json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        let result = try ProcessRunner.run("python3", [InterludeBinary.packageRoot + "/Tests/Fixtures/write_lyrics.py", specPath],
                                           environment: ["PYTHONPATH": InterludeBinary.packageRoot + "/build/python"])
        #expect(result.succeeded, "\(result.summary)")
    }

    private func copy(_ source: String, as name: String) throws -> String {
        let path = ScratchFiles.makeDirectory("lyrics-tags") + "/" + name
        try FileManager.default.copyItem(atPath: source, toPath: path)
        return path
    }

    private func lines(_ tags: AudioTags) -> [Lyrics.Line] {
        guard case .synced(let lines) = tags.lyrics?.content else { return [] }
        return lines
    }

    @Test(arguments: [(3, 0), (3, 1), (4, 1), (4, 2), (4, 3)])
    func syltInMillisecondsReadsBackExactly(version: Int, encoding: Int) throws {
        let path = try copy(try Fixtures.mp3(.tone(frequency: 440), seconds: 2, channels: 1), as: "sylt.mp3")
        let texts = encoding == 0 ? [("Premiere ligne", 1000), ("Second line", 2500), ("Third line", 4000)] : Self.timed
        // Written out of order: the reader sorts.
        try write(["kind": "sylt", "path": path, "version": version, "encoding": encoding, "format": 2,
                   "lines": texts.reversed().map { [$0.0, $0.1] }])
        let tags = AudioTags.read(path: path)
        #expect(lines(tags) == texts.map { Lyrics.Line(milliseconds: $0.1, text: $0.0) })
        #expect(tags.lyrics?.source == "ID3 SYLT")
        #expect(tags.lyrics?.problem == nil)
    }

    @Test func syltInMPEGFramesIsTimedByTheStreamsFrames() throws {
        // 44.1 kHz MPEG-1 layer III: 1152 samples a frame.
        let path = try copy(try Fixtures.mp3(.tone(frequency: 440), seconds: 2, channels: 1), as: "frames.mp3")
        try write(["kind": "sylt", "path": path, "format": 1, "lines": [["a", 0], ["b", 100], ["c", 1000]]])
        #expect(lines(AudioTags.read(path: path)) == [
            .init(milliseconds: 0, text: "a"), .init(milliseconds: 2612, text: "b"), .init(milliseconds: 26_122, text: "c"),
        ])
    }

    @Test func usltAndSYLTTogetherGiveTheTimedOnes() throws {
        let path = try copy(try Fixtures.mp3(.tone(frequency: 440), seconds: 2, channels: 1), as: "both.mp3")
        try write(["kind": "uslt", "path": path, "text": "Untimed line one\nUntimed line two"])
        #expect(AudioTags.read(path: path).lyrics == Lyrics(content: .unsynced(["Untimed line one", "Untimed line two"]), source: "ID3 USLT"))
        try write(["kind": "sylt", "path": path, "format": 2, "lines": [["timed", 500]]])
        #expect(lines(AudioTags.read(path: path)) == [.init(milliseconds: 500, text: "timed")])
    }

    @Test(arguments: [Fixtures.Codec.flac16, .vorbis, .opus, .aac])
    func containerLyricsReadBack(codec: Fixtures.Codec) throws {
        let encoded = try Fixtures.encode(try Fixtures.wav(.tone(frequency: 440), seconds: 1, channels: 1), as: codec)
        let path = try copy(encoded, as: "lyrics." + codec.fileExtension)
        let kind = switch codec { case .flac16: "flac"; case .vorbis: "ogg"; case .opus: "opus"; default: "mp4" }
        // LRC text in the field, as many taggers store it, is timed.
        try write(["kind": kind, "path": path, "name": "LYRICS", "text": "[00:01.00]Première\n[00:02.00]Second"])
        let tags = AudioTags.read(path: path)
        #expect(lines(tags) == [.init(milliseconds: 1000, text: "Première"), .init(milliseconds: 2000, text: "Second")])
        #expect(tags.lyrics?.source == (kind == "mp4" ? "MP4 ©lyr" : "LYRICS"))
        guard kind != "mp4" else { return }
        let untimed = try copy(encoded, as: "untimed." + codec.fileExtension)
        try write(["kind": kind, "path": untimed, "name": "UNSYNCEDLYRICS", "text": "Just words\nMore words"])
        #expect(AudioTags.read(path: untimed).lyrics?.content == .unsynced(["Just words", "More words"]))
    }

    @Test func aHugeSYLTIsKeptWithinTheLimitsWithOneLine() throws {
        let path = try copy(try Fixtures.mp3(.tone(frequency: 440), seconds: 2, channels: 1), as: "huge.mp3")
        // 40,000 pieces of 100 characters: 4 MB of text in the tag.
        let filler = String(repeating: "y", count: 96)
        try write(["kind": "sylt", "path": path, "format": 2, "lines": (0..<40_000).map { ["\($0 % 1000)" + filler, $0 * 100] }])
        let tags = AudioTags.read(path: path)
        let kept = lines(tags)
        #expect(kept.count > 1000 && kept.count <= Lyrics.lineLimit)
        #expect(kept.reduce(0) { $0 + $1.text.utf8.count } <= Lyrics.byteLimit)
        #expect(tags.lyrics?.problem == "ID3 SYLT: longer than the 20000 lines (1 MB) kept; the rest is not shown")
        // The rest of the tag is still read.
        #expect(tags.title == nil && tags.damage == nil)
    }

    @Test func anLRCBesideTheFileWinsAndItsEncodingIsFound() throws {
        let folder = ScratchFiles.makeDirectory("lyrics-lrc")
        let audio = folder + "/Song.mp3"
        try FileManager.default.copyItem(atPath: try Fixtures.mp3(.tone(frequency: 440), seconds: 1, channels: 1), toPath: audio)
        try write(["kind": "uslt", "path": audio, "text": "embedded"])
        // Windows-1252: "Itâ€™s" would be the wrong reading.
        try Data([0x5B, 0x30, 0x30, 0x3A, 0x30, 0x31, 0x5D] + [0x49, 0x74, 0x92, 0x73, 0x20, 0xE9, 0x74, 0xE9] + [0x0A])
            .write(to: URL(fileURLWithPath: folder + "/Song.lrc"))
        let lyrics = Lyrics.find(audioPath: audio, tags: AudioTags.read(path: audio))
        #expect(lyrics == Lyrics(content: .synced([.init(milliseconds: 1000, text: "It\u{2019}s été")]), source: "Song.lrc"))
        try FileManager.default.removeItem(atPath: folder + "/Song.lrc")
        #expect(Lyrics.find(audioPath: audio, tags: AudioTags.read(path: audio))?.content == .unsynced(["embedded"]))
    }

    @Test func aHugeLRCFileIsReadToItsLimitWithOneLine() throws {
        let folder = ScratchFiles.makeDirectory("lyrics-huge")
        let line = Array("[00:01.00]".utf8) + [UInt8](repeating: 0x7A, count: 89) + [0x0A]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * 300_000)
        for _ in 0..<300_000 { bytes += line }  // 30 MB
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/big.lrc"))
        let lyrics = Lyrics.read(lrcPath: folder + "/big.lrc")
        #expect(lyrics.texts.count <= Lyrics.lineLimit)
        #expect(lyrics.problem == "big.lrc: longer than 2 MB; only its first 2 MB are read; "
            + "big.lrc: longer than the 20000 lines (1 MB) kept; the rest is not shown")
    }
}
