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
        #expect(tags?["year"] as? String == "2024")

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
}
