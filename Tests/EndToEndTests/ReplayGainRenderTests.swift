import Foundation
import Testing
import TestSupport

/// ReplayGain applied by the mixer, rendered through
/// the WAV sink. Files are tagged by ffmpeg (ID3v2 TXXX for MP3, Vorbis
/// comments for FLAC); each render is compared with the same file rendered
/// with ReplayGain off, so the ratio is the gain the player applied.
@Suite struct ReplayGainRenderTests {
    /// `source` copied with the tags given (`NAME=VALUE`), by ffmpeg, into `name`.
    static func tagged(_ source: String, _ name: String, _ tags: [String: String]) throws -> String {
        let output = ScratchFiles.makeDirectory("replaygain") + "/" + name
        var arguments = ["-v", "error", "-y", "-i", source, "-map", "0:a", "-c", "copy"]
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        try ProcessRunner.check("ffmpeg", arguments + [output])
        return output
    }

    static func render(_ files: [String], _ arguments: [String]) throws -> PCMAudio {
        let output = ScratchFiles.makeDirectory("replaygain") + "/render.wav"
        let result = try InterludeBinary.play(files, output: .wav(output), extraArguments: arguments)
        #expect(result.process.succeeded, "\(result.process.summary)")
        return try WAVFile.read(output)
    }

    static func gainDecibels(_ rendered: PCMAudio, over reference: PCMAudio) -> Double {
        #expect(rendered.frameCount == reference.frameCount)
        // Away from the ends (the encoder's delay and padding are silence).
        let middle = reference.frameCount / 10..<(reference.frameCount * 9 / 10)
        return SignalAnalysis.dBFS(SignalAnalysis.rms(rendered, frames: middle))
            - SignalAnalysis.dBFS(SignalAnalysis.rms(reference, frames: middle))
    }

    static let tags = ["REPLAYGAIN_TRACK_GAIN": "+6.00 dB", "REPLAYGAIN_ALBUM_GAIN": "-3.00 dB",
                       "REPLAYGAIN_TRACK_PEAK": "0.316000", "REPLAYGAIN_ALBUM_PEAK": "0.316000"]

    @Test("an MP3 tagged +6 dB track / -3 dB album renders at each mode's gain within 0.1 dB",
          arguments: [("track", 6.0), ("album", -3.0), ("off", 0.0)])
    func modesApplyTheirGain(mode: String, expected: Double) throws {
        // A -10 dBFS tone: +6 dB stays under full scale, so nothing limits it.
        // Named for its content: `Fixtures.encode` caches MP3s by the WAV's name.
        let wav = ScratchFiles.makeDirectory("replaygain") + "/replaygain-tone-997-10dB.wav"
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                        "synth", "3", "sine", "997", "vol", "0.316"])
        let mp3 = try Self.tagged(Fixtures.encode(wav), "tone-rg.mp3", Self.tags)
        let reference = try Self.render([mp3], ["--replaygain", "off"])
        let rendered = try Self.render([mp3], ["--replaygain", mode])
        let gain = Self.gainDecibels(rendered, over: reference)
        #expect(abs(gain - expected) < 0.1, "\(mode): \(gain) dB, expected \(expected) dB")
    }

    @Test("Vorbis comments in a FLAC give the same gains (the decoder's tags, the same gain stage)",
          arguments: [("track", 6.0), ("album", -3.0)])
    func flacVorbisComments(mode: String, expected: Double) throws {
        let wav = ScratchFiles.makeDirectory("replaygain") + "/tone-flac.wav"
        try ProcessRunner.check("sox", ["-D", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                        "synth", "3", "sine", "997", "vol", "0.316"])
        let flac = ScratchFiles.makeDirectory("replaygain") + "/tone.flac"
        var arguments = ["-v", "error", "-y", "-i", wav]
        for (key, value) in Self.tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        try ProcessRunner.check("ffmpeg", arguments + [flac])
        let reference = try Self.render([flac], ["--replaygain", "off"])
        let rendered = try Self.render([flac], ["--replaygain", mode])
        let gain = Self.gainDecibels(rendered, over: reference)
        #expect(abs(gain - expected) < 0.1, "\(mode): \(gain) dB, expected \(expected) dB")
    }

    @Test("clipping prevention: a preamp that would clip is held to the tagged peak, at or under full scale")
    func clippingPrevention() throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 3)
        let reference = try Self.render([mp3], ["--replaygain", "off"])
        let peak = Double(reference.samples.map { abs(Int($0)) }.max() ?? 0) / 32768
        // +6 dB and a +6 dB preamp on a -6 dBFS tone would be about +6 dBFS: four times too loud.
        let tagged = try Self.tagged(mp3, "loud.mp3", ["REPLAYGAIN_TRACK_GAIN": "+6.00 dB",
                                                       "REPLAYGAIN_TRACK_PEAK": String(format: "%.6f", peak)])
        let rendered = try Self.render([tagged], ["--replaygain", "track", "--replaygain-preamp", "6"])
        let renderedPeak = Double(rendered.samples.map { abs(Int($0)) }.max() ?? 0) / 32768
        let clipped = rendered.samples.filter { $0 == .max || $0 == .min }.count
        #expect(renderedPeak <= 1.0 && clipped < rendered.samples.count / 10_000,
                "peak \(renderedPeak), \(clipped) samples at full scale")
        // Limited by the peak, not muted: the gain is 1/peak (the loudest sample reaches full scale).
        #expect(abs(Self.gainDecibels(rendered, over: reference) - (-20 * log10(peak))) < 0.1)
    }

    @Test("at a gapless join the next file's gain starts on its first frame exactly")
    func gainChangesAtTheJoin() throws {
        let first = try Self.tagged(Fixtures.mp3(.tone(frequency: 440), seconds: 1.5), "first.mp3",
                                    ["REPLAYGAIN_TRACK_GAIN": "0.00 dB"])
        let second = try Self.tagged(Fixtures.mp3(.sweep, seconds: 1.5), "second.mp3",
                                     ["REPLAYGAIN_TRACK_GAIN": "-6.02 dB"])
        let alone = try Self.render([first], ["--replaygain", "off"])
        let reference = try Self.render([first, second], ["--replaygain", "off"])
        let rendered = try Self.render([first, second], ["--replaygain", "track"])
        #expect(rendered.frameCount == reference.frameCount)
        let join = alone.frameCount * alone.channels
        // Unity gain before the join: the same samples, bit for bit.
        #expect(Array(rendered.samples[..<join]) == Array(reference.samples[..<join]))
        // From the join's first sample on, half (-6.02 dB), within the rounding of one sample.
        let after = (join..<reference.samples.count).filter { abs(Int(reference.samples[$0])) > 64 }
        #expect(!after.isEmpty)
        let worst = after.map { abs(Double(rendered.samples[$0]) - Double(reference.samples[$0]) * 0.5) }.max() ?? 0
        #expect(worst <= 1.0, "largest difference from half after the join: \(worst)")
        let firstLoud = try #require(after.first)
        #expect(firstLoud - join < 64 * rendered.channels, "the second file starts loud at \(firstLoud - join)")
    }
}
