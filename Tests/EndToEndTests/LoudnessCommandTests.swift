import Foundation
import Testing
import TestSupport

/// `interlude loudness`: EBU R 128 through libebur128 on
/// files of known loudness, with ffmpeg's ebur128 filter as the oracle.
@Suite struct LoudnessCommandTests {
    /// ffmpeg's integrated loudness (its summary's `I:` line), LUFS.
    static func oracle(_ path: String) throws -> Double {
        try integratedLoudness(ffmpeg: ["-i", path, "-af", "ebur128", "-f", "null", "-"])
    }

    /// The `I:` value of the ebur128 filter's summary for an ffmpeg run with these arguments.
    static func integratedLoudness(ffmpeg arguments: [String]) throws -> Double {
        let result = try ProcessRunner.run("ffmpeg", ["-hide_banner", "-nostats"] + arguments)
        let lines = result.stderrText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let summary = try #require(lines.lastIndex { $0.hasPrefix("Integrated loudness:") }, "\(result.stderrText)")
        let integrated = try #require(lines[summary...].first { $0.hasPrefix("I:") })
        return try #require(Double(integrated.dropFirst(2).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]))
    }

    static func measured(_ paths: [String], extra: [String] = []) throws -> (lines: [JSONValueLine], result: ProcessResult) {
        let result = try InterludeBinary.run(["loudness"] + paths + ["--json"] + extra)
        let lines = result.stdoutText.split(separator: "\n").map { JSONValueLine(String($0)) }
        return (lines, result)
    }

    struct JSONValueLine {
        let object: [String: Any]
        init(_ text: String) {
            object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    }

    @Test("a sox tone's gain to -18 LUFS is within 0.1 dB of ffmpeg's measurement; its peaks are the tone's",
          arguments: [("wav", -20.0), ("mp3", -12.0), ("flac", -28.0)])
    func toneOfKnownLoudness(format: String, level: Double) throws {
        let directory = ScratchFiles.makeDirectory("loudness")
        // Named for its content: `Fixtures.encode` caches MP3s by the WAV's name.
        let wav = directory + "/loudness-tone-1000-\(Int(-level))dB.wav"
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                        "synth", "5", "sine", "1000", "gain", String(level)])
        let file: String
        switch format {
        case "mp3": file = try Fixtures.encode(wav)
        case "flac":
            file = directory + "/tone.flac"
            try ProcessRunner.check("flac", ["--silent", "-f", "-o", file, wav])
        default: file = wav
        }
        let expected = try Self.oracle(file)
        let (lines, result) = try Self.measured([file])
        #expect(result.succeeded, "\(result.summary)")
        let line = try #require(lines.first)
        let loudness = try #require(line.number("loudness"))
        let gain = try #require(line.number("gain"))
        #expect(abs(loudness - expected) < 0.1, "\(format): \(loudness) LUFS, ffmpeg \(expected) LUFS")
        #expect(abs(gain - (-18 - expected)) < 0.1, "\(format): gain \(gain) dB")
        // A sine at `level` dBFS peaks at that level; the true peak is at least the sample peak.
        let samplePeak = try #require(line.number("samplePeak"))
        let truePeak = try #require(line.number("truePeak"))
        // (MP3's lossy coding overshoots the source's peak by a few tenths of a dB.)
        let tolerance = format == "mp3" ? 0.6 : 0.2
        #expect(abs(20 * log10(samplePeak) - level) < tolerance, "sample peak \(samplePeak)")
        #expect(truePeak >= samplePeak && 20 * log10(truePeak) - level < tolerance + 0.1, "true peak \(truePeak)")
    }

    @Test("a file that cannot be measured is one line on stderr, the others are measured, the album too; exit 1")
    func badFileAndAlbum() throws {
        let directory = ScratchFiles.makeDirectory("loudness")
        let quiet = directory + "/quiet.wav", loud = directory + "/loud.wav"
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", quiet, "synth", "4", "sine", "440", "gain", "-30"])
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", loud, "synth", "4", "sine", "440", "gain", "-10"])
        let missing = directory + "/missing.mp3"
        let before = try Data(contentsOf: URL(fileURLWithPath: loud))
        let (lines, result) = try Self.measured([quiet, missing, loud], extra: ["--album"])
        #expect(result.exitStatus == 1)
        let errors = result.stderrText.split(separator: "\n")
        #expect(errors.count == 1 && errors[0].contains(missing), "\(result.stderrText)")
        #expect(lines.count == 3)
        // The album is gated as one programme: the quiet file's blocks are more than
        // 10 LU under the loud one's and fall under the relative gate, so the album
        // is as loud as the loud file (an average of the two files' values would be 10 dB quieter).
        let album = try #require(lines.last)
        #expect(album.object["album"] as? Bool == true)
        #expect(abs((album.number("loudness") ?? 0) - (try Self.oracle(loud))) < 0.1)
        // Measured, never written.
        #expect(try Data(contentsOf: URL(fileURLWithPath: loud)) == before)
    }
}
