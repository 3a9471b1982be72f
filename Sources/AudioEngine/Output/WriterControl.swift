import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// State shared between the main thread and the writer. Every field is an
/// atomic: the main thread writes requests, the writer publishes what it did.
/// It lives in manually allocated memory so the writer never touches a
/// reference-counted object. Float values travel as their bit patterns.
///
/// The media voice: `mediaRun` false makes the writer ramp the media to
/// silence (over `mediaFadeStep`), stop taking frames from the media ring at
/// the exact frame the ramp reached zero, and publish that frame count in
/// `mediaStoppedAt`. While stopped, a `mediaFlushRequest` newer than
/// `mediaFlushAck` empties the media ring (only the consumer may do that in a
/// single-consumer ring). `mediaRun` true ramps it back in.
///
/// On ALSA the writer also drops the device's queue when a pause arrives and
/// fades from the frame being heard (see `alsaWriterLoop`); `mediaStoppedAt`
/// is then that fade's last frame.
///
/// The user volume (`volumeTarget`) multiplies the media gain and ramps over
/// `volumeStep` per frame, so a change never clicks or zippers.
///
/// The interrupter voice (alarm tone, chime): the same, with its own ring.
/// When `voiceExclusive`, the voice never sounds while media is audible and
/// media never restarts while the voice is audible: no overlap.
public struct WriterControl: ~Copyable {
    let stopRequested = Atomic<Bool>(false)
    let endOfStream = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)

    let mediaFramesWritten = Atomic<Int>(0)
    let heardFrames = Atomic<Int>(0)
    /// CLOCK_MONOTONIC nanoseconds when `heardFrames` was measured (ALSA; 0 for the
    /// file sinks), so the main thread can tell the frame heard now, between measurements.
    let heardNanoseconds = Atomic<Int>(0)
    /// The clock of `heardNanoseconds`: CLOCK_MONOTONIC in nanoseconds (a plain
    /// C call, fine on the writer thread).
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
    let deviceFramesWritten = Atomic<Int>(0)
    let underruns = Atomic<Int>(0)

    let mediaRun = Atomic<Bool>(true)
    let mediaFadeStepBits = Atomic<UInt32>(Float(1).bitPattern)
    let duckTargetBits = Atomic<UInt32>(Float(1).bitPattern)
    let duckStepBits = Atomic<UInt32>(Float(1).bitPattern)
    /// ALSA: whether `mediaRun` false drops the device's queue (a pause) or lets
    /// it play out (the queue ran out: the last frames must still be heard).
    let pauseDropsQueue = Atomic<Bool>(true)
    /// The writer's read cursor in the media ring (absolute index): the ring's
    /// count includes frames already written to the device but not yet heard.
    let mediaCursor = Atomic<Int>(0)
    let volumeTargetBits = Atomic<UInt32>(Float(1).bitPattern)
    let volumeStepBits = Atomic<UInt32>(Float(1).bitPattern)
    let mediaStopped = Atomic<Bool>(false)
    let mediaStoppedAt = Atomic<Int>(0)
    let mediaFlushRequest = Atomic<Int>(0)
    let mediaFlushAck = Atomic<Int>(0)

    let voiceRun = Atomic<Bool>(false)
    let voiceExclusive = Atomic<Bool>(true)
    let voiceGainBits = Atomic<UInt32>(Float(1).bitPattern)
    let voiceStepBits = Atomic<UInt32>(Float(1).bitPattern)
    let voiceStopped = Atomic<Bool>(true)
    let voiceFlushRequest = Atomic<Int>(0)
    let voiceFlushAck = Atomic<Int>(0)

    init() {}
}
