import AudioDecoding
@testable import AudioEngine
import Foundation
import Testing
import TestSupport

/// When a file's length is known exactly, and when it is only libmpg123's
/// estimate, checked against `mpg123 -w`'s decode.
@Suite struct DecoderLengthTests {
    /// 5 s of silence, then 25 s of noise, as VBR; `headerless` without the
    /// Xing/Info frame and LAME tag (`lame -t`).
    static func silenceThenNoise(headerless: Bool) throws -> String {
        try Fixtures.silenceThenNoiseVBR(silence: 5, noise: 25, headerless: headerless)
    }

    @Test func aVBRFileWithoutAHeaderIsNotExactUntilScanned() throws {
        let mp3 = try Self.silenceThenNoise(headerless: true)
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let decoder = try Decoders.open(path: mp3)
        // The estimate comes from the first (silent, smallest) frame's bitrate: far off.
        #expect(!decoder.lengthIsExact)
        let estimate = try #require(decoder.lengthInFrames)
        #expect(abs(estimate - decoded.frameCount) > 44100, "estimate \(estimate), decoded \(decoded.frameCount)")
        try decoder.scan()
        #expect(decoder.lengthIsExact)
        // Without a LAME tag nothing trims the decoder delay: mpg123 -w keeps it too.
        #expect(decoder.lengthInFrames == decoded.frameCount)
    }

    /// The queue keeps a headerless file's estimate for progress and seek
    /// limits, but does not take it as a promise: decoding less than it is
    /// no sign of a cut-short file (no `truncated` event).
    @Test func theQueueMarksAnEstimatedLengthAndRaisesNoTruncationOnIt() throws {
        let headerless = try Self.silenceThenNoise(headerless: true)
        let tagged = try Self.silenceThenNoise(headerless: false)
        let feeder = TrackFeeder(paths: [headerless, tagged])
        #expect(feeder.openFirst() != nil)
        #expect(feeder.tracks.first?.expectedIsExact == false)
        #expect(feeder.tracks.first?.expectedFrames != nil)
        let ring = SPSCRing(minimumCapacity: 1 << 16, slotBytes: 4)
        while feeder.tracks.count < 2 {
            #expect(feeder.fill(ring.producer) > 0 || feeder.tracks.count == 2)
            _ = ring.consumer.discardAll()
        }
        #expect(feeder.tracks.last?.expectedIsExact == true)
        let truncated = feeder.takeEvents().filter { if case .truncated = $0 { true } else { false } }
        #expect(truncated.isEmpty)
    }

    @Test func aFileWithALAMETagIsExactFromItsHeader() throws {
        let mp3 = try Self.silenceThenNoise(headerless: false)
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let decoder = try Decoders.open(path: mp3)
        #expect(decoder.lengthIsExact)
        #expect(decoder.lengthInFrames == decoded.frameCount)
    }
}
