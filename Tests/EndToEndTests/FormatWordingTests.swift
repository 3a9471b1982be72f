import Foundation
import BookFormat
import Testing
import TestSupport

/// Messages name every format where every format is meant, as a
/// new user with only FLAC (or M4B) files meets them.
struct FormatWordingTests {
    @Test("a folder of FLAC files, a folder with no audio, a text file named .flac and --help: no message says MP3")
    func flacOnlyMessagesSayNoMP3() throws {
        let flac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1), as: .flac16)
        let folder = ScratchFiles.makeDirectory("flac-only")
        for name in ["one.flac", "two.flac"] { try FileManager.default.copyItem(atPath: flac, toPath: folder + "/" + name) }
        let noAudio = ScratchFiles.makeDirectory("no-audio")
        try "notes".write(toFile: noAudio + "/notes.txt", atomically: true, encoding: .utf8)
        let text = folder + "/notes.flac"
        try "not audio at all".write(toFile: text, atomically: true, encoding: .utf8)
        let notes = noAudio + "/notes.txt"

        let runs: [(arguments: [String], says: String)] = [
            (["play", "--output", "null", "--sleep", "5", folder + "/one.flac", folder + "/two.flac"], "need a book"),
            (["play", "--output", "null", "--book", noAudio], "holds no audio files"),
            (["play", "--output", "null", text], "not a playable FLAC file"),
            (["play", "--output", "null", notes], "not an audio file any decoder takes"),
        ]
        for run in runs {
            let result = try InterludeBinary.run(run.arguments, timeout: 60)
            #expect(result.stderrText.contains(run.says), "\(run.arguments): \(result.stderrText)")
            // MP3 named only beside every other format, never as what was meant.
            let others = result.stderrText.replacingOccurrences(of: AudioFileNames.formatList, with: "")
            #expect(!others.contains("MP3"), "\(run.arguments): \(result.stderrText)")
        }
        for help in [["play", "--help"], ["--help"], ["--help-player"], ["bookmark", "--help"], ["alarm", "--help"]] {
            let result = try InterludeBinary.run(help, timeout: 30)
            let output = result.stdoutText + result.stderrText
            #expect(!output.contains("MP3 files") && !output.contains("an MP3\n") && !output.contains("of an MP3"), "\(help): \(output)")
        }
    }
}
