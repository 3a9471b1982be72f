import CAlsa
import CInterludeShims
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The real-time writer loop for ALSA. This thin outer loop makes the C calls
/// (poll, write, delay, drop, recover), which `@_noLocks` cannot check; everything
/// it calls on our side (`mix`, `commit`, `post`, the ring) is `@_noLocks`.
/// It allocates nothing, takes no lock and touches no reference-counted object:
/// its only state is the `WriterContext` behind a raw pointer.
///
/// Steady playback: one `poll` on the device's descriptors and the wake-up
/// eventfd, then one write and one delay query a period, as before the poll
/// (the write no longer waits inside alsa-lib, so no call is added where the
/// pulse plugin takes its lock). The main thread writes the eventfd after every
/// request, so the writer acts on it within the poll's wake-up, not a period later.
///
/// The pause path. The device holds up to a buffer (300 ms by default) of media
/// already written; fading at the writer's position would leave all of it to
/// play first. Instead, when the loop sees the pause request (before `mix` may
/// start a fade, see `WriterContext.runLatch`):
/// 1. `snd_pcm_delay` gives the frame being heard (frames written - delay);
/// 2. `snd_pcm_drop` discards the device's queue, `snd_pcm_prepare` readies it;
/// 3. the media cursor goes back to that frame plus what the device still plays
///    after a drop (`AlsaPCM.dropLeftoverFrames`): the ring keeps every frame
///    until it is heard, so those frames are still there;
/// 4. the next `mix` writes the fade from exactly there, stops the media at the
///    frame the fade reaches silence (`mediaStoppedAt`, where a resume
///    continues), then silence or the alarm voice; `snd_pcm_start` starts the
///    device by hand, since the start threshold is the whole buffer.
/// The media is then silent a fade (plus the leftover) after the request.
///
/// A resume likewise drops what the device holds when it is only the silence
/// written after the stop (not an alarm's last frames), so the media fades in
/// at once rather than after a buffer of silence.
func alsaWriterLoop(_ context: UnsafeMutablePointer<WriterContext>) {
    guard let pcm = context.pointee.pcm, let fds = context.pointee.pollDescriptors else { return }
    // Named once, for `top -H` and for `AllocationCountingTests`, which counts
    // allocations on the thread of this name. A literal: no String is made here.
    let name: StaticString = "interlude-audio"
    _ = interlude_name_this_thread(UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))
    let control = context.pointee.control
    let period = context.pointee.periodFrames
    let channels = context.pointee.channels
    let rate = context.pointee.rate
    let leftover = context.pointee.dropLeftoverFrames
    let underrun = EngineEvent.Kind.underrun.rawValue
    let starved = EngineEvent.Kind.starved.rawValue
    let deviceLost = EngineEvent.Kind.deviceLost.rawValue
    let drained = EngineEvent.Kind.drained.rawValue
    // PCM states compared as raw values: `==` on the imported enum goes through
    // its Equatable conformance, whose metadata the runtime builds, allocating,
    // the first time it is used (AllocationCountingTests caught it at the first pause).
    let runningState = SND_PCM_STATE_RUNNING.rawValue
    let preparedState = SND_PCM_STATE_PREPARED.rawValue

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

    /// Steps 1-3 of the pause path. False when the device could not tell where
    /// the listener is: then the fade simply starts at the writer's position.
    func dropForPause() -> Bool {
        var delay: snd_pcm_sframes_t = 0
        let running = snd_pcm_state(pcm).rawValue == runningState
        guard snd_pcm_delay(pcm, &delay) >= 0 else { return false }
        let written = control.pointee.mediaFramesWritten.load(ordering: .relaxed)
        let heard = written - Int(delay)
        guard snd_pcm_drop(pcm) >= 0, snd_pcm_prepare(pcm) >= 0 else { return false }
        _ = context.pointee.rewindMedia(to: heard + (running ? leftover : 0))
        control.pointee.publishHeard(frames: max(0, heard), nanoseconds: WriterControl.monotonicNanoseconds())
        return true
    }

    /// The resume's drop: only when everything queued is silence after the stop.
    func dropSilenceForResume() -> Bool {
        var queued: snd_pcm_sframes_t = 0
        guard snd_pcm_state(pcm).rawValue == runningState, snd_pcm_delay(pcm, &queued) >= 0,
              context.pointee.queuedFramesAreSilent(Int(queued)),
              snd_pcm_drop(pcm) >= 0, snd_pcm_prepare(pcm) >= 0 else { return false }
        control.pointee.deviceFramesWritten.add(-Int(queued), ordering: .relaxed)
        return true
    }

    // The device's descriptors (fetched and checked in `AlsaOutput.attach`), then
    // the eventfd. A poll that times out (a plugin whose descriptor was not made
    // ready) falls through to a blocking write.
    let deviceFDs = context.pointee.deviceDescriptorCount
    fds[deviceFDs] = pollfd(fd: context.pointee.wakeFD, events: Int16(POLLIN), revents: 0)
    let waitForDevice = context.pointee.waitForDevice
    let timeout = Int32(max(10, period * 1000 / max(1, rate)))
    var wakeCount: UInt64 = 0
    var delay: snd_pcm_sframes_t = 0
    var startByHand = false
    context.pointee.runLatch = control.pointee.mediaRun.load(ordering: .acquiring)
    while !control.pointee.stopRequested.load(ordering: .relaxed) {
        if !startByHand {
            for index in 0...deviceFDs { fds[index].revents = 0 }
            let ready = waitForDevice(fds, nfds_t(deviceFDs + 1), timeout)
            if ready < 0 {
                let code = errno
                if code != EINTR {
                    // The loop cannot wait any more: the device counts as lost (not
                    // finished), and the engine keeps the place heard.
                    context.pointee.post(deviceLost, value: -Int(code), call: EngineEvent.Call.poll.rawValue)
                    context.pointee.deviceLost = true
                    break
                }
            }
            if fds[deviceFDs].revents != 0 { _ = read(context.pointee.wakeFD, &wakeCount, 8) }
        }
        let run = control.pointee.mediaRun.load(ordering: .acquiring)
        if !run && context.pointee.runLatch == true && !context.pointee.isMediaStopped
            && control.pointee.pauseDropsQueue.load(ordering: .relaxed) && dropForPause() {
            startByHand = true
        } else if run && context.pointee.runLatch == false && context.pointee.isMediaStopped && dropSilenceForResume() {
            startByHand = true
        }
        context.pointee.runLatch = run
        if !startByHand && fds[deviceFDs].revents != 0 {
            // Woken by a request: the device may have no room yet; wait for it again
            // (unless it said it had room in the same poll).
            var deviceReady = false
            for index in 0..<deviceFDs where fds[index].revents != 0 { deviceReady = true }
            if !deviceReady {
                // A resume or a new voice waits for its ring to be emptied: do it now.
                context.pointee.serviceFlushes()
                continue
            }
        }

        var frames = context.pointee.mix(maxFrames: period)
        var isSilence = false
        if frames == 0 {
            if control.pointee.endOfStream.load(ordering: .acquiring) && context.pointee.unreadMediaFrames() == 0 {
                // Everything is queued: start if the short stream never filled the buffer,
                // then play it out. drain blocks until the device has played the last frame.
                snd_pcm_drain(pcm)
                control.pointee.publishHeard(frames: control.pointee.mediaFramesWritten.load(ordering: .relaxed),
                                             nanoseconds: control.pointee.heardNanoseconds.load(ordering: .relaxed))
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
            if !recover(written) {
                context.pointee.post(deviceLost, value: written, call: EngineEvent.Call.write.rawValue)
                context.pointee.deviceLost = true
                break
            }
            continue
        }
        if startByHand {
            startByHand = false
            if snd_pcm_state(pcm).rawValue == preparedState { snd_pcm_start(pcm) }
        }
        if !isSilence { context.pointee.commit(Int(written)) }
        if snd_pcm_delay(pcm, &delay) >= 0 {
            context.pointee.publishHeard(delay: Int(delay), nanoseconds: WriterControl.monotonicNanoseconds())
        }
    }
    control.pointee.finished.store(true, ordering: .releasing)
}

/// The thread entry: a C function with a raw context pointer, so starting the
/// thread moves no Swift object across.
let alsaWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
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
