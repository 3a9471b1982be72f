import AudioEngine
import Foundation
import Testing
import TestSupport

/// Alarms, calls, chimes and suspensions staged with `interlude play`'s scenario
/// flags and rendered through the WAV sink on the frame clock: every sample of
/// the result is known, so the checks are exact.
@Suite struct PreemptionRenderTests {
    static let rate = 44100
    static let fade = 30 * rate / 1000

    struct Render {
        let audio: PCMAudio
        let events: EventLog
        let stdout: String

        func only(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> InterludeEvent? {
            let found = events.named(name)
            #expect(found.count == 1, "\(name): \(found)", sourceLocation: sourceLocation)
            return found.first
        }

        func frame(_ seconds: Double) -> Int { Int((seconds * Double(audio.sampleRate)).rounded()) }
    }

    func render(_ file: String, _ flags: [String]) throws -> Render {
        let output = ScratchFiles.makeDirectory("scenario") + "/out.wav"
        let result = try InterludeBinary.play([file], output: .wav(output), extraArguments: flags, timeout: 120)
        #expect(result.process.succeeded, "\(result.process.summary)")
        return Render(audio: try WAVFile.read(output), events: result.events, stdout: result.process.stdoutText)
    }

    /// The built-in alarm pattern as the engine renders it, from its start.
    func tone(frames: Int, channels: Int) -> [Int16] {
        var samples: [Int16] = []
        for frame in 0..<frames {
            let value = Int16((ToneVoice.value(at: Double(frame) / Double(Self.rate)) * 32767).rounded())
            samples += [Int16](repeating: value, count: channels)
        }
        return samples
    }

    func samples(_ audio: PCMAudio, _ range: Range<Int>) -> ArraySlice<Int16> {
        audio.samples[(range.lowerBound * audio.channels)..<(range.upperBound * audio.channels)]
    }

    @Test func alarmPausesMusicRingsAndMusicContinuesFromTheExactStopSample() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 20, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let run = try render(mp3, ["--alarm-in", "5", "--alarm-ring", "3"])

        let interruptions = run.events.named("interruption")
        #expect(interruptions.map { $0.fields["type"]?.description } == ["began", "ended"])
        #expect(interruptions.first?.fields["reason"]?.description == "default")
        #expect(interruptions.first?.fields["wasSuspended"] == .bool(false))
        #expect(interruptions.first?.fields["source"]?.description == "alarm")
        #expect(interruptions.last?.fields["options"]?.description.contains("shouldResume") == true)
        #expect(run.events.named("summary").first?.number("automaticResumes") == 1)

        let paused = try #require(run.only("paused")?.number("position"))
        let resumed = try #require(run.only("resumed")?.number("position"))
        #expect(resumed == paused, "music has no smart rewind by default")
        let due = run.frame(5)
        let stop = run.frame(paused)
        #expect(stop == due + Self.fade, "the fade starts at the due time and lasts exactly the fade")

        // Before the alarm: the source, untouched.
        expectSame(run.audio, 0..<due, source, 0..<due)
        // The fade-out only lowers the level.
        let fadeEnergy = SignalAnalysis.rms(run.audio, frames: due..<stop)
        #expect(fadeEnergy <= SignalAnalysis.rms(source, frames: due..<stop) + 1)
        // Then the alarm pattern alone, from the next frame on (after its 5 ms fade-in).
        let alarmStart = stop + run.frame(0.005)
        let alarmEnd = run.frame(8)
        let expectedTone = PCMAudio(sampleRate: Self.rate, channels: 2, samples: tone(frames: alarmEnd - stop, channels: 2))
        expectSame(run.audio, alarmStart..<alarmEnd, expectedTone, (alarmStart - stop)..<(alarmEnd - stop))
        // After the alarm the music fades in and is then the source again from exactly
        // the stop sample on: the output ends with every source frame after the
        // stop plus the fade, once, and the fade-in before them is the stop's frames.
        let tail = source.frameCount - stop - Self.fade
        let outputTail = run.audio.frameCount - tail
        expectSame(run.audio, outputTail..<run.audio.frameCount, source, (stop + Self.fade)..<source.frameCount,
                   tolerance: 1)
        let fadeIn = (outputTail - Self.fade)..<outputTail
        expectFadeIn(run.audio, fadeIn, of: source, from: stop)
        // The alarm starts right where the music stopped and the music comes back right
        // after it (its 10 ms fade-out): nothing overlaps, nothing is lost.
        #expect(fadeIn.lowerBound > alarmEnd && fadeIn.lowerBound <= alarmEnd + run.frame(0.011) + 1,
                "music back at frame \(fadeIn.lowerBound), alarm ended at \(alarmEnd)")
    }

    /// Exact equality of two frame ranges; reports the first difference, not the arrays.
    /// `tolerance` 1 allows a one-step difference: after a seek, libmpg123 can
    /// round a handful of samples of a decode differently than a full decode (seen
    /// on speech: 9 samples in 3 s, none more than one step), while any shift by a
    /// frame would differ by thousands.
    func expectSame(_ actual: PCMAudio, _ actualRange: Range<Int>, _ expected: PCMAudio, _ expectedRange: Range<Int>,
                    tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actualRange.count == expectedRange.count, sourceLocation: sourceLocation)
        let a = Array(samples(actual, actualRange))
        let e = Array(samples(expected, expectedRange))
        if let index = a.indices.first(where: { $0 < e.count && abs(Int(a[$0]) - Int(e[$0])) > tolerance }) {
            let offset = index / actual.channels
            let where_ = "first difference at frame \(actualRange.lowerBound + offset)"
            Issue.record("\(where_) (expected frame \(expectedRange.lowerBound + offset)): \(a[index]) vs \(e[index])",
                         sourceLocation: sourceLocation)
        }
    }

    /// `actual[range]` is `source` from frame `from` under a rising gain.
    func expectFadeIn(_ actual: PCMAudio, _ range: Range<Int>, of source: PCMAudio, from: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let out = samples(actual, range)
        let src = samples(source, from..<(from + range.count))
        var previousGain = 0.0
        var checked = 0
        for (o, s) in zip(out, src) where abs(Int(s)) > 2000 {
            let gain = Double(o) / Double(s)
            #expect(gain >= previousGain - 0.02 && gain <= 1.0001, "gain \(gain) after \(previousGain)",
                    sourceLocation: sourceLocation)
            previousGain = max(previousGain, gain)
            checked += 1
        }
        #expect(checked > range.count / 4, "too few loud samples to check the fade-in", sourceLocation: sourceLocation)
    }

    @Test func theSameScenarioRendersIdenticallyTwice() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 20, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let first = try render(mp3, ["--alarm-in", "5", "--alarm-ring", "3"])
        let second = try render(mp3, ["--alarm-in", "5", "--alarm-ring", "3"])
        #expect(first.audio == second.audio)
        #expect(first.events.events.map(\.event) == second.events.events.map(\.event))
        #expect(first.events.events.map(\.t) == second.events.events.map(\.t))
    }

    @Test(arguments: [(3.0, 2.0), (120.0, 3.8034)])
    func spokenAudioResumesTheSmartRewindAmountBeforeTheStop(ring: Double, expectedRewind: Double) throws {
        let wav = try Fixtures.wav(.speech(text: "Chapter one. It was a bright cold day in April, and the clocks were striking thirteen."),
                                   seconds: 12, sampleRate: Self.rate, channels: 1)
        let mp3 = try Fixtures.encode(wav, encoding: .cbr(kbps: 64))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let run = try render(mp3, ["--spoken", "--alarm-in", "6", "--alarm-ring", "\(ring)s"])
        let paused = try #require(run.only("paused")?.number("position"))
        let resumedEvent = try #require(run.only("resumed"))
        let resumed = try #require(resumedEvent.number("position"))
        let rewind = try #require(resumedEvent.number("rewind"))
        // The formula: min(max(ease(t / 3600) * 30, 2), timeInChapter, t), t the time stopped.
        let stoppedFor = ring - (paused - 6)
        let formula = min(max(SmartRewindFormula.ease(stoppedFor / 3600) * 30, 2), paused, stoppedFor)
        #expect(abs(rewind - formula) < 0.001, "rewind \(rewind) s, formula \(formula) s")
        #expect(abs(rewind - expectedRewind) < 0.01)
        #expect(abs((paused - resumed) - rewind) < 1e-5)

        // The speech after the alarm is the source from exactly the rewound sample:
        // the output ends with the source from there (after the fade-in), once.
        let resumeFrame = run.frame(resumed)
        let tail = source.frameCount - resumeFrame - Self.fade
        expectSame(run.audio, (run.audio.frameCount - tail)..<run.audio.frameCount,
                   source, (resumeFrame + Self.fade)..<source.frameCount, tolerance: 1)
    }

    @Test func anAlarmDueWhileSuspendedGivesALateBeganAndOneDelayedResume() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 12, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let run = try render(mp3, ["--suspend-at", "3", "--continue-at", "6", "--alarm-in", "4", "--alarm-ring", "1",
                                   "--resume-delay", "1.5"])
        let interruptions = run.events.named("interruption")
        let began = try #require(interruptions.first { $0.fields["type"]?.description == "began" })
        #expect(began.fields["wasSuspended"] == .bool(true))
        #expect(began.fields["reason"]?.description == "appWasSuspended")
        #expect(began.t >= 6, "the began arrives late, on continue")
        // The alarm that fell due while suspended rings on continue, not during the suspension.
        let ringing = try #require(run.only("alarmRinging"))
        #expect(ringing.t >= 6)
        let ended = try #require(interruptions.last { $0.fields["type"]?.description == "ended" && $0.t >= began.t })
        #expect(ended.fields["options"]?.description.contains("shouldResume") == true)
        #expect(ended.fields["wasSuspended"] == .bool(true))
        let scheduled = try #require(run.only("resumeScheduled"))
        #expect(scheduled.number("delay") == 1.5)
        let resumed = try #require(run.only("resumed"))
        #expect(resumed.t >= ended.t + 1.5 - 1e-6, "no earlier than the delay after ended")
        #expect(run.events.named("resumeRequested").count == 1)
        #expect(run.events.named("summary").first?.number("automaticResumes") == 1)
        // Nothing sounds while suspended.
        let silentFrom = run.frame(3.04)
        let silentTo = run.frame(5.99)
        #expect(samples(run.audio, silentFrom..<silentTo).allSatisfy { $0 == 0 })
    }

    @Test func aNotificationDucksMusicToMinus14DecibelsAndItReturnsToFullLevel() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 10, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let run = try render(mp3, ["--notify-at", "3"])
        #expect(run.events.named("ducked").count == 1)
        #expect(run.events.named("unducked").count == 1)
        #expect(run.events.named("paused").isEmpty, "music ducks, it does not pause")
        // In the chime's silent tail (0.6-0.95 s into it), after the 500 ms duck ramp:
        // the music alone, at -14 dB.
        let window = run.frame(3.6)..<run.frame(3.95)
        let level = SignalAnalysis.dBFS(SignalAnalysis.rms(run.audio, frames: window))
        let original = SignalAnalysis.dBFS(SignalAnalysis.rms(source, frames: window))
        #expect(abs((level - original) - (-14)) < 1, "ducked by \(level - original) dB")
        // After the chime ends (4 s) and the 500 ms unduck ramp: full level, bit-exact.
        let back = run.frame(4.6)
        #expect(samples(run.audio, back..<run.audio.frameCount) == samples(source, back..<source.frameCount))
    }

    @Test func aCallPausesMusicAndItResumesWhenTheCallEnds() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 8, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let run = try render(mp3, ["--call-at", "2", "--call-end", "4"])
        let interruptions = run.events.named("interruption")
        #expect(interruptions.map { $0.fields["source"]?.description } == ["call", "call"])
        #expect(run.only("paused") != nil)
        let resumed = try #require(run.only("resumed"))
        #expect(abs(resumed.t - 4) < 0.02)
        #expect(abs(run.audio.durationSeconds - (8 + 2)) < 0.1)
    }
}

/// The smart-rewind easing, written out here from design.md §5 so the test
/// does not trust the code it checks.
enum SmartRewindFormula {
    static func ease(_ d: Double) -> Double { 1 - pow(1 - d, 4) }
}
