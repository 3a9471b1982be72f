import CInterludeShims
#if canImport(Glibc)
import Glibc
#endif

/// What the one writer loop asks of a device, as cmus's `op.h` asks of an
/// output plugin: the loop holds the whole protocol (pause, resume, starve,
/// drain, the heard position), a driver only these operations. Implemented by
/// `AlsaDevice` and `PulseDevice`; the loop is generic over them, so nothing
/// on the real-time thread is an existential, a closure or a class reference.
///
/// Every operation runs on the writer thread, between `beginTurn` and
/// `endTurn` except `wait`. A driver may call its C library (the loop's calls
/// into it are the one place `@_noLocks` cannot check); everything of ours it
/// calls is `@_noLocks`.
protocol WriterDevice {
    /// The mixer and shared state the loop runs over.
    var context: UnsafeMutablePointer<WriterContext> { get }
    /// Waits up to `milliseconds` for room or a wake-up (the engine's eventfd);
    /// 0, or the errno of a wait that failed (an interrupted wait has not).
    mutating func wait(milliseconds: Int32) -> Int32
    /// Starts a turn (PulseAudio: locks its main loop). `endTurn` follows
    /// whatever this returns.
    mutating func beginTurn() -> DeviceTurn
    mutating func endTurn()
    /// Underruns the device has seen since this was last called (an ALSA xrun
    /// recovered in `write`, a PulseAudio underflow notification).
    mutating func takeUnderruns() -> Int
    /// Frames the device takes now without blocking long (ALSA: a period or,
    /// woken by the engine alone, none).
    mutating func room() -> Int
    /// What the device holds for a pause's or a resume's drop; nil when it cannot say.
    mutating func measureQueue() -> DeviceQueue?
    /// Gives up what the device holds (`measureQueue` just measured it as
    /// `measured`) and says what it gave up, nil when it could not: ALSA
    /// drops and prepares; PulseAudio's next write replaces it instead; a
    /// Snapcast pipe is read back, and what its server took meanwhile was
    /// not given up.
    mutating func drop(measured: DeviceQueue) -> DeviceQueue?
    /// After a drop the loop writes a period at once and the rest when the
    /// device asks (a sound card's or server's next request); true when it
    /// fills the device to its lead at once (a Snapcast pipe, read on the
    /// server's clock, must not run dry while the writer waits).
    static var fillsAfterDrop: Bool { get }
    /// Writes `frames` frames of the context's scratch buffer. `replacingQueue`:
    /// the first write after a `drop` (ALSA starts the device by hand after it,
    /// since its start threshold is the whole buffer; PulseAudio writes it over
    /// everything the server holds after its read index).
    mutating func write(frames: Int, replacingQueue: Bool) -> DeviceWrite
    /// Frames written that the listener has not heard yet (the delay); nil when unknown.
    mutating func unheardFrames() -> Int?
    /// Plays out what the device holds (blocking until done); false when it could not.
    mutating func drain() -> Bool
    /// Paused with nothing to sound (`WriterContext.maySleep`): the device stops
    /// taking frames, so the loop waits for the engine alone instead of writing
    /// silence a period at a time (PulseAudio: the stream corked, which stops
    /// the server's requests; ALSA: dropped, the device stopped). What it holds
    /// is silence. False when it could not: the loop goes on writing silence.
    mutating func sleep() -> Bool
    /// Asleep a while longer with nothing asked (`WriterContext.releaseAfterNanoseconds`):
    /// the device lets go of what it still holds outside the process
    /// (PulseAudio: the stream itself). False when there is nothing to let go
    /// (ALSA: a dropped device costs nothing).
    mutating func release() -> Bool
    /// The engine asked for something after `sleep`: the device takes frames
    /// again (PulseAudio: uncorked, or made again after `release`; ALSA:
    /// prepared already). The loop then gives up the silence it holds, as at
    /// a resume, and writes at once. `.lost` when it cannot.
    mutating func wake() -> DeviceTurn
    /// Whether the heard position is measured in a turn that wrote nothing
    /// (PulseAudio's interpolated latency costs no round trip; ALSA's delay
    /// goes through the pulse plugin's lock, so it is measured after writes only).
    static var measuresEveryTurn: Bool { get }
}

enum DeviceTurn {
    case ready
    /// The device or its server is gone: `code` for `describeLoss`.
    case lost(code: Int)
}

enum DeviceWrite {
    case written(frames: Int)
    /// Recovered (an ALSA xrun prepared away): the loop goes on with the next turn.
    case retry
    case lost(code: Int)
}

/// What a device holds, in frames.
struct DeviceQueue {
    /// Written but not heard yet: the listener is at frames written minus this.
    var unheard: Int
    /// Of those, the oldest ones that still sound after a drop: a sound
    /// server's sink has taken them (`AlsaPCM.dropLeftoverFrames`, PulseAudio's
    /// sink latency). A pause's fade starts after them.
    var stillSounding: Int
    /// What a resume's drop would take back from the frames written; nil when
    /// the device is not playing and a resume drops nothing.
    var droppable: Int?
}

/// The real-time writer loop, the one for every real-time device: the thin
/// outer loop that makes the device's calls; everything it calls on our side
/// (`mix`, `commit`, `post`, the protocol steps below, the rings) is `@_noLocks`.
/// It allocates nothing, takes no lock and touches no reference-counted
/// object; its state is the `WriterContext` and the device behind raw pointers.
///
/// Steady playback: one wait for room or a wake-up a turn (the engine writes the
/// eventfd after every request, so the writer acts on it at once, not a period
/// later), then as much as the device has room for in periods and the rest
/// (`mix` stops at the media ring's end; writing whole periods only left a short
/// rest unwritten, the PulseAudio server's queue a period short, `make soak`: 66
/// underruns in 30 minutes), then the heard position: frames written minus the
/// device's delay.
///
/// The pause path. The device holds up to a buffer (300 ms by default) of media
/// already written; fading at the writer's position would leave all of it to
/// play first. Instead, when the loop sees the pause request (before `mix` may
/// start a fade, see `WriterContext.runLatch`):
/// 1. the device says how many frames it holds unheard (ALSA: `snd_pcm_delay`;
///    PulseAudio: a timing update, one round trip, for its read index);
/// 2. it gives them up: ALSA drops and prepares; PulseAudio's next write, with
///    `PA_SEEK_RELATIVE_ON_READ`, replaces everything after the read index, on
///    the same stream;
/// 3. the media cursor goes back to the frame being heard plus what still
///    sounds after the drop (`DeviceQueue.stillSounding`): the ring keeps every
///    frame until it is heard, so those frames are still there;
/// 4. the next `mix` writes the fade from exactly there, stops the media at the
///    frame the fade reaches silence (`mediaStoppedAt`, where a resume
///    continues), then silence or the alarm voice, without waiting for the
///    device first.
/// The media is then silent a fade (plus what still sounded) after the request.
/// Through PulseAudio the read index can move on by one sink block between the
/// update and the write (under a millisecond): then up to a block (at most
/// 5 ms, see `PulseConnection.bufferRequest`) is heard twice under the fade's
/// start, never a silence.
///
/// A resume likewise drops what the device holds when it is only the silence
/// written after the stop (not an alarm's last frames), so the media fades in
/// at once rather than after a buffer of silence.
///
/// So does media that comes after a starve: the silence that kept the device
/// fed while the ring was empty (a station's start, before its first packet is
/// decoded; a stall) is dropped when the device holds nothing else, and the
/// media is heard at once, not a buffer later (300 ms by default: a station's
/// first sound came that much after its first decoded frame).
///
/// Paused, with no voice, the loop would write silence forever, a period at a
/// time, and the sound server would ask for it: through PulseAudio 40-60 ms of
/// CPU per 5 s of the writer's and libpulse's threads, for nothing heard. So
/// once a second of silence has been written after both stopped, and the
/// device holds nothing else, the device sleeps (`WriterDevice.sleep`) and the
/// loop waits on the engine's eventfd alone. Five seconds later the device
/// lets go of what it holds outside the process (`release`: PulseAudio's
/// stream, whose timing updates would wake libpulse's thread every 1.5 s),
/// and the wait has no timeout. A request that only the writer can serve
/// while stopped (a ring's flush) is served asleep; one that sounds (a
/// resume, an alarm's voice) wakes the device (made again if it was let go),
/// which gives up the silence it held, so the media or the voice is heard at
/// once. A lost device still wakes the loop (libpulse's state callback counts
/// on the eventfd), which says so as when awake.
func writerLoop<Device: WriterDevice>(_ device: UnsafeMutablePointer<Device>) {
    // Named once, for `top -H` and for `AllocationCountingTests`, which counts
    // allocations on the thread of this name. A literal: no String is made here.
    let name: StaticString = "interlude-audio"
    _ = interlude_name_this_thread(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))
    let context = device.pointee.context
    let control = context.pointee.control
    let period = context.pointee.periodFrames
    let timeout = Int32(max(10, period * 1000 / max(1, context.pointee.rate)))
    let deviceLost = EngineEvent.Kind.deviceLost.rawValue
    let drained = EngineEvent.Kind.drained.rawValue
    let starved = EngineEvent.Kind.starved.rawValue
    let underrun = EngineEvent.Kind.underrun.rawValue
    let xrun = -Int(EPIPE)
    let waitCall = EngineEvent.Call.poll.rawValue
    let writeCall = EngineEvent.Call.write.rawValue
    // A drop is pending its first write: the loop writes it without waiting first.
    var dropped = false
    // Device frames of silence written since the last media frame because the
    // ring was empty: what a catch-up may drop when the media comes back.
    var starvedSilence = 0
    var finished = false
    // The device sleeps (paused, nothing to sound) since `sleptAt` (monotonic
    // nanoseconds); once `released`, the wait has no timeout.
    var asleep = false
    var released = false
    var sleptAt = 0
    // Silence written after the media and the voice stopped before the device may sleep: a second.
    let sleepAfter = context.pointee.rate
    let releaseAfter = 5_000
    context.pointee.runLatch = control.pointee.mediaRun.load(ordering: .acquiring)
    while !finished && !control.pointee.stopRequested.load(ordering: .relaxed) {
        if !dropped {
            let failure = device.pointee.wait(milliseconds: asleep ? (released ? -1 : Int32(releaseAfter)) : timeout)
            if failure != 0 {
                // The loop cannot wait any more: the device counts as lost (not
                // finished), and the engine keeps the place heard.
                context.pointee.post(deviceLost, value: -Int(failure), call: waitCall)
                context.pointee.deviceLost = true
                control.pointee.reportToEngine()
                break
            }
        }
        if case .lost(let code) = device.pointee.beginTurn() {
            context.pointee.post(deviceLost, value: code, call: writeCall)
            context.pointee.deviceLost = true
            control.pointee.reportToEngine()
            device.pointee.endTurn()
            break
        }
        if asleep {
            if context.pointee.staysAsleep() {
                if !released && WriterControl.monotonicNanoseconds() - sleptAt >= releaseAfter * 1_000_000 {
                    _ = device.pointee.release()
                    released = true
                }
                device.pointee.endTurn()
                continue
            }
            // Something to sound: what the device held while asleep is silence, given up so it is heard at once.
            asleep = false
            released = false
            if case .lost(let code) = device.pointee.wake() {
                context.pointee.post(deviceLost, value: code, call: writeCall)
                context.pointee.deviceLost = true
                control.pointee.reportToEngine()
                device.pointee.endTurn()
                break
            }
            if let measured = device.pointee.measureQueue(), context.pointee.queuedFramesAreSilent(measured.droppable ?? 0),
               let queue = device.pointee.drop(measured: measured) {
                context.pointee.giveBack(queue.droppable ?? 0)
                dropped = true
                starvedSilence = 0
            }
        }
        context.pointee.countUnderruns(device.pointee.takeUnderruns(), event: underrun, value: xrun)
        switch context.pointee.latchRunRequest() {
        case .pause:
            if let measured = device.pointee.measureQueue(), let queue = device.pointee.drop(measured: measured) {
                context.pointee.rewindForPause(queue, nanoseconds: WriterControl.monotonicNanoseconds())
                dropped = true
                starvedSilence = 0
            }
        case .resume:
            // (Dropped already when it woke the device.)
            if !dropped, let measured = device.pointee.measureQueue(), let droppable = measured.droppable,
               context.pointee.queuedFramesAreSilent(droppable), let queue = device.pointee.drop(measured: measured) {
                context.pointee.giveBack(queue.droppable ?? 0)
                dropped = true
                starvedSilence = 0
            }
        case .none:
            break
        }

        // Media after a starve (the engine wakes the writer when it comes, the
        // device may not ask for more for a period): when all the device holds
        // is the starve's silence, it gives it up and the media goes in its place.
        if starvedSilence > 0 && !dropped && context.pointee.unreadMediaFrames() > 0 {
            if let measured = device.pointee.measureQueue(), let droppable = measured.droppable,
               droppable <= starvedSilence, let queue = device.pointee.drop(measured: measured) {
                context.pointee.giveBack(queue.droppable ?? 0)
                dropped = true
            }
            starvedSilence = 0
        }
        // After a drop the device holds next to nothing: a period now, the rest
        // when it asks (or all of it now, `fillsAfterDrop`).
        var room = dropped && !Device.fillsAfterDrop ? period : device.pointee.room()
        // No room for a period: a resume or a new voice may wait for its ring to
        // be emptied, which only the writer can do.
        if room < period { context.pointee.serviceFlushes() }
        var wrote = false
        var retry = false
        while room > 0 {
            var frames = context.pointee.mix(maxFrames: min(room, period))
            var isSilence = false
            if frames == 0 {
                if context.pointee.isAtEndOfStream() {
                    // Everything is queued: the device plays it out (starting a
                    // short stream that never filled its buffer), then says so.
                    // Once drained everything counts as heard, and nothing is
                    // published after: a PulseAudio latency read now, interpolated,
                    // would put the last few milliseconds back as unheard.
                    if device.pointee.drain() {
                        context.pointee.publishAllHeard(nanoseconds: WriterControl.monotonicNanoseconds())
                        context.pointee.post(drained)
                        finished = true
                    }
                    break
                }
                // The decoder fell behind: silence (a period, or the room left)
                // keeps the device fed rather than let it run dry, and the engine
                // hears of it.
                frames = context.pointee.silence(frames: min(room, period))
                isSilence = true
                context.pointee.post(starved)
            }
            let result = device.pointee.write(frames: frames, replacingQueue: dropped)
            context.pointee.countUnderruns(device.pointee.takeUnderruns(), event: underrun, value: xrun)
            switch result {
            case .written(let accepted):
                dropped = false
                wrote = true
                if isSilence { starvedSilence += accepted } else {
                    context.pointee.commit(accepted)
                    starvedSilence = 0
                }
                room -= frames
            case .retry:
                retry = true
            case .lost(let code):
                context.pointee.post(deviceLost, value: code, call: writeCall)
                context.pointee.deviceLost = true
                control.pointee.reportToEngine()
                finished = true
            }
            if retry || finished { break }
        }
        if !finished && !retry && (wrote || Device.measuresEveryTurn), let unheard = device.pointee.unheardFrames() {
            context.pointee.publishHeard(delay: unheard, nanoseconds: WriterControl.monotonicNanoseconds())
            if !dropped && context.pointee.maySleep(unheard: unheard, afterFrames: sleepAfter) && device.pointee.sleep() {
                asleep = true
                sleptAt = WriterControl.monotonicNanoseconds()
            }
        }
        device.pointee.endTurn()
    }
    control.pointee.finished.store(true, ordering: .releasing)
}

/// A run request's edge as the writer loop latches it.
enum RunEdge {
    /// Asked to pause (with the device's queue dropped) while the media plays.
    case pause
    /// Asked to play while the media is stopped, the silence after the stop to be dropped (`resumeDropsSilence`).
    case resume
    case none
}

/// The protocol's steps on the writer's state, called by `writerLoop` between
/// the device's operations.
extension WriterContext {
    /// Loads the run request, says whether it is a pause or a resume the device
    /// must act on first, and latches it for `mix`.
    @_noLocks
    mutating func latchRunRequest() -> RunEdge {
        let run = control.pointee.mediaRun.load(ordering: .acquiring)
        var edge = RunEdge.none
        if !run && runLatch == true && !mediaStopped && control.pointee.pauseDropsQueue.load(ordering: .relaxed) {
            edge = .pause
        } else if run && runLatch == false && mediaStopped && control.pointee.resumeDropsSilence.load(ordering: .relaxed) {
            edge = .resume
        }
        runLatch = run
        return edge
    }

    /// Step 3 of the pause path, after the device gave up `queue`: the media
    /// goes on from the frame being heard plus what still sounds, and the heard
    /// frame is published, measured now.
    @_noLocks
    mutating func rewindForPause(_ queue: DeviceQueue, nanoseconds: Int) {
        let heard = control.pointee.mediaFramesWritten.load(ordering: .relaxed) - queue.unheard
        _ = rewindMedia(to: heard + queue.stillSounding)
        publishHeard(delay: control.pointee.mediaFramesWritten.load(ordering: .relaxed) - heard,
                     nanoseconds: nanoseconds)
    }

    /// Whether the device may sleep: the media and the voice stopped and not
    /// asked for, and the `unheard` frames it holds silence written at least
    /// `afterFrames` after both stopped.
    @_noLocks
    func maySleep(unheard: Int, afterFrames: Int) -> Bool {
        guard case .some(false) = runLatch else { return false }
        return !control.pointee.mediaRun.load(ordering: .relaxed) && !control.pointee.voiceRun.load(ordering: .relaxed)
            && queuedFramesAreSilent(unheard + afterFrames)
    }

    /// Asleep, woken: serves a ring's flush (the engine waits for it before a
    /// resume's seek) and says whether nothing is asked to sound yet.
    @_noLocks
    mutating func staysAsleep() -> Bool {
        serviceFlushes()
        // Acquire: pairs with the engine's release stores of `mediaRun` and `voiceRun` (as in `mix`).
        return !control.pointee.mediaRun.load(ordering: .acquiring) && !control.pointee.voiceRun.load(ordering: .acquiring)
    }

    /// A resume's drop gave back `frames` queued frames of silence.
    @_noLocks
    func giveBack(_ frames: Int) {
        control.pointee.deviceFramesWritten.add(-frames, ordering: .relaxed)
    }

    /// The engine ended the stream and the writer has mixed all of it.
    @_noLocks
    func isAtEndOfStream() -> Bool {
        control.pointee.endOfStream.load(ordering: .acquiring) && unreadMediaFrames() == 0
    }

    /// After the drain: every frame written was heard.
    @_noLocks
    func publishAllHeard(nanoseconds: Int) {
        control.pointee.publishHeard(frames: control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                     nanoseconds: nanoseconds)
    }

    /// `frames` frames of silence in the scratch buffer.
    @_noLocks
    func silence(frames: Int) -> Int {
        scratch.update(repeating: 0, count: frames * channels)
        return frames
    }

    /// `count` underruns counted, each posted as `event` with `value`, as an
    /// ALSA xrun is (the kind's raw value: an enum's `rawValue` getter is opaque
    /// to `@_noLocks`).
    @_noLocks
    func countUnderruns(_ count: Int, event: UInt32, value: Int) {
        guard count > 0 else { return }
        for _ in 0..<count {
            control.pointee.underruns.add(1, ordering: .relaxed)
            post(event, value: value)
        }
    }
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
