import Foundation
import Testing
import TestSupport

@Suite struct SignalAnalysisTests {
    @Test(arguments: [0, 1, 1234, 44100 + 17])
    func alignmentFindsAKnownLag(lag: Int) throws {
        let reference = try WAVFile.read(Fixtures.wav(.sweep, seconds: 5))
        // The reference placed `lag` frames into a longer signal, with silence around it.
        let lead = PCMAudio(sampleRate: 44100, channels: 2, samples: [Int16](repeating: 0, count: lag * 2))
        let tail = PCMAudio(sampleRate: 44100, channels: 2, samples: [Int16](repeating: 0, count: 3000 * 2))
        let signal = lead.appending(reference).appending(tail)
        let alignment = SignalAnalysis.align(reference: reference, signal: signal)
        #expect(alignment.lag == lag)
        #expect(alignment.correlation > 0.9999)
        #expect(alignment.overlapFrames == reference.frameCount)
    }

    @Test func alignmentFindsANegativeLagWhenTheSignalStartsLate() throws {
        let reference = try WAVFile.read(Fixtures.wav(.sweep, seconds: 4))
        let signal = reference.frames(5000..<reference.frameCount)
        let alignment = SignalAnalysis.align(reference: reference, signal: signal)
        #expect(alignment.lag == -5000)
        #expect(alignment.correlation > 0.9999)
    }

    @Test func unrelatedAudioCorrelatesPoorly() throws {
        let sweep = try WAVFile.read(Fixtures.wav(.sweep, seconds: 3))
        let music = try WAVFile.read(Fixtures.wav(.music, seconds: 3))
        #expect(SignalAnalysis.align(reference: sweep, signal: music).correlation < 0.5)
    }

    @Test func silentRunsAreFoundOnlyInsideTheSignal() {
        // 100 silent frames, signal, a 300-frame hole, signal, a 50-frame hole, signal, 80 silent.
        var samples = [Int16](repeating: 0, count: 100)
        samples += [Int16](repeating: 1000, count: 500)
        samples += [Int16](repeating: 0, count: 300)
        samples += [Int16](repeating: -1000, count: 500)
        samples += [Int16](repeating: 2, count: 50)
        samples += [Int16](repeating: 1000, count: 10)
        samples += [Int16](repeating: 0, count: 80)
        let audio = PCMAudio(sampleRate: 8000, channels: 1, samples: samples)

        #expect(SignalAnalysis.signalBounds(audio) == 100..<1460)
        #expect(SignalAnalysis.longestSilentRun(audio) == 600..<900)
        #expect(SignalAnalysis.silentRuns(audio) == [600..<900])
        // With a threshold the low-level stretch counts as silence too.
        #expect(SignalAnalysis.silentRuns(audio, threshold: 2) == [600..<900, 1400..<1450])
        #expect(SignalAnalysis.silentRuns(audio, threshold: 2, minimumFrames: 100) == [600..<900])
    }

    @Test func aFrameIsSilentOnlyWhenEveryChannelIs() {
        let audio = PCMAudio(sampleRate: 8000, channels: 2, samples: [5, 5, 0, 7, 0, 0, 5, 5])
        #expect(SignalAnalysis.silentRuns(audio) == [2..<3])
    }

    @Test func levelsAndDecibels() {
        let full = PCMAudio(sampleRate: 8000, channels: 1, samples: [Int16](repeating: -32768, count: 100))
        #expect(abs(SignalAnalysis.rms(full) - 1) < 1e-9)
        #expect(abs(SignalAnalysis.dBFS(0.5) - -6.0206) < 1e-3)
        #expect(SignalAnalysis.dBFS(0) == -.infinity)
        #expect(SignalAnalysis.frames(milliseconds: 5, sampleRate: 44100) == 221)
    }

    @Test func firstDifferenceReportsIndexAndLengths() throws {
        let a = PCMAudio(sampleRate: 8000, channels: 2, samples: [1, 2, 3, 4, 5, 6])
        #expect(SignalAnalysis.firstDifference(expected: a, actual: a) == nil)
        var b = a
        b.samples[3] = 9
        let difference = try #require(SignalAnalysis.firstDifference(expected: a, actual: b))
        #expect(difference.sampleIndex == 3 && difference.frame == 1 && difference.channel == 1)
        #expect(difference.expected == 4 && difference.actual == 9 && difference.differingSamples == 1)
        let shorter = a.frames(0..<2)
        let truncated = try #require(SignalAnalysis.firstDifference(expected: a, actual: shorter))
        #expect(truncated.sampleIndex == 4 && truncated.actual == nil && truncated.actualFrames == 2)
    }
}
