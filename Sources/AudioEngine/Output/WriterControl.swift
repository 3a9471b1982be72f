import Synchronization

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
/// The interrupter voice (alarm tone, chime): the same, with its own ring.
/// When `voiceExclusive`, the voice never sounds while media is audible and
/// media never restarts while the voice is audible: no overlap.
public struct WriterControl: ~Copyable {
    let stopRequested = Atomic<Bool>(false)
    let endOfStream = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)

    let mediaFramesWritten = Atomic<Int>(0)
    let heardFrames = Atomic<Int>(0)
    let deviceFramesWritten = Atomic<Int>(0)
    let underruns = Atomic<Int>(0)

    let mediaRun = Atomic<Bool>(true)
    let mediaFadeStepBits = Atomic<UInt32>(Float(1).bitPattern)
    let duckTargetBits = Atomic<UInt32>(Float(1).bitPattern)
    let duckStepBits = Atomic<UInt32>(Float(1).bitPattern)
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
