import CInterludeShims
import CPulse
#if canImport(Glibc)
import Glibc
#endif

/// What the PulseAudio writer thread uses, in one manually allocated block
/// behind a raw pointer (no class reference, so no ARC on that thread): the
/// shared mixer state and libpulse's handles.
struct PulseWriter {
    let context: UnsafeMutablePointer<WriterContext>
    let stream: OpaquePointer
    let pulseContext: OpaquePointer
    let waker: UnsafeMutablePointer<interlude_pa_waker>
    let bytesPerFrame: Int

    /// With the main loop locked: asks the server where its read index is now
    /// (one round trip, waiting with the lock released) and returns the frames
    /// queued after it (what a `PA_SEEK_RELATIVE_ON_READ` write replaces) and
    /// the sink's latency in frames (taken from the stream, not yet heard). Nil
    /// when the server could not say (gone, or the indices not yet known).
    func measureQueue(rate: Int) -> (afterReadIndex: Int, inSink: Int)? {
        guard interlude_pa_stream_update_timing_info_wait(stream, waker) == 0,
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

    /// With the main loop locked: false once the stream or its connection has failed.
    func isConnected() -> Bool {
        interlude_pa_stream_get_state(stream).rawValue == PA_STREAM_READY.rawValue
            && interlude_pa_context_get_state(pulseContext).rawValue == PA_CONTEXT_READY.rawValue
    }
}

/// The real-time writer loop for PulseAudio: the thin outer loop that makes the
/// C calls (poll, the eventfd, libpulse under its main loop's lock); everything
/// of ours it calls (`mix`, `commit`, `post`, `publishHeard`, the rings) is
/// `@_noLocks`. It allocates nothing and touches no reference-counted object;
/// libpulse allocates inside `pa_stream_write` (the packet it queues) and
/// takes its main loop's lock, the documented exception (`AudioOutput`).
///
/// Steady playback: `poll` on the eventfd, which the main loop's callbacks
/// count on each data request and state change (and the engine on each
/// request of its own), or a period's timeout; then, locked, as many periods
/// as the server has room for, and the heard position from libpulse's
/// interpolated latency (frames written - what the server has not played).
///
/// The pause path. The server holds up to a buffer of media already written.
/// When the loop sees the pause request (before `mix` may start the fade, see
/// `WriterContext.runLatch`):
/// 1. a timing update gives the server's read index (one round trip);
/// 2. the media cursor goes back to the frame at that index: the ring keeps
///    every frame until it is heard, so they are still there;
/// 3. the next `mix` writes the fade from exactly there, with
///    `PA_SEEK_RELATIVE_ON_READ`: the server replaces everything after its read
///    index with it. What the sink had already taken plays, then the fade,
///    with no gap and no new stream (the sink input keeps its index).
/// The read index can move on by one sink block between the update and the
/// write (under a millisecond): then up to a block of music (at most 5 ms, see
/// `PulseConnection.bufferRequest`) is heard twice under the fade's start,
/// never a silence.
///
/// A resume likewise overwrites what the server holds when it is only the
/// silence written after the stop (not an alarm's last frames), so the media
/// fades in at once rather than after a buffer of silence.
func pulseWriterLoop(_ writer: UnsafeMutablePointer<PulseWriter>) {
    let name: StaticString = "interlude-audio"
    _ = interlude_name_this_thread(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))
    let context = writer.pointee.context
    let stream = writer.pointee.stream
    let mainloop = writer.pointee.waker.pointee.mainloop
    let control = context.pointee.control
    let period = context.pointee.periodFrames
    let channels = context.pointee.channels
    let rate = context.pointee.rate
    let bytesPerFrame = writer.pointee.bytesPerFrame
    let starved = EngineEvent.Kind.starved.rawValue
    let underrun = EngineEvent.Kind.underrun.rawValue
    let deviceLost = EngineEvent.Kind.deviceLost.rawValue
    let drained = EngineEvent.Kind.drained.rawValue
    let relative = PA_SEEK_RELATIVE
    let onRead = PA_SEEK_RELATIVE_ON_READ

    var wakeup = pollfd(fd: context.pointee.wakeFD, events: Int16(POLLIN), revents: 0)
    let timeout = Int32(max(10, period * 1000 / max(1, rate)))
    var wakeCount: UInt64 = 0
    // The server's underflow notifications seen so far (counted by the main loop
    // thread in the waker): each new one is an underrun, as an ALSA xrun is.
    var underflowsSeen: UInt64 = 0
    var latency: pa_usec_t = 0
    var negative: Int32 = 0
    // The next write replaces what the server holds after its read index.
    var overwrite = false
    var finished = false
    context.pointee.runLatch = control.pointee.mediaRun.load(ordering: .acquiring)
    while !finished && !control.pointee.stopRequested.load(ordering: .relaxed) {
        wakeup.revents = 0
        if poll(&wakeup, 1, timeout) < 0 && errno != EINTR {
            context.pointee.post(deviceLost, value: -Int(errno), call: EngineEvent.Call.poll.rawValue)
            context.pointee.deviceLost = true
            break
        }
        if wakeup.revents != 0 { _ = read(context.pointee.wakeFD, &wakeCount, 8) }

        interlude_pa_threaded_mainloop_lock(mainloop)
        guard writer.pointee.isConnected() else {
            context.pointee.post(deviceLost, value: Int(interlude_pa_context_errno(writer.pointee.pulseContext)),
                                 call: EngineEvent.Call.write.rawValue)
            context.pointee.deviceLost = true
            interlude_pa_threaded_mainloop_unlock(mainloop)
            break
        }
        let underflows = writer.pointee.waker.pointee.underflows
        while underflowsSeen < underflows {
            underflowsSeen += 1
            control.pointee.underruns.add(1, ordering: .relaxed)
            context.pointee.post(underrun, value: -Int(EPIPE))
        }
        let run = control.pointee.mediaRun.load(ordering: .acquiring)
        if !run && context.pointee.runLatch == true && !context.pointee.isMediaStopped
            && control.pointee.pauseDropsQueue.load(ordering: .relaxed),
           let queue = writer.pointee.measureQueue(rate: rate) {
            let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
            _ = context.pointee.rewindMedia(to: written - queue.afterReadIndex)
            // Heard now: the read index less what the sink has taken but not played.
            context.pointee.publishHeard(delay: queue.inSink, nanoseconds: WriterControl.monotonicNanoseconds())
            overwrite = true
        } else if run && context.pointee.runLatch == false && context.pointee.isMediaStopped,
                  let queue = writer.pointee.measureQueue(rate: rate),
                  context.pointee.queuedFramesAreSilent(queue.afterReadIndex) {
            control.pointee.deviceFramesWritten.add(-queue.afterReadIndex, ordering: .relaxed)
            overwrite = true
        }
        context.pointee.runLatch = run

        // After an overwrite the server holds one period: what it asks for next
        // comes through the main loop, which runs once this turn unlocks.
        var room = overwrite ? period : interlude_pa_stream_writable_size(stream) / bytesPerFrame
        if room < period { context.pointee.serviceFlushes() }
        // All the room the server asked for, in periods and the rest: `mix` stops at
        // the ring's end, and the server asks again only for what it misses beyond
        // what it has asked for. Writing whole periods only left the rest of a short
        // one unwritten for good, the server's queue a period short of its length;
        // with the 5 ms sink (`bufferRequest`) that was 5-10 ms from running dry
        // (`make soak`: 66 underruns in 30 minutes).
        while room > 0 {
            var frames = context.pointee.mix(maxFrames: min(room, period))
            var isSilence = false
            if frames == 0 {
                if control.pointee.endOfStream.load(ordering: .acquiring) && context.pointee.unreadMediaFrames() == 0 {
                    // Everything is queued: the server plays it out (starting a short
                    // stream that never reached its prebuffer), then says so.
                    if interlude_pa_stream_drain_wait(stream, writer.pointee.waker) == 0 {
                        control.pointee.publishHeard(frames: control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                                     nanoseconds: WriterControl.monotonicNanoseconds())
                        context.pointee.post(drained)
                        finished = true
                    }
                    break
                }
                // The decoder fell behind: silence (a period, or the room left) keeps
                // the stream going, and the engine hears of it.
                frames = min(room, period)
                context.pointee.scratch.update(repeating: 0, count: frames * channels)
                isSilence = true
                context.pointee.post(starved)
            }
            let result = interlude_pa_stream_write(stream, context.pointee.scratch, frames * bytesPerFrame,
                                                   overwrite ? onRead : relative)
            guard result >= 0 else {
                // libpulse refused the write (a stream that is not ready): lost, as a failed ALSA write.
                context.pointee.post(deviceLost, value: Int(interlude_pa_context_errno(writer.pointee.pulseContext)),
                                     call: EngineEvent.Call.write.rawValue)
                context.pointee.deviceLost = true
                finished = true
                break
            }
            overwrite = false
            if !isSilence { context.pointee.commit(frames) }
            room -= frames
        }
        // Once drained everything counts as heard (published above): a latency read
        // now, interpolated, would put the last few milliseconds back as unheard.
        if !finished && interlude_pa_stream_get_latency(stream, &latency, &negative) >= 0 {
            let delay = negative != 0 ? 0 : Int(latency) * rate / 1_000_000
            context.pointee.publishHeard(delay: delay, nanoseconds: WriterControl.monotonicNanoseconds())
        }
        interlude_pa_threaded_mainloop_unlock(mainloop)
    }
    control.pointee.finished.store(true, ordering: .releasing)
}

/// The thread entry: a C function with a raw pointer, so starting the thread
/// moves no Swift object across.
let pulseWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    pulseWriterLoop(raw!.assumingMemoryBound(to: PulseWriter.self))
    return nil
}
