@testable import AudioDecoding
import Foundation
import Testing
import TestSupport

/// What the `Decoder` contract promises beyond reading and seeking (which
/// `DecodingOracleTests` and `SeekAccuracyTests` check against `mpg123 -w`):
/// the gapless trim a stream declares, the codec described in plain values,
/// and the first bytes `Decoders.open` shows the implementations.
@Suite struct DecoderContractTests {
    /// LAME encodes whole MPEG frames of 1152 samples: its delay, the audio and
    /// its padding fill them exactly, so the declared trim and the exact length
    /// (the decode with the trim removed, `mpg123 -w`'s too) add up to them.
    @Test func aLAMETaggedFileDeclaresTheTrimItsDecodeLeavesOut() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 5, encoding: .cbr(kbps: 128))
        let decoded = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let decoder = try Decoders.open(path: mp3)
        let trim = try #require(decoder.gaplessTrim)
        #expect(trim.encoderDelay > 0 && trim.padding > 0, "\(trim)")
        #expect((trim.encoderDelay + decoded.frameCount + trim.padding) % 1152 == 0,
                "delay \(trim.encoderDelay) + \(decoded.frameCount) frames + padding \(trim.padding)")
        #expect(decoder.lengthInFrames == decoded.frameCount)
    }

    @Test func aFileWithoutInfoFrameDeclaresNoTrim() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 44100, channels: 1)
        let decoder = try Decoders.open(path: Fixtures.encodeWithoutInfoFrame(wav, kbps: 64))
        #expect(decoder.gaplessTrim == nil)
        #expect(!decoder.lengthIsExact)
    }

    @Test(arguments: [
        (44100, 2, Fixtures.Encoding.cbr(kbps: 128), StreamInfo.MPEGVersion.mpeg1, 128, StreamInfo.BitrateMode.constant),
        (22050, 1, .cbr(kbps: 64), .mpeg2, 64, .constant),
        (8000, 1, .cbr(kbps: 16), .mpeg25, 16, .constant),
    ])
    func streamInfoNamesTheMPEGVersionLayerAndBitrate(rate: Int, channels: Int, encoding: Fixtures.Encoding,
                                                      version: StreamInfo.MPEGVersion, kbps: Int,
                                                      mode: StreamInfo.BitrateMode) throws {
        let decoder = try Decoders.open(path: Fixtures.mp3(.sweep, seconds: 2, sampleRate: rate, channels: channels,
                                                           encoding: encoding))
        #expect(decoder.streamInfo == StreamInfo(codec: .mpegAudio(version: version, layer: 3), bitrateKbps: kbps,
                                                 bitrateMode: mode))
        #expect(decoder.sourceFormat == AudioFormat(rate: rate, channels: channels))
    }

    @Test func aVBRFileSaysSo() throws {
        let decoder = try Decoders.open(path: Fixtures.mp3(.sweep, seconds: 2, encoding: .vbr(quality: 4)))
        #expect(decoder.streamInfo.bitrateMode == .variable)
    }

    @Test func theFileHeadHoldsTheFirstBytesAndNoMore() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 2)
        let contents = try #require(FileManager.default.contents(atPath: mp3))
        #expect(contents.count > FileHead.capacity)
        #expect(try FileHead(path: mp3).bytes == Array(contents.prefix(FileHead.capacity)))

        let short = Fixtures.directory + "/decoder-head-short.bin"
        #expect(FileManager.default.createFile(atPath: short, contents: Data("ID3short".utf8)))
        defer { unlink(short) }
        #expect(try FileHead(path: short).bytes == Array("ID3short".utf8))
    }

    @Test(arguments: [(Fixtures.BrokenInput.missing, DecoderError.Kind.missing), (.directory, .directory), (.empty, .empty)])
    func openingRejectsWhatNoDecoderIsAsked(input: Fixtures.BrokenInput, kind: DecoderError.Kind) throws {
        let path = try Fixtures.broken(input)
        #expect {
            _ = try Decoders.open(path: path)
        } throws: { error in
            (error as? DecoderError)?.kind == kind
        }
    }
}
