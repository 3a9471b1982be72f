import Foundation
import TestSupport

/// Spoken fixtures made at test time: espeak-ng sentences at 44.1 kHz mono,
/// laid out with pauses of known lengths, a music bed, and room noise at
/// -60 dBFS over everything, encoded by LAME; and `ffmpeg`'s EBU R 128
/// meter as the loudness oracle.
enum SpokenAudioFixture {
    static let rate = 44100

    /// One piece of a layout: a sentence, a pause of some seconds, or the music bed.
    enum Piece {
        case sentence(String)
        case pause(Double)
        case music(Double)
        /// A sentence repeated to `seconds`, at `lufs` (integrated, before the noise), in espeak's voice `voice`.
        case voice(String, voice: String, seconds: Double, lufs: Double)
    }

    struct Laid {
        let mp3: String
        /// What the player decodes (mpg123's gapless decode, mono).
        let source: PCMAudio
        /// Each piece's frames in `source`, in order, with the piece.
        let ranges: [(piece: Piece, frames: Range<Int>)]
    }

    /// espeak-ng's sentence at 44.1 kHz mono, without the silence it puts around it.
    static func sentence(_ text: String, voice: String = "en") throws -> [Int16] {
        let directory = ScratchFiles.makeDirectory("spoken")
        let raw = directory + "/espeak.wav"
        let converted = directory + "/sentence.wav"
        try ProcessRunner.check("espeak-ng", ["-v", voice, "-w", raw, text])
        try ProcessRunner.check("sox", ["-D", raw, "-b", "16", converted, "channels", "1", "rate", String(rate)])
        let audio = try WAVFile.read(converted)
        guard let bounds = SignalAnalysis.signalBounds(audio, threshold: 8) else { return audio.samples }
        return Array(audio.samples[bounds])
    }

    /// The layout as an MP3 (128 kbps CBR mono) and its decode.
    static func make(_ pieces: [Piece], name: String) throws -> Laid {
        var samples: [Int16] = []
        var ranges: [(Piece, Range<Int>)] = []
        for piece in pieces {
            let start = samples.count
            switch piece {
            case .sentence(let text):
                samples += try sentence(text)
            case .pause(let seconds):
                samples += [Int16](repeating: 0, count: Int((seconds * Double(rate)).rounded()))
            case .music(let seconds):
                samples += try WAVFile.read(Fixtures.wav(.music, seconds: seconds, sampleRate: rate, channels: 1)).samples
            case .voice(let text, let voice, let seconds, let lufs):
                let one = try sentence(text, voice: voice)
                var part: [Int16] = []
                let gap = [Int16](repeating: 0, count: rate / 5)
                while part.count < Int(seconds * Double(rate)) { part += one + gap }
                part = Array(part.prefix(Int(seconds * Double(rate))))
                let measured = try integratedLoudness(of: PCMAudio(sampleRate: rate, channels: 1, samples: part))
                let gain = pow(10, (lufs - measured) / 20)
                samples += part.map { Int16(max(-32768, min(32767, (Double($0) * gain).rounded()))) }
            }
            ranges.append((piece, start..<samples.count))
        }
        // Room noise at -60 dBFS RMS (uniform, +-57), the same every run.
        var seed: UInt32 = 0x5EED
        for index in samples.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            samples[index] = Int16(max(-32768, min(32767, Int(samples[index]) + Int(seed >> 16) % 115 - 57)))
        }
        let directory = ScratchFiles.makeDirectory("spoken-\(name)")
        let wav = directory + "/\(name).wav"
        try WAVFile.write(PCMAudio(sampleRate: rate, channels: 1, samples: samples), to: wav)
        let mp3 = try Fixtures.encode(wav, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        return Laid(mp3: mp3, source: source, ranges: ranges)
    }

    // MARK: ffmpeg's EBU R 128 meter

    struct Loudness {
        /// Short-term loudness (3 s window) every 100 ms: (end of the window in seconds, LUFS).
        var shortTerm: [(t: Double, lufs: Double)]
        var integrated: Double
        var truePeak: Double
    }

    static func measure(_ path: String) throws -> Loudness {
        let result = try ProcessRunner.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-af",
                                                      "ebur128=peak=true:framelog=info", "-f", "null", "-"], timeout: 300)
        var shortTerm: [(Double, Double)] = []
        var integrated = -70.0
        var peak = -100.0
        var inSummary = false
        for line in result.stderrText.split(separator: "\n") {
            let text = String(line)
            if text.contains("Summary:") { inSummary = true }
            if !inSummary, let t = value(after: "t:", in: text), let s = value(after: "S:", in: text) { shortTerm.append((t, s)) }
            if inSummary, let i = value(after: "I:", in: text) { integrated = i }
            if inSummary, let p = value(after: "Peak:", in: text) { peak = p }
        }
        return Loudness(shortTerm: shortTerm, integrated: integrated, truePeak: peak)
    }

    static func integratedLoudness(of audio: PCMAudio) throws -> Double {
        let path = ScratchFiles.makeDirectory("loudness") + "/part.wav"
        try WAVFile.write(audio, to: path)
        return try measure(path).integrated
    }

    private static func value(after label: String, in text: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop(while: { $0 == " " })
        return Double(rest.prefix(while: { $0 == "-" || $0 == "." || $0.isNumber }))
    }

    // MARK: Finding pieces in a render

    /// Where `piece` (frames of `source`) starts in `output` at or after `from`: the
    /// first place its opening 256 samples match exactly (the noise makes them unique).
    static func find(_ frames: Range<Int>, of source: PCMAudio, in output: PCMAudio, from: Int) -> Int? {
        let probe = Array(source.samples[frames.lowerBound..<min(frames.upperBound, frames.lowerBound + 256)])
        guard let first = probe.first else { return nil }
        let samples = output.samples
        var index = max(0, from)
        while index + probe.count <= samples.count {
            if samples[index] == first && Array(samples[index..<(index + probe.count)]) == probe { return index }
            index += 1
        }
        return nil
    }

    /// The source frame that output frame `frame` of a 1.0x render (mono) is, found
    /// from the samples alone: the render holds the source's frames verbatim
    /// between cuts, and the room noise makes 64 of them unique. Nil when the
    /// frames around it are not the source's (a fade, an alarm).
    static func sourceFrame(of frame: Int, in render: PCMAudio, source: PCMAudio) -> Int? {
        let window = 64
        // After the frame, else (a cut right after it) before it.
        for (start, offset) in [(frame, 0), (frame - window + 1, window - 1)] where start >= 0 && start + window <= render.frameCount {
            let probe = Array(render.samples[start..<(start + window)])
            var index = 0
            while index + window <= source.frameCount {
                if source.samples[index] == probe[0] && Array(source.samples[index..<(index + window)]) == probe {
                    return index + offset
                }
                index += 1
            }
        }
        return nil
    }

    /// Pearson correlation of two equally long runs of samples.
    static func correlation(_ a: ArraySlice<Int16>, _ b: ArraySlice<Int16>) -> Double {
        let n = Double(min(a.count, b.count))
        guard n > 0 else { return 0 }
        var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
        for (x, y) in zip(a, b) {
            let dx = Double(x), dy = Double(y)
            sa += dx; sb += dy; saa += dx * dx; sbb += dy * dy; sab += dx * dy
        }
        let cov = sab - sa * sb / n
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n
        return va > 0 && vb > 0 ? cov / (va * vb).squareRoot() : (va == vb ? 1 : 0)
    }
}
