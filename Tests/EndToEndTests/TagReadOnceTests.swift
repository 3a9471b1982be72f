import Foundation
import Testing
import TestSupport

/// A file's tags are read once, by the decoder that opens it: `info` and a
/// library scan open each file only for its first bytes (which choose the
/// decoder and hold most tags) and for the decoding library's own reading,
/// never again for its tags, its chapters or its ReplayGain (before the one
/// tag type: 5 to 8 opens). Counted by strace on the real binary.
@Suite(.enabled(if: InterludeBinary.isAvailable() && ProcessRunner.which("strace") != nil))
struct TagReadOnceTests {
    /// Each file's tagged copy in a folder of its own, and the opens it may take:
    /// the head and the library's (libFLAC, libmpg123's reader, libavformat),
    /// and for an M4A whose `moov` box follows the audio (ffmpeg writes it
    /// last) one more read of it, past the head.
    static func files() throws -> (folder: String, opens: [String: Int]) {
        let folder = ScratchFiles.makeDirectory("tag-read-once")
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2)
        let sources = [
            "tagged.flac": try Fixtures.encode(wav, as: .flac16, extraArguments: ["-T", "TITLE=t", "-T", "REPLAYGAIN_TRACK_GAIN=-3 dB"]),
            "tagged.m4a": try Fixtures.encode(wav, as: .aac, extraArguments: ["-metadata", "title=t"]),
            "tagged.mp3": try Fixtures.mp3(.sweep, seconds: 1, encoding: .cbr(kbps: 128)),
        ]
        for (name, source) in sources { try FileManager.default.copyItem(atPath: source, toPath: folder + "/" + name) }
        return (folder, ["tagged.flac": 2, "tagged.m4a": 3, "tagged.mp3": 2])
    }

    /// How many times the command opened each file of `names`.
    static func opens(_ arguments: [String], names: [String], environment: [String: String] = [:]) throws -> [String: Int] {
        let log = ScratchFiles.makeDirectory("tag-read-once-trace") + "/trace"
        let result = try ProcessRunner.run("strace", ["-f", "-qq", "-e", "trace=open,openat", "-o", log, InterludeBinary.path()] + arguments,
                                           environment: environment, timeout: 120)
        #expect(result.succeeded, "\(result.summary)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        var counts: [String: Int] = [:]
        for name in names { counts[name] = lines.filter { $0.contains("/\(name)\"") || $0.contains("\"\(name)\"") }.count }
        return counts
    }

    @Test func infoOpensEachFileOnlyForItsHeadAndItsDecodingLibrary() throws {
        let (folder, expected) = try Self.files()
        for (name, count) in expected {
            let opens = try Self.opens(["info", "--json", folder + "/" + name], names: [name])
            #expect(opens[name] == count, "info \(name): \(opens)")
        }
    }

    /// An MP3 whose ID3v2 tag (a 20 KB cover, by mutagen) runs past
    /// the head: the check that its audio starts as MPEG reads the bytes after
    /// the tag in the head's own open, so the file is opened for its head, its
    /// tag and libmpg123, as before that check.
    @Test func infoOpensAnMP3WithALongTagForItsHeadItsTagAndLibmpg123() throws {
        let folder = ScratchFiles.makeDirectory("tag-read-once-cover")
        let path = folder + "/covered.mp3"
        try FileManager.default.copyItem(atPath: try Fixtures.mp3(.sweep, seconds: 1, encoding: .cbr(kbps: 128)), toPath: path)
        try ProcessRunner.check("python3", ["-c", """
            import sys
            from mutagen.id3 import ID3, TIT2, APIC
            t = ID3(); t.add(TIT2(encoding=3, text=["Covered"]))
            t.add(APIC(encoding=3, mime="image/jpeg", type=3, desc="", data=b"\\xff\\xd8" + bytes(20000)))
            t.save(sys.argv[1])
            """, path], environment: ["PYTHONPATH": "\(InterludeBinary.packageRoot)/build/python"])
        let opens = try Self.opens(["info", "--json", path], names: ["covered.mp3"])
        #expect(opens["covered.mp3"] == 3, "\(opens)")
    }

    @Test func aLibraryScanOpensEachFileOnlyForItsHeadAndItsDecodingLibrary() throws {
        let (folder, expected) = try Self.files()
        let home = ScratchFiles.makeDirectory("tag-read-once-home")
        try FileManager.default.createDirectory(atPath: home + "/config/interlude", withIntermediateDirectories: true)
        try "library = \(folder)\n".write(toFile: home + "/config/interlude/config", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache", "HOME": home]
        let opens = try Self.opens(["library", "scan"], names: Array(expected.keys), environment: environment)
        #expect(opens == expected)
    }
}
