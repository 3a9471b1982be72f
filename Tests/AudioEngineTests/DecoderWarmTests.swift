@testable import AudioDecoding
import Foundation
import Testing
import TestSupport

/// The library a queue's next file needs, named as `Decoders.open` would
/// choose its decoder, so that it is loaded before the file's turn
/// (`Decoders.warm`): FFmpeg's for what libFLAC and libmpg123 do not take.
@Suite struct DecoderWarmTests {
    static let cd = AudioFormat(rate: 44100, channels: 2)

    static func library(_ path: String, target: AudioFormat?) throws -> Decoders.LoadedLibrary? {
        Decoders.library(path: path, head: try FileHead(path: path), target: target)
    }

    @Test func eachFileNamesTheLibraryItsDecoderOpensWith() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let flac44 = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2), as: .flac16)
        let flac48 = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 48000, channels: 2), as: .flac16)
        let opus = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 48000, channels: 1), as: .opus)
        let aac = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2), as: .aac)
        #expect(try Self.library(mp3, target: Self.cd) == nil, "libmpg123 is linked: nothing to load")
        #expect(try Self.library(flac44, target: Self.cd) == .flac)
        #expect(try Self.library(flac44, target: nil) == .flac)
        // A FLAC that must be resampled for the queue goes to FFmpeg's libswresample.
        #expect(try Self.library(flac48, target: Self.cd) == .ffmpeg)
        #expect(try Self.library(opus, target: Self.cd) == .ffmpeg)
        #expect(try Self.library(aac, target: Self.cd) == .ffmpeg)
        // Plainly not audio: no decoder is asked, nothing loaded for it.
        let text = ScratchFiles.makeDirectory("warm") + "/notes.mp3"
        try "<html><body>not audio</body></html>\n".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(try Self.library(text, target: Self.cd) == nil)
    }

    /// The warmed open leaves nothing behind: the file opens and decodes on
    /// this thread afterwards as if never warmed.
    @Test func aWarmedFileOpensAsBefore() throws {
        let opus = try Fixtures.encode(Fixtures.wav(.sweep, seconds: 1, sampleRate: 48000, channels: 1), as: .opus)
        Decoders.warm(path: opus, target: Self.cd)
        let decoder = try Decoders.open(path: opus, target: Self.cd)
        #expect(decoder.format == Self.cd)
    }
}
