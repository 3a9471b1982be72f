import Foundation
import Testing
import TestSupport

/// Trimmed pauses and levelled voices, rendered through the WAV sink on the
/// frame clock and measured against the source (mpg123's decode) and
/// ffmpeg's EBU R 128 meter.
@Suite struct SpokenAudioRenderTests {
    static let rate = SpokenAudioFixture.rate

    static let layout: [SpokenAudioFixture.Piece] = [
        .pause(0.5),
        .sentence("The lighthouse keeper climbed the stairs."),
        .pause(0.2),
        .sentence("Every night he lit the lamp."),
        .pause(3.0),
        .sentence("Ships passed far out at sea."),
        .pause(0.25),
        .sentence("Nobody ever thanked him."),
        .pause(1.0),
        .music(10),
        .pause(0.8),
        .sentence("One winter a letter arrived."),
        .pause(0.5),
        .sentence("It was written in pencil."),
        .pause(2.0),
        .sentence("Thank you for the light, it said."),
        .pause(0.5),
    ]

    func render(_ file: String, _ flags: [String], name: String) throws -> (audio: PCMAudio, events: EventLog) {
        let output = ScratchFiles.makeDirectory("spoken-render") + "/\(name).wav"
        let result = try InterludeBinary.play([file], output: .wav(output), extraArguments: flags, timeout: 300)
        #expect(result.process.succeeded, "\(result.process.summary)")
        return (try WAVFile.read(output), result.events)
    }

    @Test("trimmed: long pauses come out 0.2-0.6 s, short ones untouched, each sentence and the music bed whole and in order, the time saved as measured")
    func trimmingShortensPausesAndKeepsEveryWord() throws {
        let laid = try SpokenAudioFixture.make(Self.layout, name: "trim")
        let run = try render(laid.mp3, ["--spoken", "--trim-silence", "medium", "--events", "json"], name: "trimmed")
        let output = run.audio
        #expect(output.channels == 1 && output.sampleRate == Self.rate)

        // Each sentence and the bed, found in order, whole: bit for bit (so at correlation 1).
        var found: [(frames: Range<Int>, at: Int)] = []
        var from = 0
        for (piece, frames) in laid.ranges {
            if case .pause = piece { continue }
            guard let at = SpokenAudioFixture.find(frames, of: laid.source, in: output, from: from) else {
                Issue.record("\(piece) (source frames \(frames)) not found after output frame \(from)")
                return
            }
            let end = at + frames.count
            #expect(end <= output.frameCount, "\(piece) cut at the end")
            let expected = laid.source.samples[frames]
            let heard = output.samples[at..<min(end, output.frameCount)]
            let correlation = SpokenAudioFixture.correlation(expected, heard)
            #expect(correlation >= 0.99, "\(piece): correlation \(correlation)")
            #expect(Array(heard) == Array(expected), "\(piece) is not the source's frames, whole")
            found.append((frames, at))
            from = end
        }
        #expect(found.count == 8)

        // The pauses between them: over 0.6 s -> 0.2...0.6 s; under 0.3 s -> exactly as long.
        var shortened = 0
        for (before, after) in zip(found, found.dropFirst()) {
            let sourcePause = Double(after.frames.lowerBound - before.frames.upperBound) / Double(Self.rate)
            let heardPause = Double(after.at - (before.at + before.frames.count)) / Double(Self.rate)
            if sourcePause > 0.6 {
                #expect(heardPause >= 0.2 && heardPause <= 0.6, "a \(sourcePause) s pause came out \(heardPause) s")
                shortened += 1
            } else if sourcePause < 0.3 {
                #expect(after.at - (before.at + before.frames.count) == after.frames.lowerBound - before.frames.upperBound,
                        "a \(sourcePause) s pause came out \(heardPause) s")
            }
        }
        #expect(shortened == 4)

        // The time saved: what the player says, against what the render lost.
        let measured = Double(laid.source.frameCount - output.frameCount) / Double(Self.rate)
        let reported = try #require(run.events.named("timeSaved").last?.number("seconds"), "\(run.events.events.map(\.event))")
        #expect(measured > 4, "the fixture's long pauses add up to 6.8 s; \(measured) s saved")
        #expect(abs(reported - measured) <= 0.05, "reported \(reported) s, measured \(measured) s")
    }

    @Test("levelled: two voices at -32 and -16 LUFS each within 2 LU of the target after its first second, true peak at most -1 dBTP, no gain rise over 3 dB in pauses")
    func levellingBringsBothVoicesToTheTarget() throws {
        let text = "The committee met on Tuesday to discuss the harbour, the roads and the school."
        let pieces: [SpokenAudioFixture.Piece] = [
            .voice(text, voice: "en", seconds: 8, lufs: -32), .pause(2),
            .voice(text, voice: "en+f3", seconds: 8, lufs: -16), .pause(2),
            .voice(text, voice: "en", seconds: 8, lufs: -32), .pause(1.5),
            .voice(text, voice: "en+f3", seconds: 8, lufs: -16),
        ]
        let laid = try SpokenAudioFixture.make(pieces, name: "voices")
        let run = try render(laid.mp3, ["--spoken", "--voice-boost", "-18"], name: "levelled")
        let output = run.audio
        #expect(output.frameCount == laid.source.frameCount, "levelling keeps every frame")
        let path = ScratchFiles.makeDirectory("spoken-levelled") + "/out.wav"
        try WAVFile.write(output, to: path)
        let loudness = try SpokenAudioFixture.measure(path)
        #expect(loudness.truePeak <= -1, "true peak \(loudness.truePeak) dBTP")

        for (piece, frames) in laid.ranges {
            let start = Double(frames.lowerBound) / Double(Self.rate)
            let end = Double(frames.upperBound) / Double(Self.rate)
            switch piece {
            case .voice(_, let voice, _, let lufs):
                // Windows wholly after the voice's first second.
                let inside = loudness.shortTerm.filter { $0.t - 3 >= start + 1 - 1e-6 && $0.t <= end + 1e-6 }
                #expect(inside.count > 30)
                for window in inside {
                    #expect(abs(window.lufs + 18) <= 2, "\(voice) at \(lufs) LUFS: \(window.lufs) LUFS at \(window.t) s")
                }
            case .pause:
                // The gain (output over input level, 100 ms windows of room noise) may fall, never rise 3 dB.
                let window = Self.rate / 10
                var gains: [Double] = []
                var at = frames.lowerBound + window / 2
                while at + window <= frames.upperBound - window / 2 {
                    let input = SignalAnalysis.rms(laid.source, frames: at..<(at + window))
                    let heard = SignalAnalysis.rms(output, frames: at..<(at + window))
                    gains.append(20 * log10(max(heard, 1e-3) / max(input, 1e-3)))
                    at += window
                }
                let lowest = gains.reduce(Double.infinity) { min($0, $1) }
                var risen = 0.0
                var least = Double.infinity
                for gain in gains {
                    least = min(least, gain)
                    risen = max(risen, gain - least)
                }
                #expect(risen <= 3, "the gain rose \(risen) dB in a pause at \(start) s (lowest \(lowest) dB)")
            default:
                break
            }
        }
    }

    @Test("with both off the render is the decoder's output, bit for bit, as without the settings")
    func bothOffIsTheDecodeBitForBit() throws {
        let laid = try SpokenAudioFixture.make([.sentence("A short test of nothing at all."), .pause(1.5),
                                                .sentence("Nothing changes.")], name: "off")
        let off = try render(laid.mp3, ["--spoken", "--trim-silence", "off", "--voice-boost", "off"], name: "off")
        #expect(off.audio == laid.source)
        let unset = try render(laid.mp3, ["--spoken"], name: "unset")
        #expect(unset.audio == off.audio)
    }

    @Test("music is never trimmed or levelled, whatever the flags say")
    func musicIsNeverTouched() throws {
        let laid = try SpokenAudioFixture.make([.sentence("Music plays as it is."), .pause(2), .music(3)], name: "music")
        let run = try render(laid.mp3, ["--trim-silence", "strong", "--voice-boost", "on"], name: "music")
        #expect(run.audio == laid.source)
    }
}
