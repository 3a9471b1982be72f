import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// State shared between the engine's thread and the writer, in two halves by
/// the thread that writes them, as mpv's `audio/out/buffer.c` groups its fields
/// by owner:
///
/// - **requests**, written only by the engine's thread (the one that calls
///   `PlaybackEngine`), read by the writer;
/// - **reports**, written only by the writer side, read by the engine's thread.
///
/// "The writer side" is the code in `WriterContext` and the output's loop: on
/// the ALSA output, the real-time thread while it runs (before it starts and
/// after it is joined, the engine's thread, ordered by `pthread_create` and
/// `pthread_join`); on a frame-clock output, the engine's thread itself, inside
/// `render`. No field has a writer on each side. Where the engine needs a
/// report changed (the heard position after a seek), it writes a request and
/// the writer carries it out (`heardResetRequest`).
///
/// The halves sit on separate 64-byte cache lines (`allocate()` aligns the
/// block and padding separates them), so the writer's reports, stored every
/// period, never invalidate the line the engine stores its requests in, and
/// the reverse. Every field is an atomic; floats travel as their bit patterns.
/// Each release store names the acquire load it pairs with, as `SPSCRing` does.
///
/// The media voice: `mediaRun` false makes the writer ramp the media to
/// silence (over `mediaFadeStep`), stop taking frames from the media ring at
/// the exact frame the ramp reached zero, and publish that frame count in
/// `mediaStoppedAt`. While stopped, a `mediaFlushRequest` newer than
/// `mediaFlushAck` empties the media ring (only the consumer may do that in a
/// single-consumer ring). `mediaRun` true ramps it back in.
///
/// On a real-time device the writer also drops the device's queue when a pause
/// arrives and fades from the frame being heard (see `writerLoop`);
/// `mediaStoppedAt` is then that fade's last frame.
///
/// The user volume (`volumeTarget`) multiplies the media gain and ramps over
/// `volumeStep` per frame, so a change never clicks or zippers.
///
/// The interrupter voice (alarm tone, chime): the same, with its own ring.
/// When `voiceExclusive`, the voice never sounds while media is audible and
/// media never restarts while the voice is audible: no overlap. An exclusive
/// voice asked for while the media plays waits for the media's pause.
public struct WriterControl: ~Copyable {
    private let leadingPad = CacheLinePad()

    // MARK: Requests: written by the engine's thread only.

    /// The eventfd the writer's wait polls besides the device, or -1 (the frame
    /// clock, whose writer runs inside `render`): what `wake()` writes to.
    /// Written by: the engine's thread, once, in the output's `attach` (before
    /// the writer starts); read by the engine's thread only. The descriptor is
    /// the output's, closed only after its writer is joined, and the output
    /// holds this control for as long as it lives.
    let wakeDescriptor = Atomic<Int32>(-1)
    /// The eventfd the engine's thread polls for what it must hear of at once
    /// even while it sleeps with nothing to do (a lost device), or -1. Written
    /// by: the engine's thread, once, as the link is made (before any writer
    /// starts); read by the writer side (`reportToEngine`). The descriptor is
    /// the link's, closed when the link goes, after every writer over it.
    let reportDescriptor = Atomic<Int32>(-1)
    /// Written by: the engine's thread (`AlsaOutput.stop`, release; `resume`,
    /// relaxed, with no thread running). The loop loads it relaxed once a turn:
    /// nothing is read behind it, and `pthread_join` orders the thread's end.
    let stopRequested = Atomic<Bool>(false)
    /// Written by: the engine's thread. Release store in `pump`, pairs with the
    /// writer's acquire load before it drains: the ring's frames are all committed.
    let endOfStream = Atomic<Bool>(false)
    /// Written by: the engine's thread. Release stores (pause, resume, queue end)
    /// pair with the acquire loads in `mix` and in the writer loop's latch: the
    /// fade step and `pauseDropsQueue` stored before it are seen with it.
    let mediaRun = Atomic<Bool>(true)
    /// Written by: the engine's thread, relaxed; published by the next `mediaRun` store.
    let mediaFadeStepBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread, relaxed; a gain target read once a slice,
    /// needing no order with anything else (a slice late is inaudible).
    let duckTargetBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread, relaxed (as `duckTargetBits`).
    let duckStepBits = Atomic<UInt32>(Float(1).bitPattern)
    /// A pause aimed at a frame (`PlaybackEngine.pauseMedia(fadeFrames:endingAtStreamFrame:)`): the writer
    /// frame where the media must reach silence (-1: none), and the fade's length
    /// before it (see `WriterContext.aimStop`). Written by: the engine's thread,
    /// relaxed; published by the `mediaRun` store after them (a later refresh of
    /// the frame needs no order: a slice late, the fade's slope is recomputed).
    let mediaStopAim = Atomic<Int>(-1)
    let mediaStopAimFadeFrames = Atomic<Int>(0)
    /// ALSA: whether `mediaRun` false drops the device's queue (a pause) or lets
    /// it play out (the queue ran out: the last frames must still be heard).
    /// Written by: the engine's thread, relaxed; published by the `mediaRun` store after it.
    let pauseDropsQueue = Atomic<Bool>(true)
    /// Whether `mediaRun` true drops the silence the device holds after the
    /// stop (a resume heard at once) or lets it play out (the silence a voice
    /// asked to follow it, `PlaybackEngine.stopVoice(holdFrames:)`, must be heard whole).
    /// Written by: the engine's thread, relaxed; published by the `mediaRun` store after it.
    let resumeDropsSilence = Atomic<Bool>(true)
    /// Written by: the engine's thread, relaxed, before `volumeTargetBits`.
    let volumeStepBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread, release, after the step. `mix` loads
    /// both relaxed once a slice: at worst a ramp is sized with the step of the
    /// previous change (a few milliseconds longer or shorter), never a jump.
    let volumeTargetBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread. Release store pairs with the acquire load
    /// in `serviceFlushes`: the decoder's seek happens after the writer acknowledges.
    let mediaFlushRequest = Atomic<Int>(0)
    /// Written by: the engine's thread. Release stores pair with the acquire loads
    /// in `mix`: the voice's ring frames, gain and step stored before it are seen.
    let voiceRun = Atomic<Bool>(false)
    /// Written by: the engine's thread, relaxed; published by the `voiceRun` store.
    let voiceExclusive = Atomic<Bool>(true)
    /// Written by: the engine's thread, relaxed; published by the `voiceRun` store.
    let voiceGainBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread, relaxed; published by the `voiceRun` store.
    let voiceStepBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Written by: the engine's thread. Release add pairs with the acquire load in `serviceFlushes`.
    let voiceFlushRequest = Atomic<Int>(0)
    /// The heard position after a seek: the engine asks the writer to restart
    /// the heard pair at `heardResetFrame` (writer frames), unmeasured, so heard
    /// positions from before the seek never map onto the new base nor move on
    /// with the clock. Written by: the engine's thread; the frame relaxed, then
    /// the request's release store, which pairs with the acquire load in
    /// `WriterContext.serviceHeardReset`.
    let heardResetFrame = Atomic<Int>(0)
    let heardResetRequest = Atomic<Int>(0)
    /// Per-track gains (ReplayGain), each from a media-ring index on: slot
    /// `n % trackGainSlots` holds mark `n`, the index's low 32 bits over the
    /// gain's float bits in one word, so the writer never reads half of one.
    /// Written by: the engine's thread, relaxed, before `trackGainMarksWritten`'s
    /// release store (which pairs with the writer's acquire in `applyTrackGainMarks`).
    /// The engine reuses a slot only once the writer has applied its mark (and
    /// one more, for a rewind that takes the last mark back).
    let trackGainMarks: UnsafeMutablePointer<Atomic<UInt64>>
    let trackGainMarksWritten = Atomic<Int>(0)
    static let trackGainSlots = 64

    private let middlePad = CacheLinePad()

    // MARK: Reports: written by the writer side only.

    /// Written by: the writer. Release store after the loop's last call; pairs
    /// with the acquire load in `AlsaOutput.isFinished`.
    let finished = Atomic<Bool>(false)
    /// Written by: the writer. Release stores (commit, rewind) pair with the
    /// engine's acquire loads (`heardPosition`, the resume's new base).
    let mediaFramesWritten = Atomic<Int>(0)
    /// The heard pair, read together with `readHeard()`: `heardSequence` is a
    /// seqlock (odd while the writer is between its two stores).
    /// Written by: the writer, only through `publishHeard(frames:nanoseconds:)`.
    let heardSequence = Atomic<Int>(0)
    let heardFrames = Atomic<Int>(0)
    /// CLOCK_MONOTONIC nanoseconds when `heardFrames` was measured (ALSA; 0 for the
    /// file sinks), so the engine can tell the frame heard now, between measurements.
    let heardNanoseconds = Atomic<Int>(0)
    /// Written by: the writer, relaxed (`commit`, and the drops that give frames
    /// back): a counter the engine reads for the frame clock, with nothing behind it.
    let deviceFramesWritten = Atomic<Int>(0)
    /// Written by: the writer, relaxed: a counter with no data behind it.
    let underruns = Atomic<Int>(0)
    /// The writer's read cursor in the media ring (absolute index): the ring's
    /// count includes frames already written to the device but not yet heard.
    /// Written by: the writer. Release stores pair with the acquire load in
    /// `requestStopAtQueueEnd`.
    let mediaCursor = Atomic<Int>(0)
    /// Written by: the writer. Release stores pair with the engine's acquire loads
    /// (`isMediaStopped`, the resume): `mediaStoppedAt` (relaxed, before it) is seen with it.
    let mediaStopped = Atomic<Bool>(false)
    let mediaStoppedAt = Atomic<Int>(0)
    /// Written by: the writer. Release store after the ring is emptied (the
    /// consumer's release of its read index); pairs with the engine's acquire
    /// load in the resume, which then refills the ring.
    let mediaFlushAck = Atomic<Int>(0)
    /// Written by: the writer. Release stores pair with the engine's acquire load in `isVoiceSounding`.
    let voiceStopped = Atomic<Bool>(true)
    /// Written by: the writer, release; only the writer reads it back.
    let voiceFlushAck = Atomic<Int>(0)
    /// Written by: the writer, release, after a `heardResetRequest` is carried out.
    let heardResetAck = Atomic<Int>(0)
    /// The track gain the writer applies and where it began: marks applied
    /// (release; pairs with the engine's acquire before it reuses a slot), the
    /// gain now and the one before (float bits) and the ring index the current
    /// one began at. Written by: the writer, relaxed except the count; read back
    /// by a writer made for the same ring (a reopened device), so it goes on
    /// with the gain of the track that plays.
    let trackGainMarksApplied = Atomic<Int>(0)
    let trackGainBits = Atomic<UInt32>(Float(1).bitPattern)
    let previousTrackGainBits = Atomic<UInt32>(Float(1).bitPattern)
    let trackGainStart = Atomic<Int>(0)

    private let trailingPad = CacheLinePad()

    /// Private: a control block made by value would leak its gain marks (nothing
    /// frees them but `deallocate`); `allocate()` is the one way to make one.
    private init() {
        trackGainMarks = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: Self.trackGainSlots)
        for slot in 0..<Self.trackGainSlots { (trackGainMarks + slot).initialize(to: Atomic<UInt64>(0)) }
    }

    /// A control block on its own cache lines: the allocation is 64-byte aligned,
    /// so the padding inside keeps requests and reports apart from each other and
    /// from any neighbouring allocation.
    static func allocate() -> UnsafeMutablePointer<WriterControl> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<WriterControl>.stride,
                                                   alignment: max(CacheLinePad.lineBytes,
                                                                  MemoryLayout<WriterControl>.alignment))
        let control = raw.bindMemory(to: WriterControl.self, capacity: 1)
        control.initialize(to: WriterControl())
        return control
    }

    static func deallocate(_ control: UnsafeMutablePointer<WriterControl>) {
        control.pointee.trackGainMarks.deinitialize(count: trackGainSlots)
        control.pointee.trackGainMarks.deallocate()
        control.deinitialize(count: 1)
        UnsafeMutableRawPointer(control).deallocate()
    }

    /// Makes the writer act on the requests just stored, not a period later:
    /// one `write` to its eventfd (a counter, never full). The engine's thread
    /// calls it after every request; nothing on the frame clock.
    func wake() {
        let descriptor = wakeDescriptor.load(ordering: .relaxed)
        guard descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Wakes the engine's thread for an event just posted that it must not wait
    /// for (a lost device): one `write` to `reportDescriptor`, a kernel call
    /// with no lock and no allocation. The event's push (a release) comes first.
    func reportToEngine() {
        let descriptor = reportDescriptor.load(ordering: .relaxed)
        guard descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// A pause: the media fades to silence by `fadeStep` a frame, and on a
    /// real-time device the writer first drops the device's queue and fades
    /// from the frame being heard (an aimed pause drops nothing: `dropsQueue`
    /// false). The writer has it when this returns.
    func requestPause(fadeStep: Float, dropsQueue: Bool) {
        mediaFadeStepBits.store(fadeStep.bitPattern, ordering: .relaxed)
        pauseDropsQueue.store(dropsQueue, ordering: .relaxed)
        // Release: publishes the step, the drop and an aim (`mediaStopAim`) stored above to the writer's acquire of `mediaRun`.
        mediaRun.store(false, ordering: .releasing)
        wake()
    }

    /// The writer side's one way to publish the heard pair (a seqlock write):
    /// the sequence goes odd, both values are stored, the sequence goes even.
    /// The release store of the even count pairs with the acquire load in
    /// `readHeard`; the release fence after the odd count keeps the values'
    /// stores from moving before it.
    @_noLocks
    func publishHeard(frames: Int, nanoseconds: Int) {
        let sequence = heardSequence.load(ordering: .relaxed)
        heardSequence.store(sequence &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        heardFrames.store(frames, ordering: .relaxed)
        heardNanoseconds.store(nanoseconds, ordering: .relaxed)
        heardSequence.store(sequence &+ 2, ordering: .releasing)
    }

    /// The engine's side of the track-gain marks: `gain` from media-ring index
    /// `index` on. False while every slot holds a mark the writer has not
    /// reached (one kept spare for a rewind): decoding waits for the writer,
    /// as it does for ring space.
    func requestTrackGain(_ gain: Float, fromRingIndex index: Int) -> Bool {
        // Only the engine's thread writes the count: relaxed.
        let written = trackGainMarksWritten.load(ordering: .relaxed)
        // Acquire: pairs with the writer's release in `WriterContext.publishTrackGain()`: it has read the slot.
        let applied = trackGainMarksApplied.load(ordering: .acquiring)
        guard written - applied < Self.trackGainSlots - 1 else { return false }
        let packed = UInt64(UInt32(truncatingIfNeeded: index)) << 32 | UInt64(gain.bitPattern)
        trackGainMarks[written % Self.trackGainSlots].store(packed, ordering: .relaxed)
        // Release: publishes the slot to the writer's acquire load of the count.
        trackGainMarksWritten.store(written + 1, ordering: .releasing)
        return true
    }

    /// The heard pair as one snapshot (the seqlock's read side): retried while
    /// the writer is between its stores. The acquire load of the sequence pairs
    /// with `publishHeard`'s final release store; the acquire fence keeps the
    /// values' loads before the second sequence load.
    func readHeard() -> (frames: Int, nanoseconds: Int) {
        while true {
            let before = heardSequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let frames = heardFrames.load(ordering: .relaxed)
            let nanoseconds = heardNanoseconds.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if heardSequence.load(ordering: .relaxed) == before { return (frames, nanoseconds) }
        }
    }

    /// The clock of `heardNanoseconds`: CLOCK_MONOTONIC in nanoseconds (a plain
    /// C call, fine on the writer thread).
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
}

/// 64 bytes of nothing: the size of a cache line on x86-64 and most ARM cores.
struct CacheLinePad {
    static let lineBytes = 64
    private let bytes: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
