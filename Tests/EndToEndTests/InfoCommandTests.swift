import Foundation
import Testing
import TestSupport

@Suite struct InfoCommandTests {
    @Test func infoReportsFormatExactDurationBitrateAndTags() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 48000, channels: 2)
        let mp3 = ScratchFiles.makeDirectory("info") + "/tagged.mp3"
        try ProcessRunner.check("lame", ["--quiet", "-b", "192", "--cbr", "--tt", "Überschrift 歌", "--ta", "Artist",
                                         "--tl", "Album", "--ty", "2024", wav, mp3])
        let result = try InterludeBinary.run(["info", mp3, "--json"])
        #expect(result.succeeded, "\(result.summary)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(object?["sampleRate"] as? Int == 48000)
        #expect(object?["channels"] as? Int == 2)
        #expect(object?["bitrate"] as? Int == 192)
        #expect(object?["bitrateMode"] as? String == "cbr")
        // LAME's gapless header makes the length exact: 3 s at 48 kHz.
        #expect(object?["frames"] as? Int == 144000)
        let tags = object?["tags"] as? [String: Any]
        #expect(tags?["title"] as? String == "Überschrift 歌")
        #expect(tags?["artist"] as? String == "Artist")
        #expect(tags?["album"] as? String == "Album")
        #expect(tags?["date"] as? String == "2024")
        #expect(tags?["year"] as? Int == 2024)
        #expect(tags?["artists"] as? [String] == ["Artist"])

        let text = try InterludeBinary.run(["info", mp3]).stdoutText
        #expect(text.contains("48000 Hz stereo"))
        #expect(text.contains("0:03"))
    }

    @Test func infoOnABadFileNamesItAndFails() throws {
        let path = try Fixtures.broken(.randomBytes)
        let result = try InterludeBinary.run(["info", path])
        #expect(result.exitStatus == 1)
        #expect(result.stderrText.contains(path))
    }

    @Test func infoListsTheChaptersOfAChapteredMP3() throws {
        let tone = try Fixtures.mp3(.sweep, seconds: 5, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let directory = ScratchFiles.makeDirectory("chaptered")
        let output = "\(directory)/book.mp3"
        let spec: [[String: Any]] = [[
            "source": tone, "output": output, "version": 4, "encoding": 3, "toc": true,
            "chapters": [
                ["id": "ch0", "title": "Prologue", "start": 0, "end": 1500],
                ["id": "ch1", "title": "Chapter 1 — Ünïcödé 章", "start": 1500, "end": 3250],
                ["id": "ch2", "title": "Epilogue", "start": 3250, "end": 5000],
            ],
        ]]
        let specPath = "\(directory)/spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specPath))
        // mutagen, a tool we did not write, writes the tag (installed by `make test`).
        let root = InterludeBinary.packageRoot
        try ProcessRunner.check("python3", ["\(root)/Tests/Fixtures/write_chapters.py", specPath],
                                environment: ["PYTHONPATH": "\(root)/build/python"])
        let result = try InterludeBinary.run(["info", output, "--json"])
        #expect(result.succeeded, "\(result.summary)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let chapters = try #require(object?["chapters"] as? [[String: Any]])
        #expect(chapters.compactMap { $0["title"] as? String } == ["Prologue", "Chapter 1 — Ünïcödé 章", "Epilogue"])
        #expect(chapters.compactMap { $0["start"] as? Double } == [0, 1.5, 3.25])
        #expect(chapters.compactMap { $0["end"] as? Double } == [1.5, 3.25, 5])
        let text = try InterludeBinary.run(["info", output]).stdoutText
        #expect(text.contains("chapters:  3"))
        #expect(text.contains("0:01-0:03  Chapter 1 — Ünïcödé 章"))
    }
}
