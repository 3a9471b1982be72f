import AudioDecoding
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the engine's mixed frames go: the contract every output implements,
/// stated in one place as cmus's `op.h` and mpv's `audio/out/internal.h` do.
///
/// Implementations: `AlsaOutput` (a device, its own real-time thread),
/// `PulseOutput` (the PulseAudio server through libpulse, the same) and
/// `FileSink` (a WAV file or nowhere, on the frame clock). The engine knows an
/// output only through this protocol; `PlaybackEngine.Output.open(format:)`
/// makes one from the user's choice, or a caller injects its own
/// (`PlaybackEngine(paths:openOutput:)`, which the tests use to record).
///
/// ## The two clocks
///
/// Outputs are not all alike, and the contract says so instead of pretending:
///
/// - `.frameClock` (`FileSink`, test recorders): nothing runs by itself. The
///   output mixes and writes on the **engine's thread**, inside `render`, as
///   fast as it can; time is the frames rendered, so a render is deterministic
///   and the heard position is exactly the frames written. There is no thread,
///   no wake-up, nothing to suspend.
/// - `.realTime` (`AlsaOutput`, `PulseOutput`): `start` starts a thread of the output's own
///   (SCHED_FIFO when granted) that drains the rings at the device's pace. The
///   engine's thread only stores requests in the shared `WriterControl` and
///   wakes the writer through it (`WriterControl.wake`: one `write` to the
///   eventfd the output gave it in `attach`); the output's thread reports back through the control's
///   reports and the events ring. `render` does nothing. Both run one writer
///   loop (`writerLoop`: pause, resume, starve, drain, the heard position) over
///   a small device contract (`WriterDevice`: `AlsaDevice`, `PulseDevice`).
///
/// Both run the same mixer (`WriterContext.mix`/`commit`), so a WAV render is
/// what the device would have played.
///
/// ## Who calls what, and on which thread
///
/// Every method below is called on the **engine's thread** (the one that
/// calls `PlaybackEngine`; the player's main loop), never concurrently:
///
/// | call | when | may block on |
/// |---|---|---|
/// | `attach(_:)` | once, after the engine made its rings | allocation; ALSA: `eventfd`, poll descriptors |
/// | `start()` | once before the first frame; realTime: starts the thread | `pthread_create` |
/// | `render(maxFrames:)` | frameClock: each `pump` | the file's `write`; realTime: returns 0 at once |
/// | `serviceRequests()` | frameClock: a resume's flush before rendering | nothing |
/// | `stop()` | quit, end of stream, device lost | realTime: joins the thread (at most one poll timeout, 10 ms or a period); frameClock: finalizes and closes the file (`fsync`) |
/// | `suspend()` / `resume()` | job control (Ctrl-Z, `fg`) | realTime: join, `snd_pcm_drop`/`snd_pcm_prepare` (pulse: a timing update, `pa_stream_cork` and `pa_stream_flush`, each a round trip to the server), `pthread_create`; frameClock: nothing (returns false) |
/// | `isFinished`, `failure`, `isRealtimePriority` | each `pump` | nothing (atomics, stored values) |
/// | `describeLoss(_:)` | a `deviceLost` event drained | nothing |
///
/// The output's own thread (realTime only) calls, in a thin outer loop, only
/// the device's C API and the kernel: `poll`, `read` of the eventfd,
/// `clock_gettime`, and alsa-lib's `snd_pcm_writei`, `snd_pcm_delay`,
/// `snd_pcm_state`, `snd_pcm_drop`, `snd_pcm_prepare`, `snd_pcm_start`,
/// `snd_pcm_drain`, `snd_pcm_resume`, `snd_pcm_wait` (bounded recovery), and
/// `prctl` once at entry (`pthread_setname_np`, naming it `interlude-audio`).
/// alsa-lib is the only code on that thread that may take a lock or allocate:
/// the pulse plugin takes its mainloop lock inside `snd_pcm_writei` and
/// `snd_pcm_delay`, and libpulse allocates there (measured by
/// `AllocationCountingTests`: 59 allocations in 2614 periods of 220 frames,
/// in `pa_stream_write`'s packet queue, `pa_stream_cork` and timing updates
/// around a drop, and the new stream `snd_pcm_prepare` makes after one). A
/// kernel device (`hw:`) goes through ioctls instead.
///
/// `PulseOutput`'s thread calls `poll` and `read` on its eventfd (which
/// libpulse's main loop thread counts on each data request and state change),
/// `clock_gettime`, and, with libpulse's main loop locked
/// (`pa_threaded_mainloop_lock`/`unlock`), `pa_stream_writable_size`,
/// `pa_stream_write`, `pa_stream_get_latency`, the state getters,
/// `pa_context_errno`, and, once per pause or resume and at the end,
/// `pa_stream_update_timing_info` or `pa_stream_drain` followed by
/// `pa_threaded_mainloop_wait` until the server answers, and `pa_stream_cork`
/// without waiting when the device sleeps or wakes (`writerLoop`: paused with
/// nothing to sound, the loop waits on its eventfd alone). That lock, the wait,
/// and libpulse's allocations there are the exception on this output
/// (`AllocationCountingTests`: 8 allocations in 2615 periods of 220 frames,
/// the reply slots of the timing updates and libpulse's per-thread record at
/// the first lock; `pa_stream_write` copies into its memory pool, allocating
/// nothing). libpulse's main loop thread is raised to the writer's priority
/// (`PluginThreads`): it carries the writes and brings back the timing a pause
/// waits for. Everything of ours it
/// calls (`mix`, `commit`, `publishHeard`, the rings, `post`) is `@_noLocks`,
/// and PCM states are compared as raw values (an imported enum's `==` made the
/// runtime build conformance metadata, allocating, at the first pause).
///
/// ## Real-time rules (the writer side, whichever thread runs it)
///
/// - No allocation or free: the scratch buffer, the poll descriptors, the
///   context and the control block are allocated in `attach`, before the
///   thread starts. `AllocationCountingTests` counts allocations on the
///   writer thread over thousands of periods: zero.
/// - No lock, no ARC, no I/O but the device's: the loop's state is a
///   `WriterContext` behind a raw pointer (no class reference, array, string,
///   closure or existential), control flows in through atomics, events flow
///   out through the fixed-size events ring.
/// - Shared state has one writer per field: requests by the engine's thread,
///   reports by the writer side (`WriterControl`).
/// - Failure is reported, never swallowed: a write the bounded recovery
///   cannot save, or a failed `poll`, posts `deviceLost` and leaves the loop;
///   the engine turns it into `PlaybackEvent.deviceLost` with
///   `describeLoss(_:)`'s one line. Only a drained end of stream posts `drained`.
///
/// ## What the engine relies on
///
/// - The heard position is in the control (`readHeard()`): on the frame clock
///   the frames written; in real time frames written minus the device's
///   delay, measured once a period, with the monotonic time of the measurement.
/// - A pause (`mediaRun` false with `pauseDropsQueue`) stops the media at the
///   exact frame its fade reached silence and reports it in `mediaStoppedAt`;
///   a realTime output first drops what the device holds and rewinds to the
///   frame being heard, so the fade is heard at once (PulseAudio: overwrites
///   what the server holds after its read index, on the same stream).
/// - `isFinished` becomes true once the output's loop has ended (drained at
///   the end of the stream, or after posting `deviceLost`); `failure` is set
///   when a frame-clock output could not keep what it rendered.
public protocol AudioOutput: AnyObject {
    /// The format the output was opened with: the engine's rings carry it.
    var format: AudioFormat { get }
    /// How time passes for this output (see above).
    var clock: OutputClock { get }
    /// Frames the media ring must hold for this output: what is decoded ahead,
    /// plus what the output has taken but the listener has not heard yet.
    var mediaRingFrames: Int { get }
    /// Frames the output holds after the writer took them, not yet heard (the
    /// device's buffer; 0 on the frame clock).
    var bufferFrames: Int { get }
    /// Builds the writer over the engine's rings and control block. Once.
    func attach(_ link: WriterLink) throws(OutputError)
    /// realTime: starts the writer thread. frameClock: nothing.
    func start() throws(OutputError)
    /// True when the writer thread runs with real-time priority (always true on the frame clock).
    var isRealtimePriority: Bool { get }
    /// frameClock: mixes and writes up to `maxFrames` frames on this thread and
    /// returns how many. realTime: 0.
    func render(maxFrames: Int) -> Int
    /// frameClock: lets the mixer honour a flush request without rendering.
    func serviceRequests()
    /// Ends the writer. realTime: what the device holds is dropped, the thread
    /// joined (`resume()` may start it again). frameClock: the file is finished.
    func stop()
    /// Job control: stops the writer, releases what the device holds, and
    /// freezes the media at the last heard frame. False when there is nothing
    /// to suspend (the frame clock).
    func suspend() -> Bool
    /// After `suspend()`: prepares the device and starts the writer again.
    func resume() throws(OutputError)
    /// The output's loop has ended (see above).
    var isFinished: Bool { get }
    /// Why a frame-clock output could not keep its frames (a full disk), once it happened.
    var failure: OutputError? { get }
    /// One line for a `deviceLost` event this output's writer posted.
    func describeLoss(_ event: EngineEvent) -> String
    /// One line for an `outputAway` event (a server that is not there; the
    /// writer plays on and tries again).
    func describeAway(_ event: EngineEvent) -> String
    /// An alarm began (true) or ended sounding through the output: a sound
    /// server's stream says so in its `media.role` (`PulseOutput.alarmRole`),
    /// for the desktop's policy; a device or a file has no role.
    func setAlarmRole(_ ringing: Bool)
}

extension AudioOutput {
    public func setAlarmRole(_ ringing: Bool) {}
    public func describeAway(_ event: EngineEvent) -> String { "" }
}

public enum OutputClock: Sendable {
    /// Renders on the caller's thread; time is the frames rendered.
    case frameClock
    /// Plays on a thread of its own at the device's pace.
    case realTime
}

/// An output that could not open, start or keep writing: one line, with the
/// device or file and the library's or kernel's own message.
public enum OutputError: Error, Sendable, CustomStringConvertible {
    case device(AlsaError)
    /// The PulseAudio server could not be reached, or refused the stream.
    case soundServer(PulseAudioError)
    case file(FileSink.FileError)
    /// A Snapcast stream's pipe is something else than a pipe.
    case snapcast(SnapcastOutput.OpenError)
    /// The writer thread, or what it needs before it starts, could not be made.
    case writerThread(reason: String?)

    public var description: String {
        switch self {
        case .device(let error): error.description
        case .soundServer(let error): error.description
        case .file(let error): error.description
        case .snapcast(let error): error.description
        case .writerThread(let reason):
            "could not start the audio writer thread" + (reason.map { ": \($0)" } ?? "")
        }
    }

    /// The device or sound server is not there (yet): a player may wait for it.
    public var isDeviceUnavailable: Bool {
        switch self {
        case .device, .soundServer: true
        case .file, .snapcast, .writerThread: false
        }
    }
}

/// What the engine hands an output in `attach`: its rings and the shared
/// control block, kept alive for as long as any writer may use them.
public final class WriterLink: @unchecked Sendable {
    // @unchecked Sendable: the rings are single-producer/single-consumer by
    // construction and the control is atomics only (see `WriterControl`).
    public let media: SPSCRing
    public let voice: SPSCRing
    public let events: SPSCRing
    public let control: UnsafeMutablePointer<WriterControl>
    /// A device opened again after it was lost: the writer starts with the
    /// media stopped (silent, both rings flushed on the next resume).
    public let startsWithMediaStopped: Bool

    /// What the writer counts on when it posts an event the engine's thread
    /// must hear of at once (`WriterControl.reportToEngine`), polled by the
    /// player's loop; -1 when none could be made (the loop then looks now and then).
    public let reportDescriptor: Int32

    init(media: SPSCRing, voice: SPSCRing, events: SPSCRing, startsWithMediaStopped: Bool = false) {
        self.media = media
        self.voice = voice
        self.events = events
        self.startsWithMediaStopped = startsWithMediaStopped
        control = WriterControl.allocate()
        reportDescriptor = (try? SystemCall.eventDescriptor()) ?? -1
        control.pointee.reportDescriptor.store(reportDescriptor, ordering: .relaxed)
    }

    /// Every writer over the link has been joined: the output that started it holds the link.
    deinit {
        if reportDescriptor >= 0 { close(reportDescriptor) }
        WriterControl.deallocate(control)
    }
}
