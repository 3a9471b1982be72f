import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// snapserver's pipe source as the writer loop's device (`WriterDevice`).
///
/// Pacing: snapserver reads a chunk (`chunk_ms`, 20 ms) from the FIFO on its
/// own clock and fills what the pipe lacks with silence, so the writer keeps
/// `leadFrames` in the pipe: each turn (every 10 ms, the loop's wait) it
/// tops the pipe up to the lead, measured with `FIONREAD`. Every write is at
/// most `PIPE_BUF` bytes, which a pipe takes whole or not at all: a frame is
/// never split.
///
/// Heard: frames written, less what the pipe holds, less the server's
/// `buffer` (the rooms play a chunk that long after the server read it). A
/// pause cannot take back what the pipe and the server hold (`measureQueue`
/// is nil): it fades from the writer's frame, the rooms hear the stream play
/// out to that fade, and the stop frame is the last frame they heard.
///
/// No server: opening the FIFO without a reader fails (`ENXIO`), writing
/// after the reader left fails (`EPIPE`). The player then plays on, on the
/// monotonic clock, into nowhere (MPD's snapcast output stalled until a
/// client came, MPD#1310: the player's time must go on), says so once
/// (`EngineEvent.Kind.outputAway`), and tries to open the FIFO again every
/// `retryNanoseconds` with a non-blocking `open`: the main loop never waits
/// for the server, and the next turn after it is back feeds it again.
///
/// Plain values and raw pointers in one manually allocated block
/// (`SnapcastOutput` owns it): no ARC on the writer thread.
struct SnapcastDevice: WriterDevice {
    let context: UnsafeMutablePointer<WriterContext>
    /// The FIFO's path as a C string, allocated before the thread starts.
    let path: UnsafeMutablePointer<CChar>
    let wakeFD: Int32
    let rate: Int
    let bytesPerFrame: Int
    let periodFrames: Int
    let leadFrames: Int
    /// The server's `buffer` in frames.
    let serverBufferFrames: Int
    static let retryNanoseconds = 1_000_000_000
    private(set) var fd: Int32 = -1
    private var wakeup: pollfd
    private var wakeCount: UInt64 = 0
    private var unread: Int32 = 0
    private var underruns = 0
    /// Written to the pipe at least once since it was opened (an empty pipe
    /// before the first write is no underrun).
    private var fed = false
    /// When to try the FIFO again while no server reads it.
    private var nextAttempt = 0
    /// The clock that paces the writer while no server reads: when it started
    /// and the frames "played" since.
    private var awayStart = 0
    private var awayFrames = 0
    /// `outputAway` was posted for this absence.
    private var announcedAway = false
    /// The frames of the last top-up the pipe had room for.
    private var pipeRoom = 0

    init(context: UnsafeMutablePointer<WriterContext>, path: UnsafeMutablePointer<CChar>, wakeFD: Int32,
         rate: Int, bytesPerFrame: Int, periodFrames: Int, leadFrames: Int, serverBufferFrames: Int) {
        self.context = context
        self.path = path
        self.wakeFD = wakeFD
        self.rate = rate
        self.bytesPerFrame = bytesPerFrame
        self.periodFrames = periodFrames
        self.leadFrames = leadFrames
        self.serverBufferFrames = serverBufferFrames
        wakeup = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
    }

    /// The most frames one write carries: `PIPE_BUF` bytes (a pipe's atomic
    /// write), at most 10 ms.
    static func periodFrames(rate: Int, bytesPerFrame: Int) -> Int {
        max(1, min(rate / 100, Int(PIPE_BUF) / bytesPerFrame))
    }

    var isConnected: Bool { fd >= 0 }

    /// Sleeps until the next turn (the loop's timeout: a period) or a wake-up.
    mutating func wait(milliseconds: Int32) -> Int32 {
        wakeup.revents = 0
        if poll(&wakeup, 1, milliseconds) < 0 {
            let code = errno
            if code != EINTR { return code }
        }
        if wakeup.revents != 0 { _ = read(wakeFD, &wakeCount, 8) }
        return 0
    }

    /// While no server reads, tries the FIFO again once its time has come.
    mutating func beginTurn() -> DeviceTurn {
        if fd < 0 {
            let now = WriterControl.monotonicNanoseconds()
            if now >= nextAttempt {
                nextAttempt = now + Self.retryNanoseconds
                let opened = interlude_open_fifo_writer(path)
                if opened >= 0 {
                    fd = opened
                    fed = false
                    announcedAway = false
                    awayStart = 0
                } else if !announcedAway {
                    // Once an absence (the first try at start among them), with the reason.
                    announcedAway = true
                    context.pointee.post(EngineEvent.Kind.outputAway.rawValue, value: Int(-opened))
                }
            }
            if fd < 0 && awayStart == 0 {
                awayStart = now
                awayFrames = 0
            }
        }
        return .ready
    }

    mutating func endTurn() {}

    mutating func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }

    /// Connected: what tops the pipe up to the lead. Away: what the clock owes.
    mutating func room() -> Int {
        if fd >= 0 {
            guard interlude_unread_bytes(fd, &unread) == 0 else { return periodFrames }
            let queued = Int(unread) / bytesPerFrame
            // Emptied between two turns: the server filled silence in (a gap heard).
            if queued == 0 && fed { underruns += 1 }
            pipeRoom = max(0, leadFrames - queued)
            return pipeRoom
        }
        let elapsed = WriterControl.monotonicNanoseconds() - awayStart
        let owed = elapsed / 1000 * rate / 1_000_000 - awayFrames
        return max(0, min(owed, leadFrames))
    }

    /// Nothing written can be taken back: the pipe and the server play it out.
    mutating func measureQueue() -> DeviceQueue? { nil }
    mutating func drop() -> Bool { false }

    mutating func write(frames: Int, replacingQueue: Bool) -> DeviceWrite {
        guard fd >= 0 else {
            awayFrames += frames
            return .written(frames: frames)
        }
        let written = Glibc.write(fd, context.pointee.scratch, frames * bytesPerFrame)
        if written >= 0 {
            fed = true
            return .written(frames: written / bytesPerFrame)
        }
        let code = errno
        if code == EAGAIN || code == EINTR { return .written(frames: 0) }
        // EPIPE (the server left) or any other failure: away, playing on from here.
        Glibc.close(fd)
        fd = -1
        nextAttempt = WriterControl.monotonicNanoseconds() + Self.retryNanoseconds / 10
        awayStart = WriterControl.monotonicNanoseconds()
        awayFrames = frames
        announcedAway = true
        context.pointee.post(EngineEvent.Kind.outputAway.rawValue, value: Int(code))
        return .written(frames: frames)
    }

    /// What the pipe holds and the server's buffer; away, the lead and the
    /// buffer, so the position runs on as it did.
    mutating func unheardFrames() -> Int? {
        guard fd >= 0 else { return leadFrames + serverBufferFrames }
        guard interlude_unread_bytes(fd, &unread) == 0 else { return nil }
        return Int(unread) / bytesPerFrame + serverBufferFrames
    }

    /// Waits (in the loop's waits, so a stop request ends it) until the
    /// server has read the pipe empty and its buffer has played out.
    mutating func drain() -> Bool {
        let stop = context.pointee.control
        var deadline = 0
        while !stop.pointee.stopRequested.load(ordering: .relaxed) {
            let now = WriterControl.monotonicNanoseconds()
            if deadline == 0 {
                if fd >= 0, interlude_unread_bytes(fd, &unread) == 0, unread > 0 {
                    _ = wait(milliseconds: 10)
                    continue
                }
                deadline = now + (fd >= 0 ? serverBufferFrames : 0) * 1_000_000_000 / rate
            }
            if now >= deadline { break }
            _ = wait(milliseconds: Int32(min(100, max(1, (deadline - now) / 1_000_000))))
        }
        return true
    }

    static var measuresEveryTurn: Bool { true }

    /// Closes the pipe (the writer has been joined).
    mutating func closePipe() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

/// The thread entry: a C function with a raw pointer to the device. SIGPIPE
/// is blocked on this thread: a write after the server left is an `EPIPE`
/// to handle, never the process's death.
let snapcastWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    writerLoop(raw!.assumingMemoryBound(to: SnapcastDevice.self))
    return nil
}
