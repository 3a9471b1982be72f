import CAlsa
#if canImport(Glibc)
import Glibc
#endif

/// The real-time writer loop for ALSA. This thin outer loop makes the C calls
/// (wait, write, delay, recover), which `@_noLocks` cannot check; everything it
/// calls on our side (`mix`, `consume`, `post`, the ring) is `@_noLocks`.
/// It allocates nothing, takes no lock and touches no reference-counted object:
/// its only state is the `WriterContext` behind a raw pointer.
func alsaWriterLoop(_ context: UnsafeMutablePointer<WriterContext>) {
    guard let pcm = context.pointee.pcm else { return }
    let control = context.pointee.control
    let period = context.pointee.periodFrames
    let channels = context.pointee.channels
    let underrun = EngineEvent.Kind.underrun.rawValue
    let starved = EngineEvent.Kind.starved.rawValue
    let deviceLost = EngineEvent.Kind.deviceLost.rawValue
    let drained = EngineEvent.Kind.drained.rawValue

    /// Bounded recovery: an xrun is prepared away; a suspend is resumed (or
    /// prepared); anything else means the device is gone and the main thread decides.
    func recover(_ error: Int) -> Bool {
        if error == -Int(EPIPE) {
            control.pointee.underruns.add(1, ordering: .relaxed)
            context.pointee.post(underrun, value: error)
            return snd_pcm_prepare(pcm) >= 0
        }
        if error == -Int(ESTRPIPE) {
            var attempts = 0
            var result = snd_pcm_resume(pcm)
            while result == -EAGAIN && attempts < 50 {
                snd_pcm_wait(pcm, 20)
                result = snd_pcm_resume(pcm)
                attempts += 1
            }
            return result >= 0 || snd_pcm_prepare(pcm) >= 0
        }
        if error == -Int(EINTR) || error == -Int(EAGAIN) { return true }
        return false
    }

    var delay: snd_pcm_sframes_t = 0
    // Two device calls a period: a blocking write (which sleeps until the device
    // has room for the whole period) and the delay for the heard position.
    // Polling the device's free space and waiting on it first doubled the calls,
    // and through the pulse plugin each call costs a round of locking.
    while !control.pointee.stopRequested.load(ordering: .relaxed) {
        var frames = context.pointee.mix(maxFrames: period)
        var isSilence = false
        if frames == 0 {
            if control.pointee.endOfStream.load(ordering: .acquiring) && context.pointee.audio.filledSlots() == 0 {
                // Everything is queued: start if the short stream never filled the buffer,
                // then play it out. drain blocks until the device has played the last frame.
                snd_pcm_drain(pcm)
                control.pointee.heardFrames.store(control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                                  ordering: .releasing)
                context.pointee.post(drained)
                break
            }
            // The decoder fell behind: keep the device fed with one period of silence
            // rather than let it xrun, and say so.
            frames = period
            context.pointee.scratch.update(repeating: 0, count: frames * channels)
            isSilence = true
            context.pointee.post(starved)
        }
        let written = snd_pcm_writei(pcm, context.pointee.scratch, snd_pcm_uframes_t(frames))
        if written < 0 {
            if !recover(written) { context.pointee.post(deviceLost, value: written); break }
            continue
        }
        if !isSilence { context.pointee.commit(Int(written)) }
        if snd_pcm_delay(pcm, &delay) >= 0 { context.pointee.publishHeard(delay: Int(delay)) }
    }
    control.pointee.finished.store(true, ordering: .releasing)
}

/// The thread entry: a C function with a raw context pointer, so starting the
/// thread moves no Swift object across.
private let alsaWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    alsaWriterLoop(raw!.assumingMemoryBound(to: WriterContext.self))
    return nil
}

/// Starts `entry` on a new thread, asking for SCHED_FIFO at a moderate priority.
/// Returns the thread and whether real-time scheduling was granted.
func startRealtimeThread(context: UnsafeMutableRawPointer,
                         entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?)
    -> (thread: pthread_t, realtime: Bool)? {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
    pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
    // Moderate: above normal threads, below the kernel's and JACK's usual 70-90.
    var parameters = sched_param(sched_priority: 20)
    pthread_attr_setschedparam(&attributes, &parameters)
    var thread = pthread_t()
    if pthread_create(&thread, &attributes, entry, context) == 0 {
        return (thread, true)
    }
    // Refused (no CAP_SYS_NICE, RLIMIT_RTPRIO 0, or a container without it): normal priority.
    if pthread_create(&thread, nil, entry, context) == 0 {
        return (thread, false)
    }
    return nil
}

/// Owns an ALSA writer thread and everything it uses.
public final class AlsaWriter: @unchecked Sendable {
    // @unchecked Sendable: the main thread only reads atomics through `control`.
    public let pcm: AlsaPCM
    let ring: SPSCRing
    let voice: SPSCRing
    let events: SPSCRing
    public let control: UnsafeMutablePointer<WriterControl>
    let context: UnsafeMutablePointer<WriterContext>
    private var thread: pthread_t?
    public private(set) var isRealtime = false

    public init(pcm: AlsaPCM, ring: SPSCRing, voice: SPSCRing, events: SPSCRing) {
        self.pcm = pcm
        self.ring = ring
        self.voice = voice
        self.events = events
        control = .allocate(capacity: 1)
        control.initialize(to: WriterControl())
        context = WriterContext.allocate(control: control, audio: ring.consumer, voice: voice.consumer,
                                         events: events.producer,
                                         channels: pcm.format.channels, scratchFrames: pcm.periodFrames,
                                         pcm: pcm.handle, periodFrames: pcm.periodFrames)
    }

    deinit {
        stop()
        WriterContext.free(context)
        control.deinitialize(count: 1)
        control.deallocate()
    }

    /// Starts the thread. Returns false when no thread could be created.
    public func start() -> Bool {
        guard thread == nil,
              let started = startRealtimeThread(context: UnsafeMutableRawPointer(context), entry: alsaWriterEntry)
        else { return false }
        thread = started.thread
        isRealtime = started.realtime
        return true
    }

    /// No more audio will be queued: play out the ring, drain the device, finish.
    public func finishAfterQueued() { control.pointee.endOfStream.store(true, ordering: .releasing) }

    /// Stops at once (what is queued is dropped) and joins the thread.
    public func stop() {
        guard let thread else { return }
        control.pointee.stopRequested.store(true, ordering: .releasing)
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// With the thread stopped: discards what the device still holds and marks
    /// the media stopped at the last heard frame, so a resume continues from
    /// exactly what the listener heard (nothing after it was audible).
    func freezeAtHeardPosition() {
        guard thread == nil else { return }
        snd_pcm_drop(pcm.handle)
        let heard = control.pointee.heardFrames.load(ordering: .acquiring)
        context.pointee.freezeMedia(at: heard)
    }

    /// Starts the thread again after `stop()`, on a prepared device.
    func restart() -> Bool {
        guard thread == nil else { return true }
        snd_pcm_prepare(pcm.handle)
        control.pointee.stopRequested.store(false, ordering: .relaxed)
        control.pointee.finished.store(false, ordering: .relaxed)
        return start()
    }

    public var finished: Bool { control.pointee.finished.load(ordering: .acquiring) }
}
