import LibraryIO
import AudioEngine
import AudioDecoding
import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import Interlude

/// The scan's fast path (an ID3v2 tag, then MPEG audio: length from the first
/// frame, no decoder) against libmpg123's decode of the same files.
@Suite struct TrackReaderTests {
    static func tagged(_ mp3: String) throws -> String {
        let directory = ScratchFiles.makeDirectory("track-reader")
        let generator = LibraryTreeGenerator(root: directory, fileCount: 1)
        let entry = generator.entry(0)
        let path = directory + "/tagged.mp3"
        let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mp3)))
        try Data(generator.tag(entry, encoding: 1) + audio).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func decodedSeconds(_ path: String) throws -> Double {
        let decoder = try Decoders.open(path: path)
        try decoder.scan()
        return decoder.format.seconds(forFrames: decoder.lengthInFrames ?? 0)
    }

    @Test(arguments: [Fixtures.Encoding.cbr(kbps: 128), .vbr(quality: 4), .cbr(kbps: 32)])
    func lengthFromTheInfoFrameMatchesTheGaplessDecode(encoding: Fixtures.Encoding) throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 7.3, sampleRate: encoding == .cbr(kbps: 32) ? 22050 : 44100,
                                   channels: 2, encoding: encoding)
        let path = try Self.tagged(mp3)
        var info = stat()
        #expect(stat(path, &info) == 0)
        let stamp = ScanDiff.Stamp(size: Int64(info.st_size), modifiedNanoseconds: 0)
        let track = try #require(TrackReader.readMP3WithTag(path: path, stamp: stamp))
        // Within one sample: both remove LAME's delay and padding.
        let decoded = try Self.decodedSeconds(path)
        #expect(abs((track.durationSeconds ?? 0) - decoded) < 0.0001, "\(track.durationSeconds ?? -1) s, decoded \(decoded) s")
        #expect(track.title == LibraryTreeGenerator(root: "", fileCount: 1).entry(0).title)
        #expect(track.format == "mp3")
        // The rate and channels the decoder finds (LAME may resample a low bitrate's input).
        let decoder = try Decoders.open(path: path)
        #expect(track.sampleRate == decoder.sourceFormat.rate && track.channels == decoder.sourceFormat.channels,
                "\(track.sampleRate ?? 0)/\(track.channels ?? 0), decoded \(decoder.sourceFormat)")
        decoder.close()
    }

    @Test func withoutAnInfoFrameTheLengthIsTheConstantBitrateEstimate() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 6, sampleRate: 44100, channels: 2)
        let path = try Self.tagged(try Fixtures.encodeWithoutInfoFrame(wav, kbps: 128))
        var info = stat()
        #expect(stat(path, &info) == 0)
        let track = try #require(TrackReader.readMP3WithTag(path: path, stamp: ScanDiff.Stamp(size: Int64(info.st_size), modifiedNanoseconds: 0)))
        let decoded = try Self.decodedSeconds(path)
        // No count in the stream: the estimate is off by the encoder's delay and last frame at most.
        #expect(abs((track.durationSeconds ?? 0) - decoded) < 0.06, "\(track.durationSeconds ?? -1) s, decoded \(decoded) s")
    }

    @Test func otherFilesGoToTheDecoder() throws {
        let flac = try Fixtures.encode(try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2), as: .flac16)
        #expect(TrackReader.readMP3WithTag(path: flac, stamp: ScanDiff.Stamp(size: 1, modifiedNanoseconds: 0)) == nil)
        let untagged = try Fixtures.mp3(.sweep, seconds: 1, encoding: .cbr(kbps: 128))
        #expect(TrackReader.readMP3WithTag(path: untagged, stamp: ScanDiff.Stamp(size: 1, modifiedNanoseconds: 0)) == nil)
        let track = try TrackReader.read(path: flac, stamp: ScanDiff.Stamp(size: 1, modifiedNanoseconds: 0))
        #expect(track.format == "flac")
        #expect(track.sampleRate == 44100 && track.channels == 2)
        #expect(abs((track.durationSeconds ?? 0) - 1) < 0.01)
    }
}
