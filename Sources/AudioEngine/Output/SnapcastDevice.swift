import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// snapserver's pipe source as the writer loop's device (`WriterDevice`).
///
/// Pacing: snapserver reads a chunk (`chunk_ms`, 20 ms) from the FIFO on its
/// own clock and fills what the pipe lacks with silence at once, and when it
/// wakes late (under 50 ms) it reads the chunks it owes back to back. So the
/// writer keeps `leadFrames` in the pipe (200 ms by default): each turn it
/// tops the pipe up to the lead, measured with `FIONREAD`, and sleeps until
/// about half of it is left (`wait`). The other half is the margin for a
/// writer or a server woken late, as they are on a loaded machine without
/// real-time priority (a lead of 60 ms topped up every 10 ms ran dry there).
/// Every write is at most `PIPE_BUF` bytes, which a pipe takes whole or not
/// at all: a frame is never split.
///
/// Heard: frames written, less what the pipe holds, less the server's
/// `buffer` (the rooms play a chunk that long after the server read it). A
/// pause takes back what the pipe holds (`drop` reads it back, in one read
/// that a server's read cannot split) and fades from the frame after the
/// last one the server took; what the server took it keeps, and the rooms
/// hear it play out. So the lead delays no pause, seek or alarm: the rooms
/// are silent the server's `buffer` and the fade after the request.
///
/// The FIFO is opened for reading and writing (`interlude_open_fifo`): for
/// writing alone it opens only while a reader has it, and snapserver, with no
/// writer, reopens it every 100 ms. So whether a server reads is seen from the
/// pipe itself: it is read when it holds less than the writer left in it. Not
/// read for `awayNanoseconds` (a dozen chunks), the server is away: the
/// writer says so once (`EngineEvent.Kind.outputAway`) and plays on, on the
/// monotonic clock (MPD's snapcast output stalled until a client came,
/// MPD#1310: the player's time must go on), keeping only its latest slice in
/// the pipe (what it held is read back and dropped), so a server that comes
/// back reads the present and the writer sees it read. A missing FIFO is
/// looked for again every `retryNanoseconds`; nothing here blocks.
///
/// Plain values and raw pointers in one manually allocated block
/// (`SnapcastOutput` owns it): no ARC on the writer thread.
struct SnapcastDevice: WriterDevice {
    /// A stream has no pause of its own: snapserver reads on and fills what it
    /// misses with silence, so the writer goes on writing silence, paced by the pipe.
    mutating func sleep() -> Bool { false }
    mutating func release() -> Bool { false }
    mutating func wake() -> DeviceTurn { .ready }

    let context: UnsafeMutablePointer<WriterContext>
    /// The FIFO's path as a C string, allocated before the thread starts.
    let path: UnsafeMutablePointer<CChar>
    /// Where what the pipe holds is read back to (a pause's drop; while the
    /// server is away), `pipeBytes` long: the pipe's size, set when it opens.
    let drainBuffer: UnsafeMutableRawPointer
    let pipeBytes: Int
    let wakeFD: Int32
    let rate: Int
    let bytesPerFrame: Int
    let periodFrames: Int
    let leadFrames: Int
    /// The server's `buffer` in frames.
    let serverBufferFrames: Int
    static let retryNanoseconds = 1_000_000_000
    static let awayNanoseconds = 250_000_000
    private(set) var fd: Int32 = -1
    private var wakeup: pollfd
    private var wakeCount: UInt64 = 0
    private var unread: Int32 = 0
    private var underruns = 0
    /// Frames the pipe held after the writer's last write: less now means a reader took some.
    private var left = 0
    /// When the pipe was last seen read.
    private var lastRead = 0
    /// No server reads: playing on the clock.
    private(set) var isAway = false
    /// When to look for a missing FIFO again.
    private var nextAttempt = 0
    /// The clock that paces the writer while away: when it started and the frames "played" since.
    private var awayStart = 0
    private var awayFrames = 0
    /// `outputAway` was posted for this absence.
    private var announcedAway = false

    init(context: UnsafeMutablePointer<WriterContext>, path: UnsafeMutablePointer<CChar>,
         drainBuffer: UnsafeMutableRawPointer, pipeBytes: Int, wakeFD: Int32, rate: Int, bytesPerFrame: Int,
         periodFrames: Int, leadFrames: Int, serverBufferFrames: Int) {
        self.context = context
        self.path = path
        self.drainBuffer = drainBuffer
        self.pipeBytes = pipeBytes
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

    /// The pipe's size for a lead of `leadBytes`: twice the lead, a power of
    /// two (as the kernel rounds it), at least a pipe's default (64 KiB) and
    /// at most what an unprivileged process may set (1 MiB by default).
    static func pipeBytes(leadBytes: Int) -> Int {
        var bytes = 65536
        while bytes < 2 * leadBytes && bytes < 1 << 20 { bytes *= 2 }
        return bytes
    }

    /// A server reads what the writer writes.
    var isFeeding: Bool { fd >= 0 && !isAway }

    /// Sleeps until the next turn or a wake-up (the engine's eventfd: a
    /// pause, a seek, an alarm's voice are served at once). Feeding, the next
    /// turn comes when about half the lead is left in the pipe (`left` is what
    /// it held after the last write; the server has read since, so it comes
    /// sooner if anything); away or missing, after the loop's timeout.
    mutating func wait(milliseconds: Int32) -> Int32 {
        let paced = isFeeding ? (left - leadFrames / 2) * 1000 / rate : 0
        return sleepOrWake(milliseconds: max(milliseconds, Int32(clamping: paced)))
    }

    /// Polls the engine's eventfd for up to `milliseconds`: 0, or the errno of
    /// a poll that failed (an interrupted one has not).
    private mutating func sleepOrWake(milliseconds: Int32) -> Int32 {
        wakeup.revents = 0
        if poll(&wakeup, 1, milliseconds) < 0 {
            let code = errno
            if code != EINTR { return code }
        }
        if wakeup.revents != 0 { _ = read(wakeFD, &wakeCount, 8) }
        return 0
    }

    /// While the FIFO is missing, looks for it again once its time has come.
    mutating func beginTurn() -> DeviceTurn {
        guard fd < 0 else { return .ready }
        let now = WriterControl.monotonicNanoseconds()
        guard now >= nextAttempt else { return .ready }
        nextAttempt = now + Self.retryNanoseconds
        let opened = interlude_open_fifo(path, Int32(clamping: pipeBytes))
        if opened >= 0 {
            fd = opened
            left = 0
            // Given the time a dozen chunks take to be read, from now.
            lastRead = now
            if isAway {
                // Away until read: the pipe holds nothing yet to be read.
                awayFrames = 0
                awayStart = now
            }
        } else {
            goAway(reason: Int(-opened), now: now)
        }
        return .ready
    }

    mutating func endTurn() {}

    mutating func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }

    /// Feeding: what tops the pipe up to the lead. Away: what the clock owes.
    mutating func room() -> Int {
        let now = WriterControl.monotonicNanoseconds()
        if fd >= 0, interlude_unread_bytes(fd, &unread) == 0 {
            let queued = Int(unread) / bytesPerFrame
            var previous = left
            if queued < left {
                lastRead = now
                if isAway {
                    // Read again: the server is back (and took the one slice left for it: no underrun).
                    isAway = false
                    announcedAway = false
                    previous = 0
                }
            } else if !isAway && now - lastRead > Self.awayNanoseconds {
                goAway(reason: Int(EPIPE), now: now)
            }
            left = queued
            if !isAway {
                // Emptied between two turns: the server filled silence in (a gap heard).
                if queued == 0 && previous > 0 { underruns += 1 }
                return max(0, leadFrames - queued)
            }
        }
        let owed = (now - awayStart) / 1000 * rate / 1_000_000 - awayFrames
        return max(0, min(owed, leadFrames))
    }

    /// Says once that no server reads, and plays on from here on the clock.
    private mutating func goAway(reason: Int, now: Int) {
        if !isAway {
            isAway = true
            awayStart = now
            awayFrames = 0
        }
        if !announcedAway {
            announcedAway = true
            context.pointee.post(EngineEvent.Kind.outputAway.rawValue, value: reason)
        }
    }

    /// What the pipe holds (`drop` takes it back) and the server's buffer
    /// (which plays out). Nil while no server reads: a pause fades from the
    /// writer's frame, as the clock plays on.
    mutating func measureQueue() -> DeviceQueue? {
        guard isFeeding, interlude_unread_bytes(fd, &unread) == 0 else { return nil }
        let queued = Int(unread) / bytesPerFrame
        return DeviceQueue(unheard: queued + serverBufferFrames, stillSounding: serverBufferFrames, droppable: queued)
    }

    /// Reads back what the pipe holds, in one read: a pipe's read holds its
    /// lock throughout, so the server's reads come wholly before or after it
    /// and what it did not take is exactly what was given up. Whole frames:
    /// every write and every read the server makes is.
    mutating func drop(measured: DeviceQueue) -> DeviceQueue? {
        guard fd >= 0 else { return nil }
        let taken = max(0, read(fd, drainBuffer, pipeBytes)) / bytesPerFrame
        left = 0
        return DeviceQueue(unheard: taken + serverBufferFrames, stillSounding: serverBufferFrames, droppable: taken)
    }

    /// The server reads on its own clock: after a drop the pipe is filled to the lead at once.
    static var fillsAfterDrop: Bool { true }

    mutating func write(frames: Int, replacingQueue: Bool) -> DeviceWrite {
        guard fd >= 0 else {
            awayFrames += frames
            return .written(frames: frames)
        }
        if isAway {
            // Only the latest slice stays in the pipe, for a server that comes back.
            while read(fd, drainBuffer, pipeBytes) > 0 {}
            awayFrames += frames
            left = 0
        }
        let written = Glibc.write(fd, context.pointee.scratch, frames * bytesPerFrame)
        if written >= 0 {
            left += written / bytesPerFrame
            return .written(frames: isAway ? frames : written / bytesPerFrame)
        }
        let code = errno
        if code == EAGAIN || code == EINTR { return .written(frames: isAway ? frames : 0) }
        // The FIFO failed (removed and replaced, say): look for it again, playing on meanwhile.
        Glibc.close(fd)
        fd = -1
        let now = WriterControl.monotonicNanoseconds()
        nextAttempt = now + Self.retryNanoseconds / 10
        goAway(reason: Int(code), now: now)
        return .written(frames: frames)
    }

    /// What the pipe holds and the server's buffer; away, the lead and the
    /// buffer, so the position runs on as it did.
    mutating func unheardFrames() -> Int? {
        guard isFeeding else { return leadFrames + serverBufferFrames }
        guard interlude_unread_bytes(fd, &unread) == 0 else { return nil }
        return Int(unread) / bytesPerFrame + serverBufferFrames
    }

    /// Waits (in the loop's waits, so a stop request ends it) until the
    /// server has read the pipe empty and its buffer has played out.
    mutating func drain() -> Bool {
        let control = context.pointee.control
        var deadline = 0
        while !control.pointee.stopRequested.load(ordering: .relaxed) {
            let now = WriterControl.monotonicNanoseconds()
            if deadline == 0 {
                if isFeeding, interlude_unread_bytes(fd, &unread) == 0, unread > 0 {
                    let queued = Int(unread) / bytesPerFrame
                    if queued < left { lastRead = now }
                    left = queued
                    if now - lastRead <= Self.awayNanoseconds {
                        _ = sleepOrWake(milliseconds: 10)
                        continue
                    }
                }
                deadline = now + (isFeeding ? serverBufferFrames : 0) * 1_000_000_000 / rate
            }
            if now >= deadline { break }
            _ = sleepOrWake(milliseconds: Int32(min(100, max(1, (deadline - now) / 1_000_000))))
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
/// is blocked on this thread, whatever the process does with it: a failed
/// write is an error to handle, never the process's death.
let snapcastWriterEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    writerLoop(raw!.assumingMemoryBound(to: SnapcastDevice.self))
    return nil
}
