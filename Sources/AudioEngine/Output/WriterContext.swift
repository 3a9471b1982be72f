/// Everything a writer loop touches, in one manually allocated block: raw
/// pointers, ring halves (pointer bundles), plain numbers. No class references,
/// so passing it to the real-time thread as a raw pointer involves no ARC.
struct WriterContext {
    let control: UnsafeMutablePointer<WriterControl>
    let audio: SPSCRing.Consumer
    let events: SPSCRing.Producer
    let channels: Int
    /// Mix buffer of `scratchFrames` frames, allocated and touched before the thread starts.
    let scratch: UnsafeMutablePointer<Int16>
    let scratchFrames: Int
    var mediaGain: GainRamp
    /// ALSA only: the PCM handle and its period.
    let pcm: OpaquePointer?
    let periodFrames: Int

    /// Sends an event to the main thread; drops it if that ring is full (the
    /// main thread is far behind, and counters still tell the story).
    /// (`kind` is the raw value: an enum's synthesized `rawValue` getter is opaque to @_noLocks.)
    @_noLocks
    func post(_ kind: UInt32, value: Int = 0) {
        var event = EngineEvent(kindRawValue: kind,
                                frame: Int64(control.pointee.mediaFramesWritten.load(ordering: .relaxed)),
                                value: Int64(value))
        _ = withUnsafeMutableBytes(of: &event) { events.push(UnsafeRawPointer($0.baseAddress!)) }
    }

    /// Mixes up to `maxFrames` frames from the ring into `scratch` and returns
    /// how many; 0 when the ring is empty. The ring slots stay claimed until
    /// `consume(_:)`, so a failed device write loses nothing.
    @_noLocks
    mutating func mix(maxFrames: Int) -> Int {
        let region = audio.readableRegion(maxSlots: min(maxFrames, scratchFrames))
        let frames = region.count / (channels * 2)
        guard frames > 0, let base = region.baseAddress else { return 0 }
        let target = Float(bitPattern: control.pointee.mediaGainTargetBits.load(ordering: .relaxed))
        mediaGain.apply(from: base.assumingMemoryBound(to: Int16.self), to: scratch,
                        frames: frames, channels: channels, target: target)
        return frames
    }

    /// Marks `frames` mixed frames as handed to the device.
    @_noLocks
    func consume(_ frames: Int) {
        audio.release(frames)
        control.pointee.mediaFramesWritten.add(frames, ordering: .releasing)
    }

    /// Publishes the heard position given the device's delay (frames queued but not yet heard).
    @_noLocks
    func publishHeard(delay: Int) {
        let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        // Silence written during a starvation also sits in the delay, so right after
        // one the heard position lags by at most that silence; it never runs ahead.
        control.pointee.heardFrames.store(max(0, written - delay), ordering: .releasing)
    }

    static func allocate(control: UnsafeMutablePointer<WriterControl>, audio: SPSCRing.Consumer,
                         events: SPSCRing.Producer, channels: Int, scratchFrames: Int,
                         pcm: OpaquePointer?, periodFrames: Int) -> UnsafeMutablePointer<WriterContext> {
        let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: scratchFrames * channels)
        scratch.initialize(repeating: 0, count: scratchFrames * channels)
        let context = UnsafeMutablePointer<WriterContext>.allocate(capacity: 1)
        context.initialize(to: WriterContext(control: control, audio: audio, events: events, channels: channels,
                                             scratch: scratch, scratchFrames: scratchFrames,
                                             mediaGain: GainRamp(), pcm: pcm, periodFrames: periodFrames))
        return context
    }

    static func free(_ context: UnsafeMutablePointer<WriterContext>) {
        context.pointee.scratch.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
    }
}
