import Foundation
import Testing
import TestSupport

/// Files that cannot be played get one clear line each, and the rest still play.
@Suite struct BadInputTests {
    @Test func eachBadFileGetsOneLineAndTheGoodFilesStillPlay() throws {
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let bad = try Fixtures.BrokenInput.allCases.map { try Fixtures.broken($0) }
        let output = ScratchFiles.makeDirectory("bad") + "/out.wav"
        let result = try InterludeBinary.play(bad + [good], output: .wav(output), timeout: 60)
        #expect(result.process.exitStatus == 0, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n").map(String.init)
        for path in bad {
            let mentions = lines.filter { $0.contains(path) }
            #expect(mentions.count == 1, "\(path): \(mentions)")
        }
        // The truncated file plays what it has; every other bad one is skipped.
        let started = result.events.named("trackStarted").compactMap(\.path)
        #expect(started == [try Fixtures.broken(.truncated), good])
        #expect(result.events.named("error").count == bad.count)
    }

    @Test func nothingPlayableExitsNonZero() throws {
        let bad = try [Fixtures.BrokenInput.empty, .randomBytes, .image, .directory, .missing]
            .map { try Fixtures.broken($0) }
        let result = try InterludeBinary.play(bad, output: .null, timeout: 60)
        #expect(result.process.exitStatus == 1, "\(result.process.summary)")
        #expect(result.events.named("trackStarted").isEmpty)
        #expect(result.process.stderrText.contains("nothing to play"))
    }

    @Test func eachKindOfBadInputIsNamedWithAReason() throws {
        let expectations: [(Fixtures.BrokenInput, String)] = [
            (.empty, "empty file"), (.randomBytes, "not an MP3 file"), (.image, "a PNG image, not an MP3 file"),
            (.directory, "is a directory"), (.missing, "no such file"), (.truncated, "truncated"),
        ]
        for (kind, reason) in expectations {
            let path = try Fixtures.broken(kind)
            let result = try InterludeBinary.play([path], output: .null, timeout: 60)
            let stderr = result.process.stderrText
            #expect(stderr.contains(path) && stderr.contains(reason), "\(kind): \(stderr)")
        }
    }

    @Test func anUnknownDeviceFailsWithAClearMessageAndNoHang() throws {
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let result = try InterludeBinary.play([good], output: .device("no_such_device_xyz"), timeout: 20)
        #expect(!result.process.timedOut)
        #expect(result.process.exitStatus == 1)
        let stderr = result.process.stderrText
        #expect(stderr.contains("no_such_device_xyz"), "\(stderr)")
        #expect(stderr.contains("--device") && stderr.contains("--output"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    }

    @Test func aWAVFileThatCannotBeWrittenIsReportedAndTheExitIsNonZero() throws {
        let good = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        // /dev/full accepts the open and fails every write with ENOSPC.
        let result = try InterludeBinary.play([good], output: .wav("/dev/full"), timeout: 30)
        #expect(result.process.exitStatus == 1, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("/dev/full") && lines[0].contains("no space left"),
                "\(result.process.stderrText)")
    }
}
