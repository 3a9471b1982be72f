import Foundation
import Testing
import TestSupport

@Suite struct FixturesTests {
    @Test(arguments: [
        (44100, 2, Fixtures.Encoding.cbr(kbps: 128)),
        (48000, 2, Fixtures.Encoding.vbr(quality: 2)),
        (22050, 1, Fixtures.Encoding.cbr(kbps: 64)),
        (8000, 1, Fixtures.Encoding.cbr(kbps: 32)),
    ])
    func mp3DecodesToTheRequestedFormat(sampleRate: Int, channels: Int, encoding: Fixtures.Encoding) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: sampleRate, channels: channels, encoding: encoding)
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        #expect(decoded.sampleRate == sampleRate && decoded.channels == channels)
        // Gapless decoding gives back the source length exactly.
        #expect(decoded.frameCount == 2 * sampleRate)
        // Asking again returns the cached file.
        #expect(try Fixtures.mp3(.sweep, seconds: 2, sampleRate: sampleRate, channels: channels, encoding: encoding) == mp3)
    }

    @Test func gaplessPairDecodesBackToTheUncutSource() throws {
        let pair = try Fixtures.gaplessPair(.sweep, firstSeconds: 1.5, secondSeconds: 2)
        let first = try WAVFile.read(Fixtures.decodedByMPG123(pair.first))
        let second = try WAVFile.read(Fixtures.decodedByMPG123(pair.second))
        let source = try WAVFile.read(pair.source)
        #expect(first.frameCount == 66150 && second.frameCount == 88200)
        let joined = first.appending(second)
        #expect(SignalAnalysis.align(reference: source, signal: joined).lag == 0)
        #expect(SignalAnalysis.correlation(reference: source, signal: joined, lag: 0) > 0.99)
    }

    @Test func speechAndMusicHaveTheRequestedLength() throws {
        let speech = try WAVFile.read(Fixtures.wav(.speech(text: "Chapter one."), seconds: 4, sampleRate: 44100, channels: 2))
        #expect(speech.frameCount == 4 * 44100)
        #expect(SignalAnalysis.rms(speech) > 0.01)
        let music = try WAVFile.read(Fixtures.wav(.music, seconds: 2.5, sampleRate: 48000, channels: 2))
        #expect(music.frameCount == 120_000)
    }

    @Test func brokenInputsAreWhatTheySay() throws {
        let manager = FileManager.default
        #expect(!manager.fileExists(atPath: try Fixtures.broken(.missing)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: Fixtures.broken(.empty))).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: Fixtures.broken(.randomBytes))).count == 65_536)
        let png = try Data(contentsOf: URL(fileURLWithPath: Fixtures.broken(.image)))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        var isDirectory: ObjCBool = false
        #expect(manager.fileExists(atPath: try Fixtures.broken(.directory), isDirectory: &isDirectory) && isDirectory.boolValue)
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.mp3(.sweep, seconds: 3)))
        let truncated = try Data(contentsOf: URL(fileURLWithPath: Fixtures.broken(.truncated)))
        #expect(truncated.count < whole.count && whole.starts(with: truncated))
    }
}
