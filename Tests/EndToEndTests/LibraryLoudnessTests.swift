import Foundation
import Testing
import TestSupport

/// `interlude library scan --loudness`: the gains of
/// files whose tags have none are measured (EBU R 128, -18 LUFS) into the
/// index, never into the files; tagged values are read at scan and kept.
@Suite(.enabled(if: InterludeBinary.isAvailable()))
struct LibraryLoudnessTests {
    static func tone(_ path: String, level: Double, seconds: Int = 5) throws {
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", path,
                                        "synth", String(seconds), "sine", "1000", "gain", String(level)])
    }

    static func tagged(_ wav: String, _ flac: String, album: String?, extra: [String] = []) throws {
        var arguments = ["-hide_banner", "-loglevel", "error", "-y", "-i", wav, "-metadata", "title=\((wav as NSString).lastPathComponent)"]
        if let album { arguments += ["-metadata", "album=\(album)"] }
        try ProcessRunner.check("ffmpeg", arguments + extra + [flac])
    }

    /// ffmpeg's integrated loudness of the files played one after the other.
    static func oracle(_ paths: [String]) throws -> Double {
        guard paths.count > 1 else { return try LoudnessCommandTests.oracle(paths[0]) }
        let inputs = paths.flatMap { ["-i", $0] }
        let streams = paths.indices.map { "[\($0):a]" }.joined()
        return try LoudnessCommandTests.integratedLoudness(ffmpeg: inputs + [
            "-filter_complex", "\(streams)concat=n=\(paths.count):v=0:a=1,ebur128[out]", "-map", "[out]", "-f", "null", "-"])
    }

    @Test func scanLoudnessMeasuresUntaggedFilesIntoTheIndexAndKeepsTaggedValues() throws {
        let directory = ScratchFiles.makeDirectory("library-loudness")
        let music = directory + "/music"
        try FileManager.default.createDirectory(atPath: music + "/Album", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: music + "/Singles", withIntermediateDirectories: true)
        let quiet = directory + "/library-quiet.wav", loud = directory + "/library-loud.wav", single = directory + "/library-single.wav"
        try Self.tone(quiet, level: -24)
        try Self.tone(loud, level: -12)
        try Self.tone(single, level: -20)
        let first = music + "/Album/01 quiet.flac", second = music + "/Album/02 loud.flac"
        let alone = music + "/Singles/alone.flac", taggedFile = music + "/Singles/tagged.flac"
        try Self.tagged(quiet, first, album: "Two Levels")
        try Self.tagged(loud, second, album: "Two Levels")
        try Self.tagged(single, alone, album: nil)
        try Self.tagged(single, taggedFile, album: nil, extra: ["-metadata", "REPLAYGAIN_TRACK_GAIN=+6.00 dB",
                                                                 "-metadata", "REPLAYGAIN_TRACK_PEAK=0.500000"])
        let before = try [first, second, alone, taggedFile].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        let environment = try LibraryHome.environment(directory: directory, music: music)

        let scan = try InterludeBinary.run(["library", "scan", "--loudness"], environment: environment)
        #expect(scan.succeeded, "\(scan.summary)")
        // Three measured (the tagged file keeps its tag's values), one album.
        #expect(scan.stdoutText.contains("loudness: 3 files measured, 1 album, 0 failed"), "\(scan.stdoutText)")

        let rows = try LibraryHome.rows(environment: environment)
        func number(_ path: String, _ key: String) -> Double? { (rows[path]?[key] as? NSNumber)?.doubleValue }
        #expect(rows.count == 4, "\(rows)")

        for (path, wav) in [(first, quiet), (second, loud), (alone, single)] {
            let expected = -18 - (try LoudnessCommandTests.oracle(wav))
            let gain = try #require(number(path, "trackGain"), "\(path): \(rows[path] ?? [:])")
            #expect(abs(gain - expected) < 0.1, "\(path): \(gain) dB, expected \(expected) dB")
            let peak = try #require(number(path, "trackPeak"))
            #expect(peak > 0 && peak <= 1.1)
        }
        let album = -18 - (try Self.oracle([quiet, loud]))
        for path in [first, second] {
            let gain = try #require(number(path, "albumGain"), "\(rows[path] ?? [:])")
            #expect(abs(gain - album) < 0.1, "album gain \(gain) dB, expected \(album) dB")
        }
        // No album tag: track values only.
        #expect(number(alone, "albumGain") == nil)
        // The tagger's values, read by the scan, not measured over.
        #expect(number(taggedFile, "trackGain").map { abs($0 - 6) < 0.001 } == true, "\(rows[taggedFile] ?? [:])")
        #expect(number(taggedFile, "trackPeak").map { abs($0 - 0.5) < 0.0001 } == true)

        // Never into the files.
        let after = try [first, second, alone, taggedFile].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before)
        // Playback uses the measured values for the file whose tags have none.
        func render(_ mode: String) throws -> PCMAudio {
            let output = directory + "/render-\(mode).wav"
            let result = try InterludeBinary.play([alone], output: .wav(output), extraArguments: ["--replaygain", mode],
                                                  environment: environment)
            #expect(result.process.succeeded, "\(result.process.summary)")
            return try WAVFile.read(output)
        }
        let stored = try #require(number(alone, "trackGain"))
        let applied = ReplayGainRenderTests.gainDecibels(try render("track"), over: try render("off"))
        #expect(abs(applied - stored) < 0.1, "played at \(applied) dB, the index says \(stored) dB")

        // Nothing left to measure: a second run measures nothing.
        let again = try InterludeBinary.run(["library", "scan", "--loudness"], environment: environment)
        #expect(again.stdoutText.contains("loudness: 0 files measured, 0 albums, 0 failed"), "\(again.stdoutText)")
    }
}
