import AudioDecoding
import CAlsa
import CLinux
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// An ALSA device as an `AudioOutput` on the real-time clock: owns the PCM,
/// the writer thread (`writerLoop` over an `AlsaDevice`) and everything that thread uses.
public final class AlsaOutput: AudioOutput, @unchecked Sendable {
    // @unchecked Sendable: the engine's thread only reads atomics through the
    // control; the PCM is used by the writer thread only while it runs.
    public let pcm: AlsaPCM
    public var format: AudioFormat { pcm.format }
    public let clock = OutputClock.realTime
    private var link: WriterLink?
    private(set) var context: UnsafeMutablePointer<WriterContext>?
    /// The writer thread's device: the PCM, its poll descriptors and the eventfd.
    private(set) var device: UnsafeMutablePointer<AlsaDevice>?
    private var pollDescriptors: UnsafeMutablePointer<pollfd>?
    private var wakeFD: Int32 = -1
    private var thread: pthread_t?
    public private(set) var isRealtimePriority = false

    /// Opens `device` for `format` with `latencyMilliseconds` of buffer.
    public init(device: String, format: AudioFormat, latencyMilliseconds: Int) throws(AlsaError) {
        pcm = try AlsaPCM(device: device, format: format, latencyMilliseconds: latencyMilliseconds)
    }

    /// A third of a second of decoded audio ahead, plus the device's buffer:
    /// the writer keeps what it wrote in the ring until it is heard, so that a
    /// pause can drop the device's queue and fade from the frame being heard
    /// (0.74 s at 44.1 kHz once rounded to a power of two). The main loop
    /// refills every quarter of the part ahead. Larger costs resident memory,
    /// which the benchmark holds under 12 MB.
    public var mediaRingFrames: Int { max(format.rate / 3, pcm.periodFrames * 2) + pcm.bufferFrames }
    public var bufferFrames: Int { pcm.bufferFrames }

    public func attach(_ link: WriterLink) throws(OutputError) {
        precondition(self.link == nil, "an output is attached once")
        let fd: Int32
        do { fd = try SystemCall.eventDescriptor() } catch { throw .writerThread(reason: error.description) }
        let descriptors: (pointer: UnsafeMutablePointer<pollfd>, deviceCount: Int)
        do { descriptors = try Self.pollDescriptors(pcm.handle, device: pcm.device) } catch {
            close(fd)
            throw .device(error)
        }
        self.link = link
        wakeFD = fd
        link.control.pointee.wakeDescriptor.store(fd, ordering: .relaxed)
        pollDescriptors = descriptors.pointer
        let context = WriterContext.allocate(link: link, channels: pcm.format.channels,
                                             scratchFrames: pcm.periodFrames, periodFrames: pcm.periodFrames)
        context.pointee.rate = pcm.format.rate
        self.context = context
        let device = UnsafeMutablePointer<AlsaDevice>.allocate(capacity: 1)
        device.initialize(to: AlsaDevice(context: context, pcm: pcm, descriptors: descriptors.pointer,
                                         deviceDescriptorCount: descriptors.deviceCount, wakeFD: fd))
        self.device = device
    }

    /// The device's poll descriptors, with one slot more for the eventfd.
    /// Both counts are checked: a negative one would index before the array.
    /// `count` and `fill` are alsa-lib's own functions; a test passes failing ones.
    static func pollDescriptors(
        _ handle: OpaquePointer, device: String,
        count: (OpaquePointer) -> Int32 = { snd_pcm_poll_descriptors_count($0) },
        fill: (OpaquePointer, UnsafeMutablePointer<pollfd>, UInt32) -> Int32 = { snd_pcm_poll_descriptors($0, $1, $2) }
    ) throws(AlsaError) -> (pointer: UnsafeMutablePointer<pollfd>, deviceCount: Int) {
        let capacity = Int(try alsaCheck(device, "count poll descriptors", count(handle)))
        let pointer = UnsafeMutablePointer<pollfd>.allocate(capacity: capacity + 1)
        pointer.initialize(repeating: pollfd(), count: capacity + 1)
        let filled: Int32
        do { filled = try alsaCheck(device, "get poll descriptors", fill(handle, pointer, UInt32(capacity))) } catch {
            pointer.deallocate()
            throw error
        }
        return (pointer, Int(min(filled, Int32(capacity))))
    }

    deinit {
        stop()
        if wakeFD >= 0 { close(wakeFD) }
        pollDescriptors?.deallocate()
        if let device {
            device.deinitialize(count: 1)
            device.deallocate()
        }
        if let context { WriterContext.free(context) }
    }

    public func start() throws(OutputError) {
        guard thread == nil else { return }
        guard let device,
              let started = startRealtimeThread(context: UnsafeMutableRawPointer(device), entry: alsaWriterEntry)
        else { throw .writerThread(reason: nil) }
        thread = started.thread
        isRealtimePriority = started.realtime
    }

    public func render(maxFrames: Int) -> Int { 0 }
    public func serviceRequests() {}

    /// Stops at once (what is queued is dropped) and joins the thread.
    public func stop() {
        guard let thread, let link else { return }
        link.control.pointee.stopRequested.store(true, ordering: .releasing)
        link.control.pointee.wake()
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Stops the thread, discards what the device still holds and marks the
    /// media stopped at the last heard frame, so a resume continues from
    /// exactly what the listener heard (nothing after it was audible).
    public func suspend() -> Bool {
        stop()
        freezeAtHeardPosition()
        return true
    }

    /// With the thread stopped: see `suspend()`; also after the device was lost.
    ///
    /// The heard frame is measured again here, just before the drop: the writer's
    /// last measurement can be a whole period old (it measures after each write,
    /// then waits a period for room), and freezing there made a resume after
    /// Ctrl-Z play up to a period again. As in the pause's drop, what the sound
    /// server still plays after the drop (`dropLeftoverFrames`) counts as heard.
    /// A lost device is not asked (the writer said so before leaving its loop):
    /// its state and delay mean nothing any more, and a call into a plugin whose
    /// server is gone is best not made; the writer's last measurement stands.
    func freezeAtHeardPosition() {
        guard thread == nil, let context else { return }
        var delay: snd_pcm_sframes_t = 0
        let running = !context.pointee.deviceLost && snd_pcm_state(pcm.handle) == SND_PCM_STATE_RUNNING
        let measured = running && snd_pcm_delay(pcm.handle, &delay) >= 0
        if measured { context.pointee.publishHeard(delay: Int(delay)) }
        snd_pcm_drop(pcm.handle)
        let control = context.pointee.control
        var heard = control.pointee.readHeard().frames
        if measured && !context.pointee.isMediaStopped {
            heard = min(control.pointee.mediaFramesWritten.load(ordering: .relaxed), heard + pcm.dropLeftoverFrames)
        }
        context.pointee.freezeMedia(at: heard)
    }

    /// Starts the thread again after `stop()`, on a prepared device.
    public func resume() throws(OutputError) {
        guard thread == nil, let context else { return }
        snd_pcm_prepare(pcm.handle)
        context.pointee.control.pointee.stopRequested.store(false, ordering: .relaxed)
        context.pointee.prepareRestart()
        try start()
    }

    public var isFinished: Bool { link?.control.pointee.finished.load(ordering: .acquiring) ?? false }
    public var failure: OutputError? { nil }

    public func describeLoss(_ event: EngineEvent) -> String {
        let operation = event.call == .poll ? "wait (poll)" : "write"
        return AlsaError(device: pcm.device, operation: operation, code: Int32(truncatingIfNeeded: event.value))
            .description
    }
}
