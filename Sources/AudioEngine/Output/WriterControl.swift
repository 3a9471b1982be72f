import Synchronization

/// State shared between the main thread and the writer thread. Every field is
/// an atomic; the main thread writes requests, the writer publishes counters.
/// It lives in manually allocated memory (see `WriterContext`) so the writer
/// never touches a reference-counted object.
public struct WriterControl: ~Copyable {
    /// Set by the main thread: leave the loop as soon as possible (drop what is queued).
    let stopRequested = Atomic<Bool>(false)
    /// Set by the main thread: no more audio will come; play out what is queued, then finish.
    let endOfStream = Atomic<Bool>(false)
    /// Set by the writer when it has left its loop.
    let finished = Atomic<Bool>(false)
    /// Media frames handed to the device.
    let mediaFramesWritten = Atomic<Int>(0)
    /// Media frames the listener has heard: written minus the device's delay.
    let heardFrames = Atomic<Int>(0)
    let underruns = Atomic<Int>(0)
    /// The media gain target, as `Float.bitPattern`, so a change never blocks.
    let mediaGainTargetBits = Atomic<UInt32>(Float(1).bitPattern)

    init() {}
}
