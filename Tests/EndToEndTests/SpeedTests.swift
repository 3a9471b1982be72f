import Foundation
import Testing
import TestSupport

/// Speed with pitch kept (libsonic). Lengths scale by
/// the speed, a tone keeps its frequency, and positions stay in the file's own
/// time. Rendered through the WAV sink (fast, frame clock), and once through
/// the PulseAudio null sink in real time.
@Suite struct SpeedRenderTests {
    /// Cycles per second by counting rising zero crossings (the tone is clean,
    /// 440 Hz at -6 dBFS: no noise near zero to count twice).
    static func frequency(of audio: PCMAudio, frames: Range<Int>) -> Double {
        let samples = audio.channel(0)
        var crossings: [Int] = []
        for index in max(1, frames.lowerBound)..<min(samples.count, frames.upperBound)
        where samples[index - 1] < 0 && samples[index] >= 0 {
            crossings.append(index)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(audio.sampleRate) / Double(last - first)
    }

    @Test(arguments: [2.0, 0.5, 3.0])
    func toneKeepsItsPitchWhileItsLengthScales(speed: Double) throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 6, sampleRate: 44100, channels: 1,
                                   encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let output = ScratchFiles.makeDirectory("speed") + "/tone-\(speed).wav"
        let result = try InterludeBinary.play([mp3], output: .wav(output), extraArguments: ["--speed", String(speed)])
        #expect(result.process.succeeded, "\(result.process.summary)")
        let rendered = try WAVFile.read(output)

        let expectedSeconds = source.durationSeconds / speed
        #expect(abs(rendered.durationSeconds - expectedSeconds) < 0.05,
                "\(rendered.durationSeconds) s rendered, \(expectedSeconds) s expected")
        // Away from the ends (encoder delay, libsonic's flush).
        let middle = rendered.frameCount / 10..<(rendered.frameCount * 9 / 10)
        let heard = Self.frequency(of: rendered, frames: middle)
        let original = Self.frequency(of: source, frames: source.frameCount / 10..<(source.frameCount * 9 / 10))
        #expect(abs(heard / original - 1) < 0.02, "\(heard) Hz at \(speed)x, \(original) Hz at 1.0x")
        // The file's own time at the end: the whole file was heard.
        let ended = try #require(result.events.named("trackEnded").first)
        #expect(abs(ended.t - expectedSeconds) < 0.05, "trackEnded at \(ended.t) s")
    }

    /// `paused` and `resumed` carry positions in the file's time, not the
    /// output's: at 2.0x a pause 3 s into the render is 6 s into the file.
    @Test func positionsAtTwiceSpeedAreInTheFilesTime() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 12, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let output = ScratchFiles.makeDirectory("speed") + "/positions.wav"
        let result = try InterludeBinary.play([mp3], output: .wav(output),
                                              extraArguments: ["--speed", "2", "--call-at", "3", "--call-end", "4"])
        #expect(result.process.succeeded, "\(result.process.summary)")
        let paused = try #require(result.events.named("paused").first)
        let position = try #require(paused.number("position"))
        // The pause lands after its 30 ms fade, which plays at 2x as well.
        #expect(abs(position - 2 * paused.t) < 0.02, "paused at t=\(paused.t) s, position \(position) s")
        #expect(abs(position - 6.06) < 0.05, "position \(position) s")
        let resumed = try #require(result.events.named("resumed").first)
        #expect(resumed.number("position") == position)
        // Everything after the pause was heard too: 12 s of file in 6 s, plus the 1 s call.
        let rendered = try WAVFile.read(output)
        #expect(abs(rendered.durationSeconds - (source.durationSeconds / 2 + 1)) < 0.1, "\(rendered.durationSeconds) s")
    }

    @Test(arguments: ["2.03", "0.45", "3.05", "fast"])
    func speedOffTheGridIsRefusedInOneLine(text: String) throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 1, sampleRate: 44100, channels: 1,
                                   encoding: .cbr(kbps: 128))
        let result = try InterludeBinary.run(["play", mp3, "--output", "null", "--speed", text])
        #expect(result.exitStatus == 2)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("'\(text)'") && lines[0].contains("0.5 to 3.0 in steps of 0.05"),
                "\(result.stderrText)")
    }
}

/// The real-time path: what a listener hears at 2.0x, captured from the sink.
@Suite(.serialized) struct SpeedRealTimeTests {
    @Test func sixtySecondsOfSpeechPlayInThirtyAtTwiceSpeed() throws {
        let mp3 = try Fixtures.mp3(.speech(text: "Chapter one. It was a bright cold day in April, and the clocks were striking thirteen."),
                                   seconds: 60, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let sourceBounds = try #require(SignalAnalysis.signalBounds(source))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), extraArguments: ["--speed", "2.0"], timeout: 90)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.underrunCount == 0)
        let bounds = try #require(SignalAnalysis.signalBounds(capture), "the capture is silent")
        let captured = Double(bounds.count) / Double(capture.sampleRate)
        let expected = Double(sourceBounds.count) / Double(source.sampleRate) / 2
        #expect(abs(expected - 30) < 0.5, "the speech fixture spans \(expected * 2) s")
        #expect(abs(captured - expected) < 0.3, "captured \(captured) s, expected \(expected) s")
    }

    @Test func aToneKeepsItsPitchAtTwiceSpeedOnTheDevice() throws {
        let mp3 = try Fixtures.mp3(.tone(frequency: 440), seconds: 4, sampleRate: 44100, channels: 2,
                                   encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let result = try InterludeBinary.play([mp3], output: .pulse(sink), extraArguments: ["--speed", "2"], timeout: 30)
        let capture = try recorder.stop()
        #expect(result.process.succeeded, "\(result.process.summary)")
        let bounds = try #require(SignalAnalysis.signalBounds(capture), "the capture is silent")
        #expect(abs(Double(bounds.count) / Double(capture.sampleRate) - 2) < 0.1, "\(bounds.count) frames")
        let middle = (bounds.lowerBound + bounds.count / 10)..<(bounds.upperBound - bounds.count / 10)
        let heard = SpeedRenderTests.frequency(of: capture, frames: middle)
        #expect(abs(heard / 440 - 1) < 0.02, "\(heard) Hz")
    }
}
