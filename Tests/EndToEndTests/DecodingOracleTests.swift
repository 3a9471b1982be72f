import Foundation
import Testing
import TestSupport

/// The WAV sink against the decoding oracle, `mpg123 -w`: sample for sample.
@Suite struct DecodingOracleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rate: Int
        let channels: Int
        let encoding: Fixtures.Encoding
        var testDescription: String { "\(rate) Hz \(channels) ch \(encoding)" }
    }

    static let cases = [
        Case(rate: 44100, channels: 2, encoding: .cbr(kbps: 128)),
        Case(rate: 48000, channels: 2, encoding: .vbr(quality: 2)),
        Case(rate: 22050, channels: 1, encoding: .cbr(kbps: 64)),
        Case(rate: 8000, channels: 1, encoding: .cbr(kbps: 32)),
    ]

    @Test(arguments: cases)
    func wavSinkIsSampleIdenticalToMpg123(_ fixture: Case) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 4, sampleRate: fixture.rate, channels: fixture.channels,
                                   encoding: fixture.encoding)
        let expected = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let output = ScratchFiles.makeDirectory("oracle") + "/out.wav"
        let result = try InterludeBinary.play([mp3], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        #expect(actual.sampleRate == fixture.rate)
        #expect(actual.channels == fixture.channels)
        #expect(actual.frameCount > fixture.rate * 3)
        let difference = SignalAnalysis.firstDifference(expected: expected, actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
    }

    @Test func twoFilesCutFromOneToneJoinWithoutAGap() throws {
        let pair = try Fixtures.gaplessPair(.tone(frequency: 440), firstSeconds: 2.3, secondSeconds: 1.7)
        let first = try WAVFile.read(Fixtures.decodedByMPG123(pair.first))
        let second = try WAVFile.read(Fixtures.decodedByMPG123(pair.second))
        let output = ScratchFiles.makeDirectory("gapless") + "/out.wav"
        let result = try InterludeBinary.play([pair.first, pair.second], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        let difference = SignalAnalysis.firstDifference(expected: first.appending(second), actual: actual)
        #expect(difference == nil, "\(String(describing: difference))")
        // The events follow the listener: the first ends before the second starts.
        let names = result.events.events.map(\.event)
        #expect(names == ["trackStarted", "trackEnded", "trackStarted", "trackEnded", "finished", "summary"])
        #expect(result.events.named("trackStarted").map(\.path) == [pair.first, pair.second])
    }

    @Test func aQueueOfMixedRatesAndChannelsPlaysInTheFirstFilesFormat() throws {
        let stereo = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let mono = try Fixtures.mp3(.sweep, seconds: 2, sampleRate: 22050, channels: 1, encoding: .cbr(kbps: 64))
        let output = ScratchFiles.makeDirectory("mixed") + "/out.wav"
        let result = try InterludeBinary.play([stereo, mono], output: .wav(output))
        #expect(result.process.succeeded, "\(result.process.summary)")
        let actual = try WAVFile.read(output)
        #expect(actual.sampleRate == 44100 && actual.channels == 2)
        // Both files, the second converted to 44.1 kHz stereo: about 4 s in all.
        #expect(abs(actual.durationSeconds - 4.0) < 0.05, "\(actual.durationSeconds) s")
        // The converted second half still carries the second file's content.
        let reference = try WAVFile.read(Fixtures.resampled(Fixtures.decodedByMPG123(mono), sampleRate: 44100,
                                                            channels: 2))
        let secondHalf = actual.frames(88200..<actual.frameCount)
        let alignment = SignalAnalysis.align(reference: reference, signal: secondHalf)
        #expect(alignment.correlation > 0.95, "\(alignment)")
        #expect(abs(alignment.lag) < 441, "\(alignment)")
    }
}
