import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The threads an ALSA plugin starts inside `snd_pcm_open`, raised to the
/// writer's real-time priority.
///
/// The `pulse` plugin (and others that talk to a sound server) starts its own
/// thread, PulseAudio's threaded main loop, which does the socket work of every
/// call the writer makes: the writer's `snd_pcm_drop`, `snd_pcm_prepare` and
/// `snd_pcm_start` each wait for it to carry a request to the server and bring
/// the answer back, and each write reaches the server only when it runs. Left at
/// normal priority it waits behind every busy process while the real-time writer
/// waits for it: under load (two cores, compilers running) the drop, prepare and
/// start of a pause took long enough that the server played one or two of the
/// null sink's 25 ms blocks of silence between the music it still had and the
/// fade written after the drop (4 of 14 pauses under `stress-ng --cpu 3`; 0 of
/// 14 with this thread raised by hand).
enum PluginThreads {
    /// SCHED_FIFO at this priority, as the writer (`startRealtimeThread`).
    static let priority: Int32 = 20

    /// This process's thread ids (Linux: /proc/self/task).
    static func current() -> Set<pid_t> {
        Set((DirectoryListing.names(in: "/proc/self/task") ?? []).compactMap { pid_t($0) })
    }

    /// Raises the threads that exist now but not in `before` (those `snd_pcm_open`
    /// started). Returns how many were raised; refused (no CAP_SYS_NICE, an
    /// RLIMIT_RTPRIO of 0) they stay as they are, as the writer does.
    @discardableResult
    static func raiseStarted(since before: Set<pid_t>) -> Int {
        raise(current().subtracting(before))
    }

    /// Raises one thread known by its id (the native output's main loop: `PulseOutput`); 1 when raised.
    @discardableResult
    static func raise(_ thread: pid_t) -> Int {
        raise([thread])
    }

    private static func raise(_ threads: Set<pid_t>) -> Int {
        var parameters = sched_param(sched_priority: priority)
        var raised = 0
        for thread in threads where sched_setscheduler(thread, SCHED_FIFO, &parameters) == 0 {
            raised += 1
        }
        return raised
    }

    static func threadName(_ thread: pid_t) -> String {
        let fd = open("/proc/self/task/\(thread)/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(0, count)).filter { $0 != 10 }, as: UTF8.self)
    }
}
