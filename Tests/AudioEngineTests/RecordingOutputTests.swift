import AudioDecoding
import AudioEngine
import Testing
import TestSupport

/// An `AudioOutput` made here, outside the engine, on the frame clock: it keeps
/// every frame the engine's mixer gives it and every call the engine makes.
/// The engine is driven through pause, resume, a queue jump and an alarm
/// voice, and what it recorded is compared sample for sample with `mpg123 -w`.
final class RecordingOutput: AudioOutput {
    let format: AudioFormat
    let clock = OutputClock.frameClock
    var mediaRingFrames: Int { 8192 }
    var bufferFrames: Int { 0 }
    var isRealtimePriority: Bool { true }
    private var mixer: FrameClockMixer?
    private(set) var samples: [Int16] = []
    private(set) var calls: [String] = []
    private(set) var stopped = false

    init(format: AudioFormat) { self.format = format }

    var frames: Int { samples.count / format.channels }

    func attach(_ link: WriterLink) throws(OutputError) {
        calls.append("attach")
        mixer = FrameClockMixer(link: link, format: format, chunkFrames: 1024)
    }

    func start() throws(OutputError) { calls.append("start") }

    func render(maxFrames: Int) -> Int {
        guard let mixer, !stopped else { return 0 }
        return mixer.render(maxFrames: maxFrames) { chunk in
            samples.append(contentsOf: chunk.bindMemory(to: Int16.self))
            return true
        }
    }

    func serviceRequests() { mixer?.serviceRequests() }

    func stop() {
        if !stopped { calls.append("stop") }
        stopped = true
    }

    func suspend() -> Bool { false }
    func resume() throws(OutputError) {}
    var isFinished: Bool { stopped }
    var failure: OutputError? { nil }
    func describeLoss(_ event: EngineEvent) -> String { "" }
}

@Suite struct RecordingOutputTests {
    static let fade = 441

    final class Run {
        var recorder: RecordingOutput?
        let engine: PlaybackEngine
        var events: [PlaybackEvent] = []

        init(_ paths: [String]) throws {
            var made: RecordingOutput?
            engine = PlaybackEngine(paths: paths) { format throws(OutputError) in
                let output = RecordingOutput(format: format)
                made = output
                return output
            }
            try engine.open()
            recorder = made
        }

        var output: RecordingOutput { recorder! }

        func pump(maxFrames: Int = 441, until condition: () -> Bool) throws {
            var turns = 0
            while !condition() && !engine.isFinished && turns < 20_000 {
                events += try engine.pump(maxFrames: maxFrames)
                turns += 1
            }
            #expect(condition() || engine.isFinished, "gave up after \(turns) turns")
        }

        var stops: [Int] {
            events.compactMap { if case .mediaStopped(let position) = $0 { position } else { nil } }
        }

        var trackEvents: [String] {
            events.compactMap { event in
                switch event {
                case .trackStarted(let index, _): "start \(index)"
                case .trackEnded(let index, _): "end \(index)"
                default: nil
                }
            }
        }
    }

    /// A 3 s sweep through the recorder, a second of it played, and its `mpg123 -w` decoding.
    func sweepPlayingOneSecond() throws -> (Run, PCMAudio) {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 3)
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let run = try Run([mp3])
        try run.pump { run.engine.heardPosition >= source.sampleRate }
        return (run, source)
    }

    /// The built-in tone's first `frames` frames, as the voice renders them.
    func toneSamples(frames: Int, rate: Int, channels: Int) -> [Int16] {
        (0..<frames).flatMap { frame in
            let sample = Int16((ToneVoice.value(at: Double(frame) / Double(rate)) * 32767).rounded())
            return [Int16](repeating: sample, count: channels)
        }
    }

    func frames(_ audio: [Int16], _ range: Range<Int>, channels: Int) -> ArraySlice<Int16> {
        audio[(range.lowerBound * channels)..<(range.upperBound * channels)]
    }

    /// Where in `recorded` (searching `window`) `count` frames equal to
    /// `expected[from...]` begin.
    func find(_ expected: PCMAudio, from: Int, count: Int, in recorded: [Int16], window: Range<Int>) -> Int? {
        let wanted = frames(expected.samples, from..<(from + count), channels: expected.channels)
        return window.first { start in
            start + count <= recorded.count / expected.channels
                && frames(recorded, start..<(start + count), channels: expected.channels) == wanted
        }
    }

    @Test func pauseStopsAtTheFadesEndAndResumeContinuesFromThatExactFrame() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 4)
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let run = try Run([mp3])
        let channels = source.channels
        try run.pump { run.engine.heardPosition >= source.sampleRate }
        let pauseAt = run.output.frames
        run.engine.pauseMedia(fadeFrames: Self.fade)
        try run.pump { run.engine.isMediaStopped }
        let stop = try #require(run.engine.stopPosition)
        // The fade lasts exactly its frames, from the frame the request found.
        #expect(stop == pauseAt + Self.fade)
        #expect(run.stops == [stop])
        // Paused: the frame clock runs on in silence.
        for _ in 0..<10 { run.events += try run.engine.pump(maxFrames: 441) }
        run.engine.resumeMedia(from: stop, fadeFrames: Self.fade)
        try run.pump { false }
        let recorded = run.output.samples

        #expect(frames(recorded, 0..<pauseAt, channels: channels) == frames(source.samples, 0..<pauseAt, channels: channels))
        let faded = frames(recorded, pauseAt..<stop, channels: channels)
        let original = frames(source.samples, pauseAt..<stop, channels: channels)
        #expect(zip(faded, original).allSatisfy { abs(Int($0)) <= abs(Int($1)) + 1 }, "the fade never amplifies")
        // After the silence and the fade-in, the source goes on from the stop frame, bit-exact.
        let resumed = try #require(find(source, from: stop + Self.fade, count: source.sampleRate / 2, in: recorded,
                                        window: (stop + 4410)..<(stop + 20 * 441)))
        let silence = frames(recorded, stop..<(resumed - Self.fade), channels: channels)
        #expect(silence.allSatisfy { $0 == 0 }, "silence between the stop and the fade-in")
        let tail = source.frameCount - stop - Self.fade
        #expect(run.output.frames == resumed + tail, "the rest of the source, nothing skipped or repeated")
        #expect(frames(recorded, resumed..<(resumed + tail), channels: channels)
            == frames(source.samples, (stop + Self.fade)..<source.frameCount, channels: channels))
        #expect(run.output.calls == ["attach", "start", "stop"])
        #expect(run.engine.isFinished)
    }

    @Test func queueJumpFadesOutAndPlaysTheChosenTrackFromItsOffset() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 3)
        let second = try Fixtures.mp3(.music, seconds: 3)
        let firstAudio = try WAVFile.read(Fixtures.decodedByMPG123(first))
        let secondAudio = try WAVFile.read(Fixtures.decodedByMPG123(second))
        let run = try Run([first, second])
        let rate = firstAudio.sampleRate
        let channels = firstAudio.channels
        try run.pump { run.engine.heardPosition >= rate }
        let jumpAt = run.output.frames
        let offset = rate / 2
        run.engine.jump(toQueueIndex: 1, offsetFrames: offset, fadeFrames: Self.fade)
        try run.pump { false }
        let recorded = run.output.samples

        #expect(frames(recorded, 0..<jumpAt, channels: channels) == frames(firstAudio.samples, 0..<jumpAt, channels: channels))
        // A jump is not a pause: no stop is announced.
        #expect(run.stops.isEmpty)
        let landed = try #require(find(secondAudio, from: offset + Self.fade, count: rate / 2, in: recorded,
                                       window: (jumpAt + 2 * Self.fade)..<(jumpAt + 20 * 441)))
        // Between the fade-out's end and the fade-in, only silence.
        #expect(frames(recorded, (jumpAt + Self.fade)..<(landed - Self.fade), channels: channels).allSatisfy { $0 == 0 })
        let tail = secondAudio.frameCount - offset - Self.fade
        #expect(run.output.frames == landed + tail)
        #expect(frames(recorded, landed..<(landed + tail), channels: channels)
            == frames(secondAudio.samples, (offset + Self.fade)..<secondAudio.frameCount, channels: channels))
        #expect(run.trackEvents == ["start 0", "end 0", "start 1", "end 1"])
    }

    /// An alarm starts its voice just before its session pauses the music, so
    /// that the pause goes to the writer at once and finds the voice there: the
    /// exclusive voice waits for that pause (the music plays on, unfaded, until
    /// it comes) and the tone follows the stop on the next frame.
    @Test func anExclusiveVoiceStartedBeforeThePauseWaitsForItAndFollowsTheStop() throws {
        let (run, source) = try sweepPlayingOneSecond()
        let rate = source.sampleRate
        let channels = source.channels
        let voiceAt = run.output.frames
        run.engine.startVoice(ToneVoice(), exclusive: true)
        try run.pump { run.output.frames >= voiceAt + rate / 10 }
        #expect(!run.engine.isMediaStopped, "the voice stopped the music without a pause")
        let paused = run.output.frames
        let unchanged = frames(run.output.samples, voiceAt..<paused, channels: channels)
            == frames(source.samples, voiceAt..<paused, channels: channels)
        #expect(unchanged, "the music changed before its pause")
        run.engine.pauseMedia(fadeFrames: Self.fade)
        try run.pump { run.engine.isMediaStopped }
        let stop = try #require(run.engine.stopPosition)
        #expect(stop == paused + Self.fade)
        let ring = rate / 10
        try run.pump { run.output.frames >= stop + ring }
        let tone = toneSamples(frames: ring, rate: rate, channels: channels)
        let heard = frames(run.output.samples, stop..<(stop + ring), channels: channels)
        #expect(zip(heard, tone).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "the tone right after the stop")
    }

    @Test func alarmVoiceFollowsTheStopOnTheNextFrameAndTheMediaResumesWhereItStopped() throws {
        let (run, source) = try sweepPlayingOneSecond()
        let rate = source.sampleRate
        let channels = source.channels
        // The pause and the exclusive voice in one turn, the voice second.
        run.engine.pauseMedia(fadeFrames: Self.fade)
        run.engine.startVoice(ToneVoice(), exclusive: true)
        try run.pump { run.engine.isMediaStopped }
        let stop = try #require(run.engine.stopPosition)
        let ring = rate / 2
        try run.pump { run.output.frames >= stop + ring }
        run.engine.stopVoice(fadeFrames: Self.fade)
        try run.pump { !run.engine.isVoiceSounding }
        run.engine.resumeMedia(from: stop, fadeFrames: Self.fade)
        try run.pump { false }
        let recorded = run.output.samples

        // The tone, from its first sample, on the frame after the media stopped.
        let tone = toneSamples(frames: ring, rate: rate, channels: channels)
        let heard = frames(recorded, stop..<(stop + ring), channels: channels)
        #expect(zip(heard, tone).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "the tone right after the stop")
        let resumed = try #require(find(source, from: stop + Self.fade, count: rate / 2, in: recorded,
                                        window: (stop + ring)..<(stop + ring + 20 * 441)))
        let tail = source.frameCount - stop - Self.fade
        #expect(run.output.frames == resumed + tail)
        #expect(frames(recorded, resumed..<(resumed + tail), channels: channels)
            == frames(source.samples, (stop + Self.fade)..<source.frameCount, channels: channels))
    }
}
