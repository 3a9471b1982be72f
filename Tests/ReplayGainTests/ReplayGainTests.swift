import BookFormat
import Foundation
import Testing
import TestSupport
@testable import ReplayGain

/// ReplayGain's arithmetic (modes, preamp, clipping prevention) and where the
/// values come from (TXXX, RVA2, LAME's Info tag), with ffmpeg and lame as the
/// taggers and ffmpeg's replaygain filter as the oracle for LAME's analysis.
struct ReplayGainTests {
    let info = ReplayGainInfo(trackGain: 6, trackPeak: 0.25, albumGain: -3, albumPeak: 0.9)

    @Test("each mode picks its gain, the preamp adds to it, the peak caps it")
    func arithmetic() {
        func decibels(_ settings: ReplayGainSettings, _ info: ReplayGainInfo) -> Double {
            20 * log10(settings.linearGain(for: info))
        }
        #expect(abs(decibels(.init(mode: .track), info) - 6) < 1e-9)
        #expect(abs(decibels(.init(mode: .album), info) - -3) < 1e-9)
        #expect(ReplayGainSettings(mode: .off, preampDecibels: 6).linearGain(for: info) == 1)
        #expect(abs(decibels(.init(mode: .album, preampDecibels: 2.5), info) - -0.5) < 1e-9)
        // Album -3 dB + 4 dB preamp = +1 dB, but the album peak 0.9 allows only 1/0.9 (+0.915 dB).
        #expect(abs(ReplayGainSettings(mode: .album, preampDecibels: 4).linearGain(for: info) - 1 / 0.9) < 1e-12)
        #expect(abs(decibels(.init(mode: .album, preampDecibels: 4, preventsClipping: false), info) - 1) < 1e-9)
        // Missing values: album falls back to track and the reverse; none plays as decoded, preamp or not.
        #expect(abs(decibels(.init(mode: .album), ReplayGainInfo(trackGain: -2)) - -2) < 1e-9)
        #expect(abs(decibels(.init(mode: .track), ReplayGainInfo(albumGain: -4)) - -4) < 1e-9)
        #expect(ReplayGainSettings(mode: .track, preampDecibels: 6).linearGain(for: ReplayGainInfo()) == 1)
    }

    @Test("decibels without a math library match pow and log10", arguments: [-60.0, -18.3, -3, -0.01, 0, 0.1, 6, 19.99, 40])
    func decibels(value: Double) {
        let expected = pow(10, value / 20)
        #expect(abs(Decibels.linear(value) / expected - 1) < 1e-13, "\(value) dB")
        #expect(abs((Decibels.fromLinear(expected) ?? .nan) - value) < 1e-9)
    }

    @Test("tag values as the tools write them; nonsense is ignored")
    func fieldParsing() {
        let parsed = ReplayGainInfo(fields: [("replaygain_track_gain", "-6.54 dB"), ("REPLAYGAIN_TRACK_PEAK", "0.988251"),
                                             ("REPLAYGAIN_ALBUM_GAIN", "+2 dB"), ("REPLAYGAIN_ALBUM_PEAK", "nan"),
                                             ("REPLAYGAIN_REFERENCE_LOUDNESS", "89.0 dB")])
        #expect(parsed == ReplayGainInfo(trackGain: -6.54, trackPeak: 0.988251, albumGain: 2, albumPeak: nil))
        #expect(ReplayGainInfo.decibels("loud") == nil && ReplayGainInfo.decibels("+999 dB") == nil)
        #expect(ReplayGainInfo.decibels("-3.5dB") == -3.5)
    }

    /// A minimal ID3v2.4 tag around `frames` (ID, body): sizes syncsafe, no flags.
    static func id3(_ frames: [(String, [UInt8])]) -> [UInt8] {
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }
        var body: [UInt8] = []
        for (id, content) in frames { body += Array(id.utf8) + syncsafe(content.count) + [0, 0] + content }
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    @Test("RVA2 master volume: track and album, 1/512 dB, the peak in its bits")
    func rva2() throws {
        // -6.5 dB = -3328/512; peak 16 bits 0x4000 = 0.5 of 2^15.
        let track: [UInt8] = Array("track".utf8) + [0, 1, 0xF3, 0x00, 16, 0x40, 0x00]
        // A front-left channel first (type 2), then the master volume: +2 dB = 1024/512, no peak.
        let album: [UInt8] = Array("album".utf8) + [0, 2, 0x01, 0x00, 8, 0x7F, 1, 0x04, 0x00, 0]
        let tag = try ID3v2Tag(bytes: Self.id3([("RVA2", track), ("RVA2", album)]))
        #expect(ID3ReplayGain.info(from: tag) == ReplayGainInfo(trackGain: -6.5, trackPeak: 0.5, albumGain: 2, albumPeak: nil))
    }

    @Test("TXXX wins over RVA2 for the same value")
    func txxxBeforeRva2() throws {
        let txxx: [UInt8] = [3] + Array("REPLAYGAIN_TRACK_GAIN".utf8) + [0] + Array("-1.25 dB".utf8)
        let rva2: [UInt8] = Array("track".utf8) + [0, 1, 0xF3, 0x00, 0]
        let tag = try ID3v2Tag(bytes: Self.id3([("RVA2", rva2), ("TXXX", txxx)]))
        #expect(ID3ReplayGain.info(from: tag).trackGain == -1.25)
    }

    @Test("TXXX frames ffmpeg writes into an MP3 are read from the file")
    func txxxFromFile() throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 1)
        let output = ScratchFiles.makeDirectory("replaygain-tags") + "/tagged.mp3"
        try ProcessRunner.check("ffmpeg", ["-v", "error", "-y", "-i", mp3, "-c", "copy",
                                           "-metadata", "REPLAYGAIN_TRACK_GAIN=-7.10 dB", "-metadata", "REPLAYGAIN_TRACK_PEAK=0.501",
                                           "-metadata", "REPLAYGAIN_ALBUM_GAIN=+1.30 dB", output])
        let read = AudioTags.read(path: output).replayGain
        #expect(read.trackGain == -7.1 && read.trackPeak == 0.501 && read.albumGain == 1.3)
    }

    @Test("LAME's Info tag: the peak and the track gain lame computed, against ffmpeg's replaygain filter")
    func lameInfoTag() throws {
        let wav = try Fixtures.wav(.tone(frequency: 1000), seconds: 3)
        let mp3 = ScratchFiles.makeDirectory("replaygain-lame") + "/accurate.mp3"
        try ProcessRunner.check("lame", ["--quiet", "--replaygain-accurate", "-b", "192", wav, mp3])
        let read = AudioTags.read(path: mp3).replayGain
        // The tone is -6 dBFS: a peak of 0.5 (lame measures the decoded output).
        let peak = try #require(read.trackPeak)
        #expect(abs(peak - 0.5) < 0.02, "peak \(peak)")
        let oracle = try ProcessRunner.run("ffmpeg", ["-hide_banner", "-nostats", "-i", wav, "-af", "replaygain", "-f", "null", "-"])
        let text = oracle.stderrText
        let line = try #require(text.split(separator: "\n").first { $0.contains("track_gain") })
        let value = try #require(line.split(separator: "=").last.flatMap { ReplayGainInfo.decibels(String($0)) })
        let gain = try #require(read.trackGain)
        #expect(abs(gain - value) < 0.5, "lame \(gain) dB, ffmpeg \(value) dB")
        #expect(read.albumGain == nil)
    }
}
