import InterludeCore
import AudioDecoding
import Foundation
import Testing
import TestSupport

/// Exact seeks beyond MP3 (the 3-hour file and the timings are `make
/// bench`'s): a seek in a file FFmpeg's libraries decode lands on the
/// exact sample. The frames after each of 26 seeks equal those at the same
/// position of a full sequential decode by the same decoder and by the
/// `ffmpeg` program, the codec's pre-roll (AAC's overlapped windows, Vorbis's
/// blocks, Opus's states) decoded and dropped.
///
/// The AAC files are encoded without perceptual noise substitution (`-aac_pns
/// 0`): libavcodec's AAC decoder fills noise bands from one random generator
/// that runs through the whole decode, so after a seek those bands carry other
/// noise (about one sample in eight off by 1 LSB, measured) however long the
/// pre-roll; only a decode from the file's start could repeat it. Everything
/// else a seek lands on is bit for bit.
@Suite struct FormatSeekTests {
    static let windowFrames = 4096

    struct Case: Sendable, CustomTestStringConvertible {
        let codec: Fixtures.Codec
        /// How long the file is: one minute, or an AAC M4B of `minutes` (`Fixtures.longAAC`).
        let minutes: Int
        var testDescription: String { "\(codec) \(minutes) min" }
    }

    static let cases = [
        Case(codec: .aac, minutes: 12),
        Case(codec: .flac16, minutes: 1),
        Case(codec: .vorbis, minutes: 1),
        Case(codec: .opus, minutes: 1),
    ]

    static func file(_ fixture: Case) throws -> String {
        if fixture.codec == .aac { return try Fixtures.longAAC(minutes: fixture.minutes) }
        return try Fixtures.encode(Fixtures.wav(.sweep, seconds: 60, sampleRate: 44100, channels: 1), as: fixture.codec)
    }

    @Test(arguments: cases)
    func seeksMatchTheFullDecode(_ fixture: Case) throws {
        let path = try Self.file(fixture)
        let decoder = try Decoders.open(path: path)
        let rate = decoder.format.rate
        let reference = try Fixtures.decodedByFFmpeg(path, sampleRate: rate, channels: 1)
        let total = reference.frameCount
        #expect(total > fixture.minutes * 59 * rate, "\(total) frames")

        // 20 seeded points, the start, a few frames in, inside the pre-roll, the last window.
        var generator = SeededGenerator(seed: 0xF0F0 + UInt64(fixture.minutes))
        var points = (0..<20).map { _ in Int.random(in: 0..<(total - Self.windowFrames), using: &generator) }
        points += [0, 1, 1023, 2049, 5000, total - Self.windowFrames]

        var sequential = WindowCollector(starts: points, length: Self.windowFrames)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536 * 2, alignment: 16)
        defer { buffer.deallocate() }
        while case .frames(let frames) = try decoder.read(into: buffer), frames > 0 {
            sequential.consume(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: Int16.self), count: frames))
        }
        #expect(sequential.framesSeen == total)

        var failures: [String] = []
        for (index, point) in points.enumerated() {
            try decoder.seek(toFrame: point)
            let got = try SeekAccuracyTests.readWindow(decoder)
            let oracle = Array(reference.samples[point..<(point + Self.windowFrames)])
            if got != sequential.windows[index] {
                failures.append("seek to \(point): differs from the full decode at \(SeekAccuracyTests.firstDifference(got, sequential.windows[index]))")
            }
            if got != oracle {
                failures.append("seek to \(point): differs from ffmpeg at \(SeekAccuracyTests.firstDifference(got, oracle))")
            }
        }
        let fresh = try Decoders.open(path: path)
        try fresh.seek(toFrame: points[0])
        if try SeekAccuracyTests.readWindow(fresh) != sequential.windows[0] { failures.append("first seek of a fresh decoder differs") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// A seek past the end leaves nothing to read; `scan` makes the length exact
    /// and leaves the position where it was. Raw AAC (ADTS) has no length but
    /// the bitrate's estimate, so the scan counts the decode; an M4A states its
    /// length (the edit list's, 3 s), exact without a scan.
    @Test func scanCountsTheDecodeAndKeepsThePosition() throws {
        let wav = try Fixtures.wav(.sweep, seconds: 3, sampleRate: 44100, channels: 2)
        let m4a = try Decoders.open(path: Fixtures.encode(wav, as: .aac, extraArguments: ["-aac_pns", "0"]))
        #expect(m4a.lengthIsExact && m4a.lengthInFrames == 3 * 44100)
        let path = try Fixtures.encode(wav, as: .aac, fileExtension: "aac", extraArguments: ["-aac_pns", "0", "-f", "adts"])
        let reference = try Fixtures.decodedByFFmpeg(path, sampleRate: 44100, channels: 2)
        let decoder = try Decoders.open(path: path)
        #expect(!decoder.lengthIsExact)
        try decoder.seek(toFrame: 50000)
        try decoder.scan()
        #expect(decoder.lengthIsExact)
        #expect(decoder.lengthInFrames == reference.frameCount)
        let window = try SeekAccuracyTests.readWindow(decoder)
        #expect(window == Array(reference.samples[100000..<(100000 + Self.windowFrames * 2)]))
        try decoder.seek(toFrame: reference.frameCount + 10)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        #expect(try decoder.read(into: buffer) == .end)
    }
}
