import AudioDecoding
import CPulse
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The PulseAudio sound server as an `AudioOutput` on the real-time clock,
/// through libpulse directly: a threaded main loop and context of its own, one
/// playback stream for the output's whole life, and the writer thread
/// (`writerLoop` over a `PulseDevice`) at SCHED_FIFO as ALSA's.
///
/// Why not ALSA's `pulse` plugin: a pause must drop what the server has queued
/// and fade from the frame being heard. The plugin can only drop by
/// `snd_pcm_drop` + `snd_pcm_prepare`, and its prepare destroys the server's
/// stream and makes a new one; whenever the null sink's 25 ms block boundary
/// fell inside that, a block of silence was heard between the music and the
/// fade (`make soak`: 2 of 91 pauses idle, 4 of 14 under load). Here the stream
/// stays: the fade is written with `PA_SEEK_RELATIVE_ON_READ`, which replaces
/// everything after the server's read index in one command, so what the sink
/// has already taken is followed by the fade with nothing between.
public final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// The `application.id` of every stream the player makes: how another
    /// Interlude's desktop-interruption source knows one of ours.
    public static let applicationID = "interlude"

    // @unchecked Sendable: libpulse objects are used under the main loop's lock;
    // the writer's state is the writer thread's while it runs (see `WriterControl`).
    public let device: String
    public let format: AudioFormat
    public let clock = OutputClock.realTime
    /// The server's buffer for the stream (its `tlength`) and the amount it asks
    /// for at a time (`minreq`), as granted: the writer writes in periods.
    public let bufferFrames: Int
    public let periodFrames: Int
    /// The stream's sink input on the server (`pactl list short sink-inputs`),
    /// PA_INVALID_INDEX while the writer has released it (paused a while).
    public var sinkInputIndex: UInt32 {
        connection.locked { connection.stream.map { interlude_pa_stream_get_index($0) } ?? UInt32.max }
    }
    /// Threads libpulse started for this output (its main loop) now at the writer's priority.
    public let mainLoopThreadsRaised: Int
    /// libpulse's main loop thread for this output (its id; 0 if it was never heard from).
    public let mainLoopThread: pid_t
    private let connection: PulseConnection
    private var link: WriterLink?
    private var writer: UnsafeMutablePointer<PulseDevice>?
    private var thread: pthread_t?
    public private(set) var isRealtimePriority = false

    /// Connects to the server (`PULSE_SERVER`, or libpulse's usual places) and
    /// opens a playback stream for `format` with `latencyMilliseconds` of buffer.
    /// `role` is the stream's `media.role` (desktop policy: music, audiobook...).
    /// `startsServer` false never spawns a server (libpulse's autospawn, when
    /// its client.conf allows it): a probe for one that runs.
    public init(device: String = "pulse", format: AudioFormat, latencyMilliseconds: Int,
                role: String = "music", startsServer: Bool = true) throws(PulseAudioError) {
        self.device = device
        self.format = format
        connection = try PulseConnection(device: device, format: format, latencyMilliseconds: latencyMilliseconds,
                                         role: role, startsServer: startsServer)
        // libpulse's main loop carries every request of the writer to the server and
        // brings back the timing a pause waits for: at the writer's priority, as the
        // ALSA plugin's thread (`PluginThreads`). That thread exactly, as its own
        // notification named it: a thread another part of the process started
        // meanwhile (a test process's suites, or another output's) is not touched;
        // picked from the threads started during the connect by name, another
        // output's main loop opened beside this one was raised too.
        mainLoopThread = connection.waker.pointee.thread
        mainLoopThreadsRaised = mainLoopThread > 0 ? PluginThreads.raise(mainLoopThread) : 0
        bufferFrames = connection.bufferBytes / format.bytesPerFrame
        periodFrames = max(64, connection.requestBytes / format.bytesPerFrame)
    }

    /// As ALSA's: a third of a second ahead, plus what the server holds (its
    /// buffer and, for the sink's own latency, a tenth of a second more): the
    /// writer keeps every frame in the ring until it is heard.
    public var mediaRingFrames: Int { max(format.rate / 3, periodFrames * 2) + bufferFrames + format.rate / 10 }

    public func attach(_ link: WriterLink) throws(OutputError) {
        precondition(self.link == nil, "an output is attached once")
        self.link = link
        // The engine's wake-ups go to the eventfd libpulse's main loop counts on too.
        link.control.pointee.wakeDescriptor.store(connection.waker.pointee.fd, ordering: .relaxed)
        let context = WriterContext.allocate(link: link, channels: format.channels, scratchFrames: periodFrames,
                                             periodFrames: periodFrames)
        context.pointee.rate = format.rate
        let writer = UnsafeMutablePointer<PulseDevice>.allocate(capacity: 1)
        writer.initialize(to: PulseDevice(context: context, connection: connection, format: format))
        self.writer = writer
    }

    deinit {
        stop()
        if let writer {
            WriterContext.free(writer.pointee.context)
            writer.deinitialize(count: 1)
            writer.deallocate()
        }
    }

    public func start() throws(OutputError) {
        guard thread == nil else { return }
        guard let writer,
              let started = startRealtimeThread(context: UnsafeMutableRawPointer(writer), entry: pulseWriterEntry)
        else { throw .writerThread(reason: nil) }
        thread = started.thread
        isRealtimePriority = started.realtime
    }

    public func render(maxFrames: Int) -> Int { 0 }
    public func serviceRequests() {}

    /// Joins the writer; the stream stays (a suspend corks it, the output's end disconnects it).
    public func stop() {
        guard let thread, let link else { return }
        link.control.pointee.stopRequested.store(true, ordering: .releasing)
        link.control.pointee.wake()
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// The `media.role` the stream carries while an alarm sounds through it:
    /// `phone`, the one role a stock PulseAudio's `module-role-cork` and
    /// `module-role-ducking` act on (their default `trigger_roles`); PulseAudio
    /// documents no `alarm` role, and no policy of its own reads one. On
    /// PipeWire no stock policy acts on it (WirePlumber's role-based endpoints
    /// are off by default), so there the alarm quiets others through MPRIS.
    public static let alarmRole = "phone"

    /// While an alarm rings, the stream says `alarmRole`; after, its own role
    /// again. Sent without waiting for the server's answer; a stream the
    /// writer has released is made again with it.
    public func setAlarmRole(_ ringing: Bool) {
        let role = ringing ? Self.alarmRole : connection.role
        connection.locked {
            connection.slot.pointee.ringing = ringing
            guard let stream = connection.stream else { return }
            let properties = interlude_pa_proplist_new()
            defer { interlude_pa_proplist_free(properties) }
            _ = interlude_pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, role)
            if let operation = interlude_pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, properties, nil, nil) {
                interlude_pa_operation_unref(operation)
            }
        }
    }

    /// Ctrl-Z: stops the writer, corks the stream and flushes what the server
    /// holds, the media frozen at the frame the listener heard last.
    public func suspend() -> Bool {
        stop()
        freezeAtHeardPosition()
        return true
    }

    /// With the writer joined. The heard frame is the server's read index: what
    /// the sink has taken still sounds after the cork (it is in the sink's own
    /// buffer), what is after the read index is flushed and never heard. A lost
    /// server is not asked: the writer's last measurement stands.
    func freezeAtHeardPosition() {
        guard thread == nil, let writer else { return }
        let context = writer.pointee.context
        if !context.pointee.deviceLost {
            connection.locked {
                // Released (paused a while): nothing is queued, the heard frame is the stop's.
                guard let stream = connection.stream else { return }
                if let queue = writer.pointee.serverQueue() {
                    context.pointee.publishHeard(delay: queue.afterReadIndex)
                }
                _ = interlude_pa_stream_cork_wait(stream, 1, connection.waker)
                _ = interlude_pa_stream_flush_wait(stream, connection.waker)
            }
        }
        context.pointee.freezeMedia(at: context.pointee.control.pointee.readHeard().frames)
    }

    /// After `suspend()`: uncorks the stream and starts the writer again.
    public func resume() throws(OutputError) {
        guard thread == nil, let writer else { return }
        let context = writer.pointee.context
        if !context.pointee.deviceLost {
            let reopened = connection.locked { () -> Bool in
                guard let stream = connection.stream else {
                    return PulseStreamSlot.open(connection.slot, context: connection.context, waker: connection.waker) != nil
                }
                _ = interlude_pa_stream_cork_wait(stream, 0, connection.waker)
                return true
            }
            guard reopened else {
                throw .soundServer(PulseAudioError(device: device, operation: "open a stream",
                                                   code: connection.locked { interlude_pa_context_errno(connection.context) }))
            }
        }
        context.pointee.control.pointee.stopRequested.store(false, ordering: .relaxed)
        context.pointee.prepareRestart()
        try start()
    }

    public var isFinished: Bool { link?.control.pointee.finished.load(ordering: .acquiring) ?? false }
    public var failure: OutputError? { nil }

    public func describeLoss(_ event: EngineEvent) -> String {
        if event.call == .poll {
            return PulseAudioError(device: device, operation: "wait (poll)",
                                   message: String(cString: strerror(Int32(truncatingIfNeeded: -event.value)))).description
        }
        return PulseAudioError(device: device, operation: "write", code: Int32(truncatingIfNeeded: event.value)).description
    }
}

/// libpulse's main loop, context and stream for one `PulseOutput`, made ready
/// in `init` (which throws libpulse's own message) and torn down in `deinit`.
final class PulseConnection {
    let mainloop: OpaquePointer
    let waker: UnsafeMutablePointer<interlude_pa_waker>
    let context: OpaquePointer
    /// The stream (nil while the writer has released it), and what makes it
    /// again; read and written with the main loop locked.
    let slot: UnsafeMutablePointer<PulseStreamSlot>
    let bufferBytes: Int
    let requestBytes: Int
    /// The stream's own `media.role`.
    let role: String

    /// The stream now; nil while released (`PulseDevice.release`). With the main loop locked.
    var stream: OpaquePointer? { slot.pointee.stream }

    init(device: String, format: AudioFormat, latencyMilliseconds: Int, role: String,
         startsServer: Bool) throws(PulseAudioError) {
        self.role = role
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_pulse_load(&message, message.count) == 0 else {
            throw PulseAudioError(device: device, operation: "load libpulse",
                                  message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                  as: UTF8.self))
        }
        guard let mainloop = interlude_pa_threaded_mainloop_new() else {
            throw PulseAudioError(device: device, operation: "create a main loop", code: Int32(PA_ERR_INTERNAL.rawValue))
        }
        let fd: Int32
        do { fd = try SystemCall.eventDescriptor() } catch {
            interlude_pa_threaded_mainloop_free(mainloop)
            throw PulseAudioError(device: device, operation: "create an eventfd", message: error.description)
        }
        let waker = UnsafeMutablePointer<interlude_pa_waker>.allocate(capacity: 1)
        waker.initialize(to: interlude_pa_waker(mainloop: mainloop, fd: fd, underflows: 0, thread: 0))
        let properties = Self.properties(role: role)
        let (tlength, minreq) = Self.bufferRequest(latencyMilliseconds: latencyMilliseconds, format: format)
        let slot = UnsafeMutablePointer<PulseStreamSlot>.allocate(capacity: 1)
        slot.initialize(to: PulseStreamSlot(
            stream: nil,
            spec: pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.rate), channels: UInt8(format.channels)),
            attributes: pa_buffer_attr(maxlength: UInt32.max, tlength: tlength, prebuf: UInt32.max, minreq: minreq, fragsize: UInt32.max),
            flags: pa_stream_flags_t(rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                     | PA_STREAM_ADJUST_LATENCY.rawValue),
            properties: properties, alarmProperties: Self.properties(role: PulseOutput.alarmRole), ringing: false))
        guard let context = interlude_pa_context_new_with_proplist(interlude_pa_threaded_mainloop_get_api(mainloop),
                                                                   "Interlude", properties) else {
            interlude_pa_threaded_mainloop_free(mainloop)
            close(fd)
            waker.deallocate()
            Self.free(slot)
            throw PulseAudioError(device: device, operation: "create a context", code: Int32(PA_ERR_INTERNAL.rawValue))
        }
        func failure(_ operation: String) -> PulseAudioError {
            let error = PulseAudioError(device: device, operation: operation, code: interlude_pa_context_errno(context))
            interlude_pa_threaded_mainloop_unlock(mainloop)
            Self.teardown(mainloop: mainloop, waker: waker, context: context, slot: slot)
            return error
        }
        interlude_pa_context_set_waker(context, waker)
        let started = interlude_pa_threaded_mainloop_start(mainloop) >= 0
        interlude_pa_threaded_mainloop_lock(mainloop)
        guard started else { throw failure("start a main loop") }
        let connectFlags = startsServer ? PA_CONTEXT_NOFLAGS : PA_CONTEXT_NOAUTOSPAWN
        guard interlude_pa_context_connect(context, nil, connectFlags) >= 0 else { throw failure("connect") }
        while true {
            let state = interlude_pa_context_get_state(context).rawValue
            if state == PA_CONTEXT_READY.rawValue { break }
            if state == PA_CONTEXT_FAILED.rawValue || state == PA_CONTEXT_TERMINATED.rawValue { throw failure("connect") }
            interlude_pa_threaded_mainloop_wait(mainloop)
        }
        guard let stream = PulseStreamSlot.open(slot, context: context, waker: waker) else { throw failure("open a stream") }
        let granted = interlude_pa_stream_get_buffer_attr(stream)?.pointee ?? slot.pointee.attributes
        (bufferBytes, requestBytes) = Self.granted(tlength: granted.tlength, minreq: granted.minreq, format: format)
        interlude_pa_threaded_mainloop_unlock(mainloop)
        self.mainloop = mainloop
        self.waker = waker
        self.context = context
        self.slot = slot
    }

    /// The properties every stream of the player carries, with `role` as its `media.role`.
    private static func properties(role: String) -> OpaquePointer {
        let properties = interlude_pa_proplist_new()!
        _ = interlude_pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, "Interlude")
        _ = interlude_pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, PulseOutput.applicationID)
        _ = interlude_pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, role)
        return properties
    }

    private static func free(_ slot: UnsafeMutablePointer<PulseStreamSlot>) {
        interlude_pa_proplist_free(slot.pointee.properties)
        interlude_pa_proplist_free(slot.pointee.alarmProperties)
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// The buffer the server granted, in bytes. Its numbers size the media
    /// ring: more than 10 s is no grant of the latency asked for, and is
    /// clamped rather than allocated.
    static func granted(tlength: UInt32, minreq: UInt32, format: AudioFormat) -> (buffer: Int, request: Int) {
        let buffer = min(Int(tlength), 10 * format.rate * format.bytesPerFrame)
        return (buffer, min(Int(minreq), buffer))
    }

    /// The sink's share of the latency asked for (`sinkMilliseconds`): at most this.
    static let sinkMilliseconds = 5

    /// `tlength` and `minreq` in bytes. The whole latency is the stream's buffer;
    /// with `PA_STREAM_ADJUST_LATENCY` the server gives the sink
    /// (tlength - 2 minreq) / 2 of it, and a sink that cannot rewind (PulseAudio's
    /// null sink with `norewinds`, some network and Bluetooth sinks) has already
    /// taken up to that much when a pause's fade is written, so a pause lands
    /// within a sink block of the frame asked for. A third at a time (ALSA's three
    /// periods) gave the sink a sixth: 50 ms at the default 300 ms, heard as 25 ms
    /// blocks, which spread an alarm's latency by up to 25 ms (`make soak`, issue
    /// 16 point 14) and repeated up to a block under a fade's start. So the sink
    /// gets `sinkMilliseconds` (a sixth of smaller latencies, as before), and the
    /// server asks for the rest in halves: the stream's buffer stays the latency
    /// asked for. The cost: the server's sink wakes every few milliseconds while
    /// the stream plays (as for a browser's or a call's stream).
    static func bufferRequest(latencyMilliseconds: Int, format: AudioFormat) -> (tlength: UInt32, minreq: UInt32) {
        let latency = max(10, latencyMilliseconds)
        let tlength = latency * format.rate / 1000
        let sink = min(sinkMilliseconds * format.rate / 1000, tlength / 6)
        // Rounded up, so the sink's share is never over `sink` frames.
        let minreq = max(1, (tlength - 2 * sink + 1) / 2)
        return (UInt32(tlength * format.bytesPerFrame), UInt32(minreq * format.bytesPerFrame))
    }

    /// Runs `body` with the main loop locked, as libpulse requires outside its own thread.
    func locked<T>(_ body: () -> T) -> T {
        interlude_pa_threaded_mainloop_lock(mainloop)
        defer { interlude_pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    private static func teardown(mainloop: OpaquePointer, waker: UnsafeMutablePointer<interlude_pa_waker>,
                                 context: OpaquePointer, slot: UnsafeMutablePointer<PulseStreamSlot>) {
        interlude_pa_threaded_mainloop_lock(mainloop)
        PulseStreamSlot.release(slot)
        interlude_pa_context_set_waker(context, nil)
        interlude_pa_context_disconnect(context)
        interlude_pa_context_unref(context)
        interlude_pa_threaded_mainloop_unlock(mainloop)
        // Joins libpulse's thread: nothing calls the waker after this.
        interlude_pa_threaded_mainloop_stop(mainloop)
        interlude_pa_threaded_mainloop_free(mainloop)
        close(waker.pointee.fd)
        waker.deallocate()
        free(slot)
    }

    deinit { Self.teardown(mainloop: mainloop, waker: waker, context: context, slot: slot) }
}

/// The output's one playback stream and what makes it again, in a manually
/// allocated block (`PulseConnection` owns it) that the writer reaches
/// through a raw pointer: no ARC on its thread. Read and written with the
/// main loop locked. The writer releases the stream after a while asleep
/// (`PulseDevice.release`) and makes it again when it wakes; the properties
/// are made once, on the engine's thread, so making it again allocates
/// nothing of ours.
struct PulseStreamSlot {
    /// Nil while released.
    var stream: OpaquePointer?
    var spec: pa_sample_spec
    /// The buffer asked for (`PulseConnection.bufferRequest`).
    var attributes: pa_buffer_attr
    var flags: pa_stream_flags_t
    /// The stream's properties with its own `media.role`, and with the alarm's.
    let properties: OpaquePointer
    let alarmProperties: OpaquePointer
    /// An alarm sounds: a stream made now carries the alarm's role.
    var ringing: Bool

    /// Makes the stream (waiting, the main loop locked, until it is ready):
    /// it, or nil (`pa_context_errno` says why).
    static func open(_ slot: UnsafeMutablePointer<PulseStreamSlot>, context: OpaquePointer,
                     waker: UnsafeMutablePointer<interlude_pa_waker>) -> OpaquePointer? {
        let properties = slot.pointee.ringing ? slot.pointee.alarmProperties : slot.pointee.properties
        slot.pointee.stream = interlude_pa_stream_open(context, "Playback", &slot.pointee.spec, properties,
                                                       &slot.pointee.attributes, slot.pointee.flags, waker)
        return slot.pointee.stream
    }

    /// Disconnects and lets go of the stream, if there is one.
    static func release(_ slot: UnsafeMutablePointer<PulseStreamSlot>) {
        guard let stream = slot.pointee.stream else { return }
        slot.pointee.stream = nil
        interlude_pa_stream_set_waker(stream, nil)
        _ = interlude_pa_stream_disconnect(stream)
        interlude_pa_stream_unref(stream)
    }
}
