#if canImport(Glibc)
import Glibc
#endif

/// Everything a writer loop touches, in one manually allocated block: raw
/// pointers, ring halves (pointer bundles), plain numbers. No class references,
/// so passing it to the real-time thread as a raw pointer involves no ARC.
/// Used by the real-time writer (`writerLoop`, over ALSA or PulseAudio) and, on
/// the main thread, by `FileSink`: one mixer for all, so a WAV render is what
/// the device would have played.
struct WriterContext {
    let control: UnsafeMutablePointer<WriterControl>
    let audio: SPSCRing.Consumer
    let voice: SPSCRing.Consumer
    let events: SPSCRing.Producer
    let channels: Int
    /// Mix buffer of `scratchFrames` frames, allocated and touched before the thread starts.
    let scratch: UnsafeMutablePointer<Int16>
    let scratchFrames: Int
    /// The real-time writer's period (the most it mixes at a time) and, set
    /// before its thread starts, the stream's rate.
    let periodFrames: Int
    var rate = 44100
    /// Set by the writer just before it leaves the loop having posted `deviceLost`;
    /// read by the engine's thread only after joining it. A lost device is asked
    /// nothing more (see `AlsaOutput.freezeAtHeardPosition`).
    var deviceLost = false

    // Writer-owned state.
    var run = GainRamp(current: 1)
    var duck = GainRamp(current: 1)
    var volume = GainRamp(current: 1)
    /// Absolute index in the media ring of the next frame to mix. The ring keeps
    /// the frames before it until they are heard (`publishHeard` releases them),
    /// so that after a drop the writer can go back to the frame being heard.
    var mediaCursor = 0
    /// The run request as the real-time writer loop last saw it, so `mix` fades
    /// only after the loop has dropped the device's queue for that pause (nil:
    /// read `mediaRun` directly, as the file sinks do).
    var runLatch: Bool?
    var voiceGain = GainRamp(current: 0)
    var mediaStopped = false
    var voiceStopped = true
    /// What the last `mix` took from each ring, committed by `commit(_:)`.
    var pendingMedia = 0
    var pendingVoice = 0
    var pendingVoiceStart = 0
    var stopsMediaAfterPending = false
    var stopsVoiceAfterPending = false
    /// Device frames written since the media stopped (for the heard position).
    var framesSinceMediaStop = 0
    /// Device frames written since the voice last stopped (at least; "long ago" at start).
    var framesSinceVoiceStop = Int.max / 2
    /// The track's gain (ReplayGain) and the one before it, the ring index it
    /// began at, and the engine's marks applied so far (see `applyTrackGainMarks`).
    var trackGain: Float = 1
    var previousTrackGain: Float = 1
    var trackGainStart = 0
    var trackGainMarksApplied = 0

    /// Sends an event to the main thread; drops it if that ring is full (the
    /// main thread is far behind, and counters still tell the story).
    /// (`kind` is the raw value: an enum's synthesized `rawValue` getter is opaque to @_noLocks.)
    @_noLocks
    func post(_ kind: UInt32, value: Int = 0, call: UInt32 = 0) {
        var event = EngineEvent(kindRawValue: kind,
                                frame: Int64(control.pointee.mediaFramesWritten.load(ordering: .relaxed)),
                                value: Int64(value), callRawValue: call)
        _ = withUnsafeMutableBytes(of: &event) { events.push(UnsafeRawPointer($0.baseAddress!)) }
    }

    /// Empties a ring on request, only while its voice is stopped, so a flush
    /// never cuts audio mid-ramp (and only here: the consumer side).
    @_noLocks
    mutating func serviceFlushes() {
        if mediaStopped {
            let request = control.pointee.mediaFlushRequest.load(ordering: .acquiring)
            if request != control.pointee.mediaFlushAck.load(ordering: .relaxed) {
                _ = audio.discardAll()
                mediaCursor = audio.readIndex()
                control.pointee.mediaCursor.store(mediaCursor, ordering: .releasing)
                control.pointee.mediaFlushAck.store(request, ordering: .releasing)
            }
        }
        if voiceStopped {
            let request = control.pointee.voiceFlushRequest.load(ordering: .acquiring)
            if request != control.pointee.voiceFlushAck.load(ordering: .relaxed) {
                _ = voice.discardAll()
                control.pointee.voiceFlushAck.store(request, ordering: .releasing)
            }
        }
    }

    /// Restarts the heard pair where the engine asked (after a seek), at most
    /// once per request. Called by `mix` after it has loaded the run request, so a
    /// resume's reset (stored before `mediaRun`) is always carried out before the
    /// media starts again and the engine reads the new heard pair with it.
    @_noLocks
    mutating func serviceHeardReset() {
        // Acquire: pairs with the engine's release store of the request, after the frame.
        let request = control.pointee.heardResetRequest.load(ordering: .acquiring)
        guard request != control.pointee.heardResetAck.load(ordering: .relaxed) else { return }
        control.pointee.publishHeard(frames: control.pointee.heardResetFrame.load(ordering: .relaxed), nanoseconds: 0)
        control.pointee.heardResetAck.store(request, ordering: .releasing)
    }

    /// With no writer thread running (after `pthread_join`, before `pthread_create`),
    /// the engine's thread is the writer side: the loop may run again.
    mutating func prepareRestart() {
        control.pointee.finished.store(false, ordering: .relaxed)
        deviceLost = false
    }

    /// Called with no writer running: the media counts as stopped at `frame`
    /// (writer frames), silent, and the voice as stopped, both rings to be
    /// flushed on the next resume.
    mutating func freezeMedia(at frame: Int) {
        mediaStopped = true
        run = GainRamp(current: 0)
        voiceStopped = true
        voiceGain = GainRamp(current: 0)
        framesSinceMediaStop = 0
        control.pointee.mediaRun.store(false, ordering: .relaxed)
        control.pointee.mediaFramesWritten.store(frame, ordering: .relaxed)
        control.pointee.mediaStoppedAt.store(frame, ordering: .relaxed)
        control.pointee.publishHeard(frames: frame, nanoseconds: 0)
        control.pointee.mediaStopped.store(true, ordering: .releasing)
        control.pointee.voiceRun.store(false, ordering: .relaxed)
        control.pointee.voiceStopped.store(true, ordering: .releasing)
    }

    /// True when the media voice is stopped and will not restart on its own.
    var isMediaStopped: Bool { mediaStopped }

    /// Mixes the next device frames into `scratch` and returns how many (at
    /// most `maxFrames`). While media plays, the media ring paces the output:
    /// 0 means it is empty (starved, or the end of the stream). While media is
    /// stopped, it returns `maxFrames` of silence plus the voice. The rings are
    /// only read here; `commit(_:)` releases what the device accepted.
    @_noLocks
    mutating func mix(maxFrames: Int) -> Int {
        serviceFlushes()
        let control = self.control


        let exclusive = control.pointee.voiceExclusive.load(ordering: .relaxed)
        let voiceRuns = control.pointee.voiceRun.load(ordering: .acquiring)
        // An exclusive voice asked for while the media plays waits for the media's
        // own pause rather than fading it here: an alarm starts its voice just
        // before the pause, and a fade begun here would start at the writer's
        // frame, before the pause drops the device's queue and fades from the heard one.
        let voiceAudible = !voiceStopped || (voiceRuns && mediaStopped)
        let runRequested = runLatch ?? control.pointee.mediaRun.load(ordering: .acquiring)
        serviceHeardReset()
        var runTarget: Float = runRequested && !(exclusive && voiceAudible) ? 1 : 0
        let duckTarget = Float(bitPattern: control.pointee.duckTargetBits.load(ordering: .relaxed))
        run.stepPerFrame = Float(bitPattern: control.pointee.mediaFadeStepBits.load(ordering: .relaxed))
        duck.stepPerFrame = Float(bitPattern: control.pointee.duckStepBits.load(ordering: .relaxed))
        let volumeTarget = Float(bitPattern: control.pointee.volumeTargetBits.load(ordering: .relaxed))
        volume.stepPerFrame = Float(bitPattern: control.pointee.volumeStepBits.load(ordering: .relaxed))
        voiceGain.stepPerFrame = Float(bitPattern: control.pointee.voiceStepBits.load(ordering: .relaxed))
        let voiceTarget: Float = voiceRuns ? Float(bitPattern: control.pointee.voiceGainBits.load(ordering: .relaxed)) : 0

        if mediaStopped && runTarget > 0 {
            mediaStopped = false
            framesSinceMediaStop = 0
            control.pointee.mediaStopped.store(false, ordering: .releasing)
        }
        if voiceStopped && voiceRuns && (!exclusive || mediaStopped) {
            voiceStopped = false
            control.pointee.voiceStopped.store(false, ordering: .releasing)
        }

        // A slice never spans a track's start: it ends there, and the next one takes the new gain.
        var limit = mediaStopped ? min(maxFrames, scratchFrames) : applyTrackGainMarks(limit: min(maxFrames, scratchFrames))
        let aimed = aimStop(runRequested: runRequested, voiceWaits: exclusive && voiceAudible, runTarget: &runTarget,
                            limit: &limit)
        var mediaFrames = 0
        var mediaBase: UnsafePointer<Int16>?
        var frames = limit
        if !mediaStopped {
            let region = audio.readableRegion(from: mediaCursor, maxSlots: limit)
            mediaFrames = region.count / (channels * 2)
            mediaBase = region.baseAddress?.assumingMemoryBound(to: Int16.self)
            frames = mediaFrames
            if frames == 0 {
                // (Aimed at a frame not reached yet: the decoder fell behind, as while playing.)
                guard runTarget == 0, !aimed else { return 0 }
                // Asked to stop with nothing left to fade (the queue ran out): the
                // media stops where it ended, and the output goes on silent.
                mediaStopped = true
                framesSinceMediaStop = 0
                control.pointee.mediaStoppedAt.store(control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                                     ordering: .relaxed)
                control.pointee.mediaStopped.store(true, ordering: .releasing)
                mediaBase = nil
                frames = limit
            }
        }
        var voiceFrames = 0
        var voiceBase: UnsafePointer<Int16>?
        if !voiceStopped || voiceRuns {
            let region = voice.readableRegion(maxSlots: limit)
            voiceFrames = region.count / (channels * 2)
            voiceBase = region.baseAddress?.assumingMemoryBound(to: Int16.self)
            // A region ends at the ring's wrap point: end the slice there too, or the
            // rest of the slice would get silence while the voice still has frames.
            if voiceFrames > 0 { frames = min(frames, voiceFrames) }
        }

        pendingMedia = 0
        pendingVoice = 0
        pendingVoiceStart = 0
        stopsMediaAfterPending = false
        stopsVoiceAfterPending = false

        // Unity media and no voice: copy, bit-exact and cheap.
        if let mediaBase, voiceStopped, run.isSettled(at: 1), runTarget == 1, duck.isSettled(at: 1), duckTarget == 1,
           volume.isSettled(at: 1), volumeTarget == 1, trackGain == 1 {
            UnsafeMutableRawPointer(scratch).copyMemory(from: mediaBase, byteCount: frames * channels * 2)
            pendingMedia = frames
            return frames
        }

        var mediaOn = !mediaStopped
        var voiceOn = !voiceStopped
        var voiceIndex = 0
        var index = 0
        for frame in 0..<frames {
            var mediaGainNow: Float = 0
            if mediaOn {
                mediaGainNow = run.next(toward: runTarget) * duck.next(toward: duckTarget)
                    * volume.next(toward: volumeTarget) * trackGain
            }
            let voiceAllowed = voiceOn && (!exclusive || !mediaOn) && voiceIndex < voiceFrames
            var voiceGainNow: Float = 0
            if voiceAllowed {
                if pendingVoice == 0 { pendingVoiceStart = frame }
                voiceGainNow = voiceGain.next(toward: voiceTarget)
            }
            for channel in 0..<channels {
                var value: Float = 0
                if mediaOn, let mediaBase {
                    value = GainRamp.scale(mediaBase[frame * channels + channel], by: mediaGainNow)
                }
                if voiceAllowed, let voiceBase {
                    value += GainRamp.scale(voiceBase[voiceIndex * channels + channel], by: voiceGainNow)
                }
                scratch[index] = GainRamp.sample(value)
                index += 1
            }
            if mediaOn {
                pendingMedia = frame + 1
                if run.current == 0 && runTarget == 0 {
                    // The media stops exactly here: the next frame of the ring is
                    // where playback continues. A waiting exclusive voice starts on
                    // the very next frame, so the alarm follows without a gap.
                    mediaOn = false
                    stopsMediaAfterPending = true
                    if voiceStopped && voiceRuns { voiceOn = true }
                }
            }
            if voiceAllowed {
                voiceIndex += 1
                pendingVoice = voiceIndex
                if voiceGain.current == 0 && voiceTarget == 0 {
                    voiceOn = false
                    stopsVoiceAfterPending = true
                }
            }
        }
        return frames
    }

    /// The device accepted the first `frames` frames of the last mix: release
    /// what they used from the rings and publish the new state.
    @_noLocks
    mutating func commit(_ frames: Int) {
        let media = min(pendingMedia, frames)
        if media > 0 {
            // Read, not released: the ring keeps the frames until they are heard.
            mediaCursor += media
            control.pointee.mediaCursor.store(mediaCursor, ordering: .releasing)
            control.pointee.mediaFramesWritten.add(media, ordering: .releasing)
        }
        let voiceUsed = max(0, min(pendingVoice, frames - pendingVoiceStart))
        if voiceUsed > 0 { voice.release(voiceUsed) }
        if stopsMediaAfterPending && media == pendingMedia {
            mediaStopped = true
            framesSinceMediaStop = frames - media
            control.pointee.mediaStoppedAt.store(control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                                 ordering: .relaxed)
            control.pointee.mediaStopped.store(true, ordering: .releasing)
        } else if mediaStopped {
            framesSinceMediaStop += frames
        }
        if voiceStopped && voiceUsed > 0 {
            voiceStopped = false
            control.pointee.voiceStopped.store(false, ordering: .releasing)
        }
        if stopsVoiceAfterPending && voiceUsed == pendingVoice {
            voiceStopped = true
            framesSinceVoiceStop = 0
            control.pointee.voiceStopped.store(true, ordering: .releasing)
        } else if voiceStopped {
            framesSinceVoiceStop += frames
        }
        control.pointee.deviceFramesWritten.add(frames, ordering: .relaxed)
        pendingMedia = 0
        pendingVoice = 0
        stopsMediaAfterPending = false
        stopsVoiceAfterPending = false
    }

    /// Publishes the heard media position given the device's delay (frames
    /// queued but not yet heard). After the media stopped, the newest queued
    /// frames are silence or voice, so only the older part of the delay is media.
    /// The media frames heard are released from the ring.
    /// `nanoseconds`: when the delay was measured (CLOCK_MONOTONIC), 0 on the frame clock.
    @_noLocks
    func publishHeard(delay: Int, nanoseconds: Int = 0) {
        let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        let mediaDelay = mediaStopped ? max(0, delay - framesSinceMediaStop) : delay
        let unheard = max(0, min(written, mediaDelay))
        control.pointee.publishHeard(frames: written - unheard, nanoseconds: nanoseconds)
        audio.release(upTo: mediaCursor - unheard)
    }

    /// Takes on the engine's track-gain marks the media cursor has reached and
    /// returns `limit` cut to end at the next one ahead, so a track's gain
    /// starts on its first frame exactly (the gapless join included). Marks
    /// the cursor has passed (the ring was flushed past them) apply in turn.
    @_noLocks
    mutating func applyTrackGainMarks(limit: Int) -> Int {
        let control = self.control
        // Acquire: pairs with the engine's release store of the count, after the slot.
        let written = control.pointee.trackGainMarksWritten.load(ordering: .acquiring)
        while trackGainMarksApplied < written {
            // 64: `WriterControl.trackGainSlots` (a literal: a static's accessor is not @_noLocks).
            let packed = control.pointee.trackGainMarks[trackGainMarksApplied % 64].load(ordering: .relaxed)
            // Low 32 bits of ring indices: a mark is never 2^31 frames from the cursor (the ring is seconds long).
            let distance = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: packed >> 32)
                &- UInt32(truncatingIfNeeded: mediaCursor)))
            if distance > 0 { return min(limit, distance) }
            previousTrackGain = trackGain
            trackGain = Float(bitPattern: UInt32(truncatingIfNeeded: packed))
            trackGainStart = mediaCursor + distance
            trackGainMarksApplied += 1
            publishTrackGain()
        }
        return limit
    }

    @_noLocks
    func publishTrackGain() {
        control.pointee.trackGainBits.store(trackGain.bitPattern, ordering: .relaxed)
        control.pointee.previousTrackGainBits.store(previousTrackGain.bitPattern, ordering: .relaxed)
        control.pointee.trackGainStart.store(trackGainStart, ordering: .relaxed)
        // Release: pairs with the engine's acquire before it reuses the slot.
        control.pointee.trackGainMarksApplied.store(trackGainMarksApplied, ordering: .releasing)
    }

    /// The oldest media frame (writer frames) the ring still holds: the earliest
    /// frame a drop can go back to.
    @_noLocks
    func oldestRetainedMediaFrame() -> Int {
        control.pointee.mediaFramesWritten.load(ordering: .relaxed) - (mediaCursor - audio.readIndex())
    }

    /// True when the last `queued` device frames are silence: written after the
    /// media stopped and after the voice stopped (a resume may then drop them).
    @_noLocks
    func queuedFramesAreSilent(_ queued: Int) -> Bool {
        mediaStopped && voiceStopped && queued <= framesSinceMediaStop && queued <= framesSinceVoiceStop
    }

    /// Media frames in the ring not yet mixed.
    @_noLocks
    func unreadMediaFrames() -> Int { audio.filledSlots(from: mediaCursor) }

    /// The device's queue was dropped: the media goes on from writer frame `frame`
    /// (clamped between the oldest frame the ring holds and the frames written).
    /// Returns the device frames given back. Only while the media plays.
    @_noLocks
    mutating func rewindMedia(to frame: Int) -> Int {
        let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        let target = max(oldestRetainedMediaFrame(), min(frame, written))
        let back = written - target
        mediaCursor -= back
        control.pointee.mediaCursor.store(mediaCursor, ordering: .releasing)
        control.pointee.mediaFramesWritten.store(target, ordering: .releasing)
        control.pointee.deviceFramesWritten.add(-back, ordering: .relaxed)
        // The run gain needs no rewinding: the loop drops before `mix` may start the
        // fade (`runLatch`), so the gain now is the one the listener hears.
        if mediaCursor < trackGainStart && trackGainMarksApplied > 0 {
            // Back before the track that began last: its mark applies again when
            // the cursor gets there (the engine keeps a spare slot for this).
            trackGain = previousTrackGain
            trackGainMarksApplied -= 1
            publishTrackGain()
        }
        return back
    }

    static func allocate(control: UnsafeMutablePointer<WriterControl>, audio: SPSCRing.Consumer,
                         voice: SPSCRing.Consumer, events: SPSCRing.Producer, channels: Int, scratchFrames: Int,
                         periodFrames: Int) -> UnsafeMutablePointer<WriterContext> {
        let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: scratchFrames * channels)
        scratch.initialize(repeating: 0, count: scratchFrames * channels)
        let context = UnsafeMutablePointer<WriterContext>.allocate(capacity: 1)
        context.initialize(to: WriterContext(control: control, audio: audio, voice: voice, events: events,
                                             channels: channels, scratch: scratch, scratchFrames: scratchFrames,
                                             periodFrames: periodFrames))
        // A writer made for a ring already in use (the device reopened) reads from
        // where it is, with the track gain the last writer had reached.
        context.pointee.mediaCursor = audio.readIndex()
        context.pointee.trackGain = Float(bitPattern: control.pointee.trackGainBits.load(ordering: .relaxed))
        context.pointee.previousTrackGain = Float(bitPattern: control.pointee.previousTrackGainBits.load(ordering: .relaxed))
        context.pointee.trackGainStart = control.pointee.trackGainStart.load(ordering: .relaxed)
        context.pointee.trackGainMarksApplied = control.pointee.trackGainMarksApplied.load(ordering: .acquiring)
        control.pointee.mediaCursor.store(audio.readIndex(), ordering: .relaxed)
        return context
    }

    /// The writer side of `link`, for an output whose mix buffer holds `scratchFrames`.
    static func allocate(link: WriterLink, channels: Int, scratchFrames: Int,
                         periodFrames: Int) -> UnsafeMutablePointer<WriterContext> {
        let context = allocate(control: link.control, audio: link.media.consumer, voice: link.voice.consumer,
                               events: link.events.producer, channels: channels, scratchFrames: scratchFrames,
                               periodFrames: periodFrames)
        if link.startsWithMediaStopped { context.pointee.freezeMedia(at: 0) }
        return context
    }

    static func free(_ context: UnsafeMutablePointer<WriterContext>) {
        context.pointee.scratch.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
    }
}
