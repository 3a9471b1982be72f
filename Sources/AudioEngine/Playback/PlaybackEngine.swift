#if canImport(Glibc)
import Glibc
#endif

/// The pipeline for a list of files: `TrackFeeder` -> media ring -> output,
/// plus an interrupter voice (alarm tone, chime) mixed by the same writer.
///
/// The main loop calls `pump()`: it tops up the rings, renders (file sinks)
/// or lets the writer thread play (ALSA), carries out pending pause/resume
/// steps, and turns what happened into `PlaybackEvent`s in the order the
/// listener heard them. Decoding runs on the main loop's thread: a refill of
/// a quarter of the ring takes well under a millisecond, and keeping it there
/// needs no lock between decoder and UI.
///
/// Positions are stream frames (frame 0 is the first frame of the first
/// file) of what the listener heard.
public final class PlaybackEngine {
    public enum Output: Equatable, Sendable {
        case alsa(device: String, latencyMilliseconds: Int)
        case wav(path: String)
        case null
    }

    public enum StartError: Error, Sendable, CustomStringConvertible {
        case nothingPlayable
        case device(AlsaError)
        case file(FileSink.FileError)
        case thread

        public var description: String {
            switch self {
            case .nothingPlayable: "nothing to play: no file could be decoded"
            case .device(let error): error.description
            case .file(let error): error.description
            case .thread: "could not start the audio writer thread"
            }
        }
    }

    public let output: Output
    public let feeder: TrackFeeder
    public private(set) var format = AudioFormat(rate: 44100, channels: 2)
    private var ring: SPSCRing?
    private var voiceRing: SPSCRing?
    private let events = SPSCRing(minimumCapacity: 256, slotBytes: EngineEvent.slotBytes)
    private var alsa: AlsaWriter?
    private var file: FileSink?
    private var control: UnsafeMutablePointer<WriterControl>?
    private var started = false
    private var announcedStart = -1
    private var announcedEnd = -1
    public private(set) var isFinished = false
    /// Set when the writer thread had to settle for normal scheduling.
    public private(set) var realtimeRefused = false

    // Stream position = streamBase + (writer media frames - writerBase).
    private var streamBase = 0
    private var writerBase = 0
    private var voice: VoiceSource?
    private var voiceHasMore = false
    /// Where a resume continues: a stream frame, or a queue entry not yet
    /// decoded (a jump), resolved once the media has stopped.
    private enum ResumeTarget {
        case frame(Int)
        case queue(index: Int, offset: Int)
    }
    private var pendingResume: (target: ResumeTarget, fadeStep: Float, flushEpoch: Int)?
    /// The end of the queue stops the media rather than the output (a player
    /// that stays open waits for more to play).
    public var keepsOutputAtQueueEnd = false
    private var queueEndRequested = false
    private var flushEpoch = 0
    /// ALSA: the device's buffer, which the media ring holds on top of the frames ahead.
    private var deviceBufferFrames = 0
    private var stopAnnounced = false

    public init(paths: [String], output: Output) {
        self.output = output
        feeder = TrackFeeder(paths: paths)
    }

    deinit { stop() }

    /// Opens the first decodable file and the output. Decoding errors of files
    /// skipped on the way come out of the first `pump()`.
    public func open() throws(StartError) {
        var opened = feeder.openFirst()
        if opened == nil && feeder.paths.isEmpty && keepsOutputAtQueueEnd {
            // Nothing to play yet: the output opens in CD format, later files convert to it.
            let fallback = AudioFormat(rate: 44100, channels: 2)
            feeder.startEmpty(format: fallback)
            opened = fallback
        }
        guard let format = opened else { throw .nothingPlayable }
        self.format = format
        let voiceRing = SPSCRing(minimumCapacity: format.rate / 2, slotBytes: format.bytesPerFrame)
        self.voiceRing = voiceRing
        switch output {
        case .alsa(let device, let latency):
            let pcm: AlsaPCM
            do { pcm = try AlsaPCM(device: device, format: format, latencyMilliseconds: latency) } catch {
                throw .device(error)
            }
            // A third of a second of decoded audio ahead, plus the device's buffer:
            // the writer keeps what it wrote in the ring until it is heard, so that a
            // pause can drop the device's queue and fade from the frame being heard
            // (0.74 s at 44.1 kHz once rounded to a power of two). The main loop
            // refills every quarter of the part ahead. Larger costs resident memory,
            // which the benchmark holds under 12 MB.
            let ring = SPSCRing(minimumCapacity: max(format.rate / 3, pcm.periodFrames * 2) + pcm.bufferFrames,
                                slotBytes: format.bytesPerFrame)
            deviceBufferFrames = pcm.bufferFrames
            self.ring = ring
            let writer = AlsaWriter(pcm: pcm, ring: ring, voice: voiceRing, events: events)
            alsa = writer
            control = writer.control
        case .wav, .null:
            let ring = SPSCRing(minimumCapacity: 16384, slotBytes: format.bytesPerFrame)
            self.ring = ring
            let destination: FileSink.Destination
            if case .wav(let path) = output { destination = .wav(path: path) } else { destination = .null }
            let sink: FileSink
            do { sink = try FileSink(destination, format: format, ring: ring, voice: voiceRing, events: events) } catch {
                throw .file(error)
            }
            file = sink
            control = sink.control
        }
        if volume != 1 { applyVolume(rampFrames: 1) }
    }

    /// True for the WAV and null sinks: time is the frames rendered.
    public var rendersOnFrameClock: Bool { file != nil }

    /// Media stream frame the listener has heard up to: a source frame (book
    /// time) at any speed.
    ///
    /// On ALSA the writer measures it once a period; between measurements, while
    /// the media plays, it moves on with the clock (never past what was written),
    /// so an alarm's due position is the frame heard at that moment.
    public var heardPosition: Int {
        guard let control else { return 0 }
        var heard = control.pointee.heardFrames.load(ordering: .acquiring)
        let measured = control.pointee.heardNanoseconds.load(ordering: .acquiring)
        if alsa != nil, measured > 0, control.pointee.mediaRun.load(ordering: .relaxed),
           !control.pointee.mediaStopped.load(ordering: .relaxed) {
            let elapsed = max(0, WriterControl.monotonicNanoseconds() - measured)
            let written = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
            heard = min(written, heard + elapsed / 1000 * format.rate / 1_000_000)
        }
        return streamBase + feeder.sourceOffset(forOutputOffset: max(0, heard - writerBase))
    }

    /// Every frame sent to the output (media, voice and silence): the frame clock.
    public var deviceFramesWritten: Int {
        control?.pointee.deviceFramesWritten.load(ordering: .acquiring) ?? 0
    }

    public var underruns: Int { control?.pointee.underruns.load(ordering: .relaxed) ?? 0 }

    /// True while a resume or a jump is under way: the media may be stopped for
    /// a moment, but it starts again by itself.
    public var isResumePending: Bool {
        guard let control else { return false }
        // Or handed to the writer, which restarts the media on its next write.
        return pendingResume != nil
            || (control.pointee.mediaRun.load(ordering: .relaxed) && control.pointee.mediaStopped.load(ordering: .acquiring))
    }

    /// True once a pause has taken effect: the media is silent and frozen.
    public var isMediaStopped: Bool { control?.pointee.mediaStopped.load(ordering: .acquiring) ?? false }

    /// Where the media stopped (stream frame), once `isMediaStopped`.
    public var stopPosition: Int? {
        guard let control, isMediaStopped else { return nil }
        let output = control.pointee.mediaStoppedAt.load(ordering: .acquiring) - writerBase
        return streamBase + (output > 0 ? feeder.sourceOffset(forOutputOffset: output) : output)
    }

    // MARK: Speed

    /// Playback speed, pitch kept (libsonic); 1.0x passes the decoder's frames
    /// through untouched. Positions stay in source frames at any speed.
    public var speed: PlaybackSpeed { feeder.speed }

    /// Changes the speed from the next frames decoded: the ring's worth
    /// already decoded plays out first (a third of a second with ALSA), and
    /// the position runs on without a jump.
    public func setSpeed(_ speed: PlaybackSpeed) throws(SpeedError) {
        try feeder.setSpeed(speed)
    }

    // MARK: Actions

    /// Fades the media out over `fadeFrames` and stops it at the exact frame the
    /// fade reached silence. `stopPosition` tells where, once it has happened.
    ///
    /// The request reaches the writer at the start of the next `pump()`, after
    /// whatever else this turn of the main loop asked for: an alarm starts its
    /// voice right after pausing the music, and filling that voice takes a
    /// moment; the writer must see both together, or it would stop the music
    /// and write silence until the voice arrived.
    public func pauseMedia(fadeFrames: Int) {
        guard control != nil else { return }
        pendingResume = nil
        stopAnnounced = false
        pendingPauseStep = GainRamp.step(overFrames: fadeFrames)
    }

    private var pendingPauseStep: Float?

    private func applyPendingPause() {
        guard let step = pendingPauseStep, let control else { return }
        pendingPauseStep = nil
        control.pointee.mediaFadeStepBits.store(step.bitPattern, ordering: .relaxed)
        control.pointee.pauseDropsQueue.store(true, ordering: .relaxed)
        control.pointee.mediaRun.store(false, ordering: .releasing)
        alsa?.wake()
    }

    /// Takes back a pause whose fade has not reached silence: the media ramps
    /// back up from the gain the fade reached (at the rate of a `fadeFrames`
    /// fade-in) and plays on from where it is, with nothing skipped or
    /// repeated. A sleep timer's 10 s fade is the case that matters: the
    /// listener who presses play in it is awake. False when the media has
    /// already stopped (resume it with `resumeMedia`) or is not pausing.
    public func cancelPause(fadeFrames: Int) -> Bool {
        guard let control, pendingResume == nil else { return false }
        if pendingPauseStep != nil {
            // Not handed to the writer yet: nothing to take back there.
            pendingPauseStep = nil
            return true
        }
        guard !control.pointee.mediaRun.load(ordering: .relaxed), !isMediaStopped, !queueEndRequested else { return false }
        // If the writer reaches silence before it sees this, it starts again from
        // the frame it stopped at; with `mediaRun` set, no stop is announced.
        control.pointee.mediaFadeStepBits.store(GainRamp.step(overFrames: fadeFrames).bitPattern, ordering: .relaxed)
        control.pointee.mediaRun.store(true, ordering: .releasing)
        alsa?.wake()
        return true
    }

    /// Continues the media from stream frame `frame` with a fade-in: once the
    /// media has stopped, the writer empties the media ring, the decoder seeks
    /// to `frame` and refills, and the media ramps in. Carried out by `pump()`.
    public func resumeMedia(from frame: Int, fadeFrames: Int) {
        guard control != nil else { return }
        flushEpoch += 1
        pendingResume = (.frame(frame), GainRamp.step(overFrames: fadeFrames), flushEpoch)
    }

    // MARK: The queue

    /// Moves playback to queue entry `index`, `offsetFrames` into it (or the
    /// first playable entry after it): the media fades out, decoding restarts
    /// there, and the media fades in. While the media is stopped (paused), it
    /// resumes there. Track events follow as the listener reaches them.
    public func jump(toQueueIndex index: Int, offsetFrames: Int, fadeFrames: Int) {
        guard control != nil else { return }
        if !isMediaStopped { pauseMedia(fadeFrames: fadeFrames) }
        flushEpoch += 1
        queueEndRequested = false
        pendingResume = (.queue(index: index, offset: offsetFrames), GainRamp.step(overFrames: fadeFrames), flushEpoch)
    }

    /// Before the first `pump()`: start at queue entry `index`, `offsetFrames`
    /// into it, instead of the beginning. False when nothing from there decodes.
    @discardableResult
    public func start(atQueueIndex index: Int, offsetFrames: Int) -> Bool {
        guard !started, deviceFramesWritten == 0, let ring, ring.count == 0 else { return false }
        guard let frame = feeder.prepareJump(toQueueIndex: index, offset: offsetFrames, stoppedAt: nil),
              feeder.seek(toStreamFrame: frame) else { return false }
        streamBase = frame
        writerBase = 0
        return true
    }

    /// Adds files to the end of the queue.
    public func enqueue(_ paths: [String]) {
        // Once the media stopped at the end, the new files wait for a jump or a
        // resume; before that they follow the last track gaplessly.
        feeder.append(paths, continueDecoding: !queueEndRequested)
    }

    /// The queue entry the listener is in, and how far into it (frames).
    public var heardTrack: (track: TrackFeeder.Track, offset: Int)? {
        let heard = stopPosition ?? heardPosition
        guard let track = feeder.track(containing: heard) else { return nil }
        return (track, heard - track.startFrame)
    }

    /// Ramps the media gain to `gain` over `rampFrames` (ducking), or back to 1.
    public func setDuck(gain: Double, rampFrames: Int) {
        guard let control else { return }
        let from = Float(bitPattern: control.pointee.duckTargetBits.load(ordering: .relaxed))
        let step = GainRamp.step(from: from, to: Float(gain), overFrames: rampFrames)
        control.pointee.duckStepBits.store(step.bitPattern, ordering: .relaxed)
        control.pointee.duckTargetBits.store(Float(gain).bitPattern, ordering: .relaxed)
    }

    /// The user's volume for the media, a linear gain (0 silent, 1 as decoded;
    /// more than 1 amplifies and may clip). It ramps over 20 ms, so a change
    /// never clicks; it multiplies with ducking and the pause fade.
    public func setVolume(_ gain: Double) {
        volume = max(0, gain)
        applyVolume(rampFrames: max(1, format.rate / 50))
    }

    /// Hands the volume to the writer; `rampFrames` 1 sets it from the next frame
    /// (before anything played, or on a new device).
    private func applyVolume(rampFrames: Int) {
        guard let control else { return }
        let target = Float(volume)
        let from = Float(bitPattern: control.pointee.volumeTargetBits.load(ordering: .relaxed))
        // One frame means from the next frame, whatever the ramp in progress has reached.
        let step = rampFrames <= 1 ? Float(1e9) : GainRamp.step(from: from, to: target, overFrames: rampFrames)
        control.pointee.volumeStepBits.store(step.bitPattern, ordering: .relaxed)
        control.pointee.volumeTargetBits.store(target.bitPattern, ordering: .releasing)
    }

    /// The volume last set with `setVolume(_:)` (1 at start).
    public private(set) var volume: Double = 1

    /// Starts the interrupter voice. `exclusive`: it sounds only once the media
    /// has stopped (alarms); otherwise it mixes over the media (chimes).
    public func startVoice(_ source: VoiceSource, exclusive: Bool, gain: Double = 1, fadeFrames: Int = 0) {
        guard let control, let voiceRing else { return }
        voice = source
        // Only the consumer empties a ring, and only while the voice is stopped:
        // a new voice right after another waits for that flush in `pump()`.
        voiceHasMore = source.fill(voiceRing.producer, format: format, maxFrames: voiceRing.capacity)
        control.pointee.voiceExclusive.store(exclusive, ordering: .relaxed)
        control.pointee.voiceGainBits.store(Float(gain).bitPattern, ordering: .relaxed)
        control.pointee.voiceStepBits.store(GainRamp.step(overFrames: fadeFrames).bitPattern, ordering: .relaxed)
        control.pointee.voiceRun.store(true, ordering: .releasing)
        alsa?.wake()
    }

    /// Fades the voice out; what is left in its ring is dropped once it is silent.
    public func stopVoice(fadeFrames: Int) {
        guard let control else { return }
        voice = nil
        voiceHasMore = false
        control.pointee.voiceStepBits.store(GainRamp.step(overFrames: fadeFrames).bitPattern, ordering: .relaxed)
        control.pointee.voiceRun.store(false, ordering: .releasing)
        control.pointee.voiceFlushRequest.add(1, ordering: .releasing)
        alsa?.wake()
    }

    public var isVoiceSounding: Bool { !(control?.pointee.voiceStopped.load(ordering: .acquiring) ?? true) }

    /// True after the device failed beyond recovery, until `reopenOutput()`.
    public private(set) var isOutputLost = false

    /// Job control: stops the writer and releases the device's queue, the
    /// media frozen at the last frame heard. `resumeOutput()` undoes it.
    public func suspendOutput() {
        guard let alsa else { return }
        pendingPauseStep = nil
        alsa.stop()
        alsa.freezeAtHeardPosition()
        pendingResume = nil
        voice = nil
        voiceHasMore = false
        stopAnnounced = false
    }

    /// After `suspendOutput()`: the device is prepared and the writer runs
    /// again (silent until a resume).
    public func resumeOutput() throws(StartError) {
        guard let alsa, !isOutputLost else { return }
        guard alsa.restart() else { throw .thread }
    }

    /// Opens the device again after it was lost, the media frozen where the
    /// listener stopped hearing it. Throws when it is still unavailable.
    public func reopenOutput() throws(StartError) {
        guard case .alsa(let device, let latency) = output, let ring, let voiceRing, isOutputLost else { return }
        let stop = stopPosition ?? heardPosition
        let pcm: AlsaPCM
        do { pcm = try AlsaPCM(device: device, format: format, latencyMilliseconds: latency) } catch {
            throw .device(error)
        }
        alsa = nil
        let writer = AlsaWriter(pcm: pcm, ring: ring, voice: voiceRing, events: events)
        writer.context.pointee.freezeMedia(at: 0)
        alsa = writer
        control = writer.control
        applyVolume(rampFrames: 1)
        streamBase = stop
        writerBase = 0
        // The writer counts from 0 again: so does the output side of the speed map.
        feeder.resetPositionMap()
        started = false
        isOutputLost = false
        stopAnnounced = true
    }

    /// Stops output at once and finishes.
    public func stop() {
        alsa?.stop()
        file?.close()
    }

    /// Ends a render whose media will not continue (paused for good).
    public func finish() -> [PlaybackEvent] {
        var result: [PlaybackEvent] = []
        stop()
        finish(into: &result)
        return result
    }

    // MARK: The pump

    /// Does the next slice of work and returns what the listener has now heard
    /// happen. File sinks render at most `maxFrames` device frames, so a caller
    /// on the frame clock can stop exactly at a timer's deadline. For ALSA
    /// output, call again within `suggestedWaitMilliseconds`.
    public func pump(maxFrames: Int = 65536) throws(StartError) -> [PlaybackEvent] {
        guard let ring, !isFinished else { return [] }
        var result: [PlaybackEvent] = []
        applyPendingPause()
        carryOutPendingResume()
        if pendingResume == nil { feeder.fill(ring.producer) }
        if let control {
            feeder.forgetPositions(before: control.pointee.heardFrames.load(ordering: .acquiring) - writerBase)
        }
        collectFeederEvents(into: &result)
        topUpVoice()
        requestStopAtQueueEnd(ring)
        if let file {
            // A queue that keeps its output renders on through the end and through silence.
            if pendingResume != nil || file.mediaIsStopped || ring.count > 0 || keepsOutputAtQueueEnd {
                file.render(maxFrames: maxFrames)
            }
            collectStop(into: &result)
            collectTrackEvents(heard: heardPosition, into: &result)
            if let error = file.writeError {
                // Nothing more can be kept: say so and stop, rather than decode into the void.
                result.append(.outputFailed(message: error.description))
                file.close()
                finish(into: &result)
                return result
            }
            if feeder.isExhausted && ring.count == 0 && !file.mediaIsStopped && pendingResume == nil
                && !keepsOutputAtQueueEnd {
                file.close()
                finish(into: &result)
            }
            return result
        }
        guard let alsa else { return [] }
        if isOutputLost { return result }
        if !started {
            guard alsa.start() else { throw .thread }
            started = true
            realtimeRefused = !alsa.isRealtime
        }
        alsa.control.pointee.endOfStream.store(feeder.isExhausted && pendingResume == nil && !keepsOutputAtQueueEnd,
                                               ordering: .releasing)
        let lost = drainEngineEvents(into: &result)
        collectStop(into: &result)
        collectTrackEvents(heard: heardPosition, into: &result)
        if lost {
            // Keep what was heard: the media counts as stopped there, and nothing
            // runs until the user asks for it (the device may come back).
            alsa.stop()
            alsa.freezeAtHeardPosition()
            isOutputLost = true
            pendingResume = nil
            collectStop(into: &result)
            collectTrackEvents(heard: heardPosition, into: &result)
        } else if alsa.finished && !isOutputLost {
            alsa.stop()
            collectTrackEvents(heard: heardPosition, into: &result)
            finish(into: &result)
        }
        return result
    }

    /// How long the main loop may sleep before the rings need topping up: a
    /// third of the ring's part ahead of the device, at most 250 ms; 10 ms while a resume is
    /// in progress; -1 (no need to wake) while the device is lost. Zero for file sinks.
    public var suggestedWaitMilliseconds: Int {
        guard alsa != nil, let ring else { return 0 }
        if isOutputLost { return -1 }
        if pendingResume != nil || pendingPauseStep != nil { return 10 }
        // A pause in progress: look again soon, so the stop is reported when it happens.
        if let control, !control.pointee.mediaRun.load(ordering: .relaxed),
           !control.pointee.mediaStopped.load(ordering: .relaxed) { return 10 }
        // A third of the part of the ring ahead of the device (the rest holds what the
        // device has not played yet): 147 ms at 44.1 kHz, leaving two thirds of it,
        // 0.3 s, for a late wake-up. Each wake-up costs CPU whatever it decodes.
        return min(250, (ring.capacity - deviceBufferFrames) * 1000 / format.rate / 3)
    }

    /// With `keepsOutputAtQueueEnd`: once the last decoded frame has gone to the
    /// output, the media stops there (no fade: the track ended by itself), and
    /// `mediaStopped` reports the end like a pause.
    private func requestStopAtQueueEnd(_ ring: SPSCRing) {
        guard keepsOutputAtQueueEnd, !queueEndRequested, feeder.isExhausted, pendingResume == nil,
              pendingPauseStep == nil, let control,
              ring.writtenIndex == control.pointee.mediaCursor.load(ordering: .acquiring),
              control.pointee.mediaRun.load(ordering: .relaxed) else { return }
        queueEndRequested = true
        stopAnnounced = false
        control.pointee.mediaFadeStepBits.store(Float(1).bitPattern, ordering: .relaxed)
        // Not a pause: what the device holds is the end of the last track.
        control.pointee.pauseDropsQueue.store(false, ordering: .relaxed)
        control.pointee.mediaRun.store(false, ordering: .releasing)
        alsa?.wake()
    }

    /// True once the media stopped because the queue ran out (`keepsOutputAtQueueEnd`).
    public var isAtQueueEnd: Bool { queueEndRequested && isMediaStopped }

    private func carryOutPendingResume() {
        guard let request = pendingResume, let control, let ring else { return }
        guard control.pointee.mediaStopped.load(ordering: .acquiring) else {
            // Still fading out (or never paused): make sure it is heading for a stop.
            if control.pointee.mediaRun.load(ordering: .relaxed) {
                control.pointee.mediaRun.store(false, ordering: .releasing)
            }
            return
        }
        if control.pointee.mediaFlushRequest.load(ordering: .relaxed) < request.flushEpoch {
            control.pointee.mediaFlushRequest.store(request.flushEpoch, ordering: .releasing)
            alsa?.wake()
        }
        if let file {
            // The file sink's consumer is this thread: let it serve the flush now.
            file.render(maxFrames: 0)
            file.serviceRequests()
        }
        guard control.pointee.mediaFlushAck.load(ordering: .acquiring) >= request.flushEpoch else { return }
        let frame: Int
        switch request.target {
        case .frame(let target):
            frame = target
        case .queue(let index, let offset):
            let stop = stopPosition ?? heardPosition
            guard let target = feeder.prepareJump(toQueueIndex: index, offset: offset, stoppedAt: stop) else {
                // Nothing playable from there: the media stays stopped, at the end of the queue.
                pendingResume = nil
                queueEndRequested = true
                stopAnnounced = false
                return
            }
            frame = target
        }
        _ = feeder.seek(toStreamFrame: frame)
        feeder.fill(ring.producer)
        writerBase = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
        streamBase = frame
        // Heard positions before the seek must not map onto the new base, nor move on
        // with the clock until the writer has measured one.
        control.pointee.heardNanoseconds.store(0, ordering: .relaxed)
        control.pointee.heardFrames.store(writerBase, ordering: .releasing)
        if let index = feeder.tracks.lastIndex(where: { $0.startFrame <= frame }) {
            announcedStart = min(announcedStart, index)
            announcedEnd = min(announcedEnd, index - 1)
        }
        control.pointee.mediaFadeStepBits.store(request.fadeStep.bitPattern, ordering: .relaxed)
        control.pointee.mediaRun.store(true, ordering: .releasing)
        alsa?.wake()
        pendingResume = nil
        stopAnnounced = false
    }

    private func topUpVoice() {
        guard let voice, let voiceRing, voiceHasMore else { return }
        voiceHasMore = voice.fill(voiceRing.producer, format: format, maxFrames: voiceRing.producer.freeSlots())
    }

    private func collectStop(into result: inout [PlaybackEvent]) {
        guard !stopAnnounced, pendingResume == nil, let position = stopPosition,
              control?.pointee.mediaRun.load(ordering: .relaxed) == false else { return }
        stopAnnounced = true
        result.append(.mediaStopped(position: position))
    }

    private func finish(into result: inout [PlaybackEvent]) {
        guard !isFinished else { return }
        isFinished = true
        if announcedEnd < announcedStart, announcedStart >= 0 {
            let track = feeder.tracks[announcedStart]
            result.append(.trackEnded(index: track.index, path: track.path))
            announcedEnd = announcedStart
        }
        result.append(.finished(underruns: underruns))
    }

    private func collectFeederEvents(into result: inout [PlaybackEvent]) {
        for event in feeder.takeEvents() {
            switch event {
            case .failed(let error): result.append(.skipped(error))
            case .truncated(let path, let decoded, let expected):
                result.append(.truncated(path: path, seconds: format.seconds(forFrames: decoded),
                                         expectedSeconds: format.seconds(forFrames: expected)))
            }
        }
    }

    /// Announces track starts and ends the listener has reached.
    private func collectTrackEvents(heard: Int, into result: inout [PlaybackEvent]) {
        let tracks = feeder.tracks
        while true {
            let next = announcedStart + 1
            if announcedEnd < announcedStart {
                // The current track ends when its last frame has been heard.
                let current = tracks[announcedStart]
                guard let end = current.endFrame, heard >= end, end > current.startFrame || next < tracks.count
                else { break }
                result.append(.trackEnded(index: current.index, path: current.path))
                announcedEnd = announcedStart
            } else if next < tracks.count, heard >= tracks[next].startFrame {
                result.append(.trackStarted(index: tracks[next].index, path: tracks[next].path))
                announcedStart = next
            } else {
                break
            }
        }
    }

    private func drainEngineEvents(into result: inout [PlaybackEvent]) -> Bool {
        var lost = false
        var event = EngineEvent(kind: .drained, frame: 0)
        let consumer = events.consumer
        while withUnsafeMutableBytes(of: &event, { consumer.pop(into: $0.baseAddress!) }) {
            switch event.kind {
            case .underrun: result.append(.underrun)
            case .starved:
                // At the end of a queue that keeps the output, the writer may run dry
                // before the media stop reaches it: that is not an underrun.
                if !(keepsOutputAtQueueEnd && feeder.isExhausted) { result.append(.starved) }
            case .deviceLost:
                lost = true
                result.append(.deviceLost(message: AlsaError(device: deviceName, operation: "write",
                                                              code: Int32(truncatingIfNeeded: event.value)).description))
            case .drained, nil: break
            }
        }
        return lost
    }

    private var deviceName: String {
        if case .alsa(let device, _) = output { return device }
        return ""
    }
}

/// What the listener heard happen, in order.
public enum PlaybackEvent: Sendable {
    case trackStarted(index: Int, path: String)
    case trackEnded(index: Int, path: String)
    case skipped(DecoderError)
    case truncated(path: String, seconds: Double, expectedSeconds: Double)
    case underrun
    case starved
    case deviceLost(message: String)
    /// The output file could not be written (the render stops).
    case outputFailed(message: String)
    /// A pause took effect: the media is silent from this stream frame on.
    case mediaStopped(position: Int)
    case finished(underruns: Int)
}
