@testable import AudioDecoding
import BookFormat
import Foundation
import Testing
import TestSupport

/// The one tag type (`AudioTags`) filled the same way from every format:
/// the same fields and front cover written by mutagen into MP3 (ID3v2.3 and
/// 2.4), FLAC, M4A, Ogg Vorbis and Opus, read by the decoder that opens each
/// file (`Decoder.tags`) and by `AudioTags.read` without one (the browser).
@Suite struct AudioTagsFormatTests {
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case id3v23, id3v24, flac, mp4, ogg, opus
        var description: String { rawValue }
        /// ID3v2.3 has no lists, and MP4's ©ART holds one artist.
        var artists: [String] { self == .id3v23 || self == .mp4 ? ["Mary Shelley"] : ["Mary Shelley", "Percy Shelley"] }
        /// mutagen writes ID3v2.3's date as TYER (the year) and TDAT (day and
        /// month), which read as one date, as mutagen reads them back.
        var date: String { "1818-01-01" }
    }

    /// 20 kB, so the picture lies past the first 4 KB the decoders read.
    static let cover: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

    static func tagged(_ kind: Kind) throws -> String {
        let directory = ScratchFiles.makeDirectory("audio-tags-\(kind)")
        let wav = try Fixtures.wav(.sweep, seconds: 1, sampleRate: 44100, channels: 2)
        let source: String = switch kind {
        case .id3v23, .id3v24: try Fixtures.mp3(.sweep, seconds: 1, encoding: .cbr(kbps: 128))
        case .flac: try Fixtures.encode(wav, as: .flac16)
        case .mp4: try Fixtures.encode(wav, as: .aac)
        case .ogg: try Fixtures.encode(wav, as: .vorbis)
        case .opus: try Fixtures.encode(wav, as: .opus)
        }
        let path = directory + "/tagged." + (source as NSString).pathExtension
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let coverPath = directory + "/cover.jpg"
        try Data(cover).write(to: URL(fileURLWithPath: coverPath))
        let root = InterludeBinary.packageRoot
        try ProcessRunner.check("python3", [root + "/Tests/Fixtures/write_tags.py", kind.rawValue, path, coverPath],
                                environment: ["PYTHONPATH": root + "/build/python"])
        return path
    }

    static func expectFields(_ tags: AudioTags, _ kind: Kind, path: String, by reader: String) {
        let context = Comment(rawValue: "\(kind) by \(reader): \(tags)")
        #expect(tags.title == "Chapter Eleven — 第十一章", context)
        #expect(tags.artists == kind.artists, context)
        #expect(tags.album == "Frankenstein", context)
        #expect(tags.albumArtist == "Read by Someone", context)
        #expect(tags.track == AudioTags.Position(number: 3, total: 12), context)
        #expect(tags.disc == AudioTags.Position(number: 1, total: 2), context)
        #expect(tags.date == kind.date && tags.year == 1818, context)
        #expect(tags.genres == ["Gothic"], context)
        #expect(tags.replayGain.trackGain == -6.5 && tags.replayGain.trackPeak == 0.5, context)
        #expect(tags.pictures.count == 1, context)
        let cover = tags.cover
        #expect(cover?.kind == .frontCover && cover?.mimeType == "image/jpeg" && cover?.length == Self.cover.count, context)
        // The reference reads back exactly the bytes mutagen embedded.
        #expect(cover?.bytes(path: path) == Self.cover, context)
    }

    @Test(arguments: Kind.allCases)
    func everyFormatFillsTheSameFieldsAndCoverReference(kind: Kind) throws {
        let path = try Self.tagged(kind)
        let decoder = try Decoders.open(path: path)
        defer { decoder.close() }
        Self.expectFields(decoder.tags, kind, path: path, by: "its decoder")
        Self.expectFields(AudioTags.read(path: path), kind, path: path, by: "AudioTags.read")
    }

    /// FLAC's PICTURE block, MP4's `covr` and an ID3v2.4 APIC are stored as
    /// they are: the reference is the bytes' place in the file, not a copy.
    @Test(arguments: [Kind.id3v24, .flac, .mp4])
    func storedPicturesAreRangesOfTheFile(kind: Kind) throws {
        let path = try Self.tagged(kind)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let cover = try #require(AudioTags.read(path: path).cover)
        guard case .range(let offset, let length) = cover.location else {
            Issue.record("\(kind): \(cover.location)")
            return
        }
        #expect(offset >= 0 && offset + length <= bytes.count)
        #expect(Array(bytes[offset..<min(bytes.count, offset + length)]) == Self.cover, "\(kind) at \(offset)")
    }

    /// Numbers out of range are dropped, never carried into arithmetic.
    @Test func outOfRangeNumbersAreDropped() {
        #expect(AudioTags.Position("3/12") == AudioTags.Position(number: 3, total: 12))
        #expect(AudioTags.Position(" 03 / 12 ")?.description == "3/12")
        #expect(AudioTags.Position("99999999999999999999999/2") == AudioTags.Position(number: nil, total: 2))
        #expect(AudioTags.Position("0/0") == nil)
        #expect(AudioTags.Position("x") == nil)
        #expect(AudioTags.Position(number: -1, total: Int.max) == nil)
        #expect(AudioTags.year(of: "2004-05-01") == 2004)
        #expect(AudioTags.year(of: "04") == nil)
        #expect(AudioTags.year(of: "0000") == nil)
        #expect(AudioTags.chapterTime("99999999999999999999:00:00.000") == nil)
        #expect(ReplayGainInfo.decibels("-1e308 dB") == nil)
        #expect(ReplayGainInfo(fields: [("REPLAYGAIN_TRACK_GAIN", "9999999 dB")]).trackGain == nil)
    }
}
