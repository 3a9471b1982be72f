import AudioDecoding
import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// A PulseAudio playback stream as the writer loop's device (`WriterDevice`),
/// through libpulse with its threaded main loop locked for each turn: the
/// room the server asks for, the read index for a pause (the next write goes
/// over what the server holds after it, with `PA_SEEK_RELATIVE_ON_READ`: no
/// drop, no new stream), the interpolated latency as the heard position, the
/// server's underflow notifications as underruns. Plain values and raw
/// pointers in one manually allocated block (`PulseOutput` owns it).
///
/// libpulse's main loop lock, the waits for the server's answer (a pause's
/// timing update, the drain) and its allocations there are the documented
/// exception (`AudioOutput`).
struct PulseDevice: WriterDevice {
    let context: UnsafeMutablePointer<WriterContext>
    /// The stream, nil only while released (`release` to `wake`: nothing else is called then).
    let slot: UnsafeMutablePointer<PulseStreamSlot>
    let pulseContext: OpaquePointer
    /// The eventfd libpulse's main loop thread counts on each data request and
    /// state change (and the engine on each request of its own), and the
    /// server's underflow notifications, counted there.
    let waker: UnsafeMutablePointer<interlude_pa_waker>
    let bytesPerFrame: Int
    let rate: Int
    private let seekRelative = PA_SEEK_RELATIVE
    private let seekOnRead = PA_SEEK_RELATIVE_ON_READ
    private var wakeup: pollfd
    private var wakeCount: UInt64 = 0
    /// The server's underflow notifications taken so far.
    private var underflowsSeen: UInt64 = 0
    private var latency: pa_usec_t = 0
    private var negative: Int32 = 0

    init(context: UnsafeMutablePointer<WriterContext>, connection: PulseConnection, format: AudioFormat) {
        self.context = context
        slot = connection.slot
        pulseContext = connection.context
        waker = connection.waker
        bytesPerFrame = format.bytesPerFrame
        rate = format.rate
        wakeup = pollfd(fd: connection.waker.pointee.fd, events: Int16(POLLIN), revents: 0)
    }

    /// The stream, between `wake` and the next `release`.
    private var stream: OpaquePointer? { slot.pointee.stream }

    mutating func wait(milliseconds: Int32) -> Int32 {
        wakeup.revents = 0
        if poll(&wakeup, 1, milliseconds) < 0 {
            let code = errno
            if code != EINTR { return code }
        }
        if wakeup.revents != 0 { _ = read(wakeup.fd, &wakeCount, 8) }
        return 0
    }

    /// Locks the main loop for the turn; the stream or its connection may have failed meanwhile.
    mutating func beginTurn() -> DeviceTurn {
        interlude_pa_threaded_mainloop_lock(waker.pointee.mainloop)
        return isConnected() ? .ready : .lost(code: Int(interlude_pa_context_errno(pulseContext)))
    }

    mutating func endTurn() { interlude_pa_threaded_mainloop_unlock(waker.pointee.mainloop) }

    /// Counted by the main loop thread, which holds the lock to do so.
    mutating func takeUnderruns() -> Int {
        let underflows = waker.pointee.underflows
        defer { underflowsSeen = underflows }
        return Int(truncatingIfNeeded: underflows &- underflowsSeen)
    }

    /// All the room the server asks for: it asks again only for what it misses
    /// beyond what it has asked for.
    mutating func room() -> Int {
        guard let stream else { return 0 }
        return interlude_pa_stream_writable_size(stream) / bytesPerFrame
    }

    /// The server's read index (one round trip): everything after it is
    /// replaced by the next write; the sink has taken the rest and plays it.
    mutating func measureQueue() -> DeviceQueue? {
        guard let queue = serverQueue() else { return nil }
        return DeviceQueue(unheard: queue.afterReadIndex + queue.inSink, stillSounding: queue.inSink,
                           droppable: queue.afterReadIndex)
    }

    /// Nothing to do now: the next write replaces what the server holds.
    mutating func drop(measured: DeviceQueue) -> DeviceQueue? { measured }

    static var fillsAfterDrop: Bool { false }

    /// Corked: the server stops asking for data (and plays nothing of the
    /// silence it holds) until uncorked. Sent without waiting for the answer.
    mutating func sleep() -> Bool {
        guard let stream else { return false }
        return interlude_pa_stream_cork_async(stream, 1) == 0
    }

    /// A corked stream still costs a wake-up of libpulse's thread every 1.5 s
    /// (its timing updates: 12 in 10 s, about 0.9 ms of CPU on these
    /// machines) unless the server suspends the sink, which a sink that
    /// something else plays to never is: so it goes. The server drops what
    /// it held, silence; `wake` makes a new one.
    mutating func release() -> Bool {
        PulseStreamSlot.release(slot)
        return true
    }

    /// Uncorked, or made again after `release` (waiting for the server, as
    /// the first one was); the timing update that follows (`measureQueue`)
    /// reaches the server after it, so it measures the playing stream. Lost
    /// when it could not be made: the server is gone or refuses.
    mutating func wake() -> DeviceTurn {
        if let stream, interlude_pa_stream_cork_async(stream, 0) == 0 { return .ready }
        if stream == nil, PulseStreamSlot.open(slot, context: pulseContext, waker: waker) != nil { return .ready }
        return .lost(code: Int(interlude_pa_context_errno(pulseContext)))
    }

    mutating func write(frames: Int, replacingQueue: Bool) -> DeviceWrite {
        guard let stream, interlude_pa_stream_write(stream, context.pointee.scratch, frames * bytesPerFrame,
                                        replacingQueue ? seekOnRead : seekRelative) >= 0 else {
            // Refused (a stream that is not ready): lost, as a failed ALSA write.
            return .lost(code: Int(interlude_pa_context_errno(pulseContext)))
        }
        return .written(frames: frames)
    }

    mutating func unheardFrames() -> Int? {
        guard let stream, interlude_pa_stream_get_latency(stream, &latency, &negative) >= 0 else { return nil }
        return negative != 0 ? 0 : Int(latency) * rate / 1_000_000
    }

    /// The server plays out what it holds (starting a short stream that never
    /// reached its prebuffer), then says so.
    mutating func drain() -> Bool {
        guard let stream else { return false }
        return interlude_pa_stream_drain_wait(stream, waker) == 0
    }

    static var measuresEveryTurn: Bool { true }

    /// With the main loop locked: asks the server where its read index is now
    /// (one round trip, waiting with the lock released) and returns the frames
    /// queued after it (what a `PA_SEEK_RELATIVE_ON_READ` write replaces) and
    /// the sink's latency in frames (taken from the stream, not yet heard). Nil
    /// when the server could not say (gone, or the indices not yet known).
    func serverQueue() -> (afterReadIndex: Int, inSink: Int)? {
        guard let stream, interlude_pa_stream_update_timing_info_wait(stream, waker) == 0,
              let timing = interlude_pa_stream_get_timing_info(stream),
              timing.pointee.write_index_corrupt == 0, timing.pointee.read_index_corrupt == 0 else { return nil }
        return Self.queue(writeIndex: timing.pointee.write_index, readIndex: timing.pointee.read_index,
                          sinkMicroseconds: timing.pointee.sink_usec, bytesPerFrame: bytesPerFrame, rate: rate)
    }

    /// The server's timing numbers in frames. They come from outside: a queue
    /// or a sink latency beyond 10 s is damage, clamped before the arithmetic
    /// so that it cannot overflow.
    @_noLocks
    static func queue(writeIndex: Int64, readIndex: Int64, sinkMicroseconds: UInt64, bytesPerFrame: Int,
                      rate: Int) -> (afterReadIndex: Int, inSink: Int) {
        let (queued, overflow) = writeIndex.subtractingReportingOverflow(readIndex)
        let limit = 10 * rate
        return (overflow ? 0 : min(max(0, Int(queued) / bytesPerFrame), limit),
                Int(min(sinkMicroseconds, 10_000_000)) * rate / 1_000_000)
    }

    /// With the main loop locked: false once the stream (when there is one) or its connection has failed.
    func isConnected() -> Bool {
        if let stream, interlude_pa_stream_get_state(stream).rawValue != PA_STREAM_READY.rawValue { return false }
        return interlude_pa_context_get_state(pulseContext).rawValue == PA_CONTEXT_READY.rawValue
    }
}

/// The thread entry: a C function with a raw pointer to the device, so
/// starting the thread moves no Swift object across.
let pulseWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    writerLoop(raw!.assumingMemoryBound(to: PulseDevice.self))
    return nil
}
