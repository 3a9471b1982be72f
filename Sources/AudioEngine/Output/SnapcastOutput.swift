import AudioDecoding
import CLinux
import InterludeCore
import Rooms
#if canImport(Glibc)
import Glibc
#endif

/// A Snapcast server's stream as an `AudioOutput` on the real-time clock: the
/// writer thread (`writerLoop` over a `SnapcastDevice`) feeds snapserver's
/// pipe source at the stream's format, which the user sets
/// (`--device snapcast:pipe:///tmp/snapfifo?sampleformat=48000:16:2`) and the
/// engine converts every file to. Why the pipe and how it is paced: see
/// `SnapcastStream` and `SnapcastDevice`.
///
/// A pause takes back what the pipe holds but not what the server read: the
/// rooms hear the stream up to the fade (the server's `buffer` after the
/// request), and the resume starts at the frame after it, the last they heard.
public final class SnapcastOutput: AudioOutput, @unchecked Sendable {
    // @unchecked Sendable: the engine's thread only reads atomics through the
    // control; the device is the writer thread's while it runs.
    public let stream: SnapcastStream
    public let format: AudioFormat
    public let clock = OutputClock.realTime
    public let periodFrames: Int
    public let leadFrames: Int
    public let serverBufferFrames: Int
    private var link: WriterLink?
    private var context: UnsafeMutablePointer<WriterContext>?
    private var device: UnsafeMutablePointer<SnapcastDevice>?
    private let path: UnsafeMutablePointer<CChar>
    private let pipeBytes: Int
    private let drainBuffer: UnsafeMutableRawPointer
    private var wakeFD: Int32 = -1
    private var thread: pthread_t?
    public private(set) var isRealtimePriority = false

    /// Why a stream cannot be fed: the path is there but is no FIFO (a
    /// server that is not there is no error: the writer plays on and waits).
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "snapcast: \(path): \(reason)" }
    }

    /// For `stream`, whose format the engine opened with (`format`).
    public init(stream: SnapcastStream, format: AudioFormat) throws(OpenError) {
        var status = stat()
        if stat(stream.path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFIFO {
            throw OpenError(path: stream.path, reason: "not a named pipe (snapserver's pipe source makes one: "
                                + "\(stream.sourceLine))")
        }
        self.stream = stream
        self.format = format
        periodFrames = SnapcastDevice.periodFrames(rate: format.rate, bytesPerFrame: format.bytesPerFrame)
        leadFrames = max(periodFrames * 2, stream.leadMilliseconds * format.rate / 1000)
        serverBufferFrames = stream.bufferMilliseconds * format.rate / 1000
        pipeBytes = SnapcastDevice.pipeBytes(leadBytes: leadFrames * format.bytesPerFrame)
        drainBuffer = UnsafeMutableRawPointer.allocate(byteCount: pipeBytes, alignment: 16)
        path = strdup(stream.path)
    }

    deinit {
        stop()
        if wakeFD >= 0 { close(wakeFD) }
        if let device {
            device.pointee.closePipe()
            device.deinitialize(count: 1)
            device.deallocate()
        }
        if let context { WriterContext.free(context) }
        free(path)
        drainBuffer.deallocate()
    }

    /// A third of a second decoded ahead, plus what the pipe and the server
    /// hold: the ring keeps every frame until the rooms heard it.
    public var mediaRingFrames: Int { max(format.rate / 3, periodFrames * 2) + leadFrames + serverBufferFrames }
    public var bufferFrames: Int { leadFrames + serverBufferFrames }

    public func attach(_ link: WriterLink) throws(OutputError) {
        precondition(self.link == nil, "an output is attached once")
        let fd: Int32
        do { fd = try SystemCall.eventDescriptor() } catch { throw .writerThread(reason: error.description) }
        self.link = link
        wakeFD = fd
        link.control.pointee.wakeDescriptor.store(fd, ordering: .relaxed)
        let context = WriterContext.allocate(link: link, channels: format.channels, scratchFrames: periodFrames,
                                             periodFrames: periodFrames)
        context.pointee.rate = format.rate
        self.context = context
        let device = UnsafeMutablePointer<SnapcastDevice>.allocate(capacity: 1)
        device.initialize(to: SnapcastDevice(context: context, path: path, drainBuffer: drainBuffer, pipeBytes: pipeBytes,
                                             wakeFD: fd, rate: format.rate,
                                             bytesPerFrame: format.bytesPerFrame, periodFrames: periodFrames,
                                             leadFrames: leadFrames, serverBufferFrames: serverBufferFrames))
        self.device = device
    }

    public func start() throws(OutputError) {
        guard thread == nil else { return }
        guard let device,
              let started = startRealtimeThread(context: UnsafeMutableRawPointer(device), entry: snapcastWriterEntry)
        else { throw .writerThread(reason: nil) }
        thread = started.thread
        isRealtimePriority = started.realtime
    }

    public func render(maxFrames: Int) -> Int { 0 }
    public func serviceRequests() {}

    /// Joins the writer; what the pipe and the server hold still plays.
    public func stop() {
        guard let thread, let link else { return }
        link.control.pointee.stopRequested.store(true, ordering: .releasing)
        link.control.pointee.wake()
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Job control: the writer stops; what it wrote still reaches the rooms
    /// (nothing can take it back), so the media freezes after the last frame
    /// written, and a resume continues from there.
    public func suspend() -> Bool {
        stop()
        guard let context else { return true }
        context.pointee.freezeMedia(at: context.pointee.control.pointee.mediaFramesWritten.load(ordering: .relaxed))
        return true
    }

    public func resume() throws(OutputError) {
        guard thread == nil, let context else { return }
        context.pointee.control.pointee.stopRequested.store(false, ordering: .relaxed)
        context.pointee.prepareRestart()
        try start()
    }

    public var isFinished: Bool { link?.control.pointee.finished.load(ordering: .acquiring) ?? false }
    public var failure: OutputError? { nil }

    /// True while a server reads what the writer writes.
    public var isFeedingServer: Bool { device?.pointee.isFeeding ?? false }

    public func describeLoss(_ event: EngineEvent) -> String {
        "snapcast: \(stream.path): the audio writer could not wait: \(String(cString: strerror(Int32(truncatingIfNeeded: -event.value))))"
    }

    public func describeAway(_ event: EngineEvent) -> String {
        let code = Int32(truncatingIfNeeded: event.value)
        let why = switch code {
        case ENOENT: "the pipe is not there (snapserver makes it: \(stream.sourceLine))"
        case EPIPE: "no snapserver reads the pipe"
        case EINVAL: "not a named pipe"
        default: String(cString: strerror(code)).lowercased()
        }
        return "snapcast: \(stream.path): \(why); playing on, the rooms hear it again once the server reads"
    }
}
