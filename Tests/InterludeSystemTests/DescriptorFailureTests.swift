import LoopIO
import Glibc
@testable import Interlude
import InterludeCore
import Testing

/// The main loop's descriptors (signals, the clock's wake-up, the wall-clock watch):
/// each failure becomes one line naming the call and the C library's message,
/// and a channel that cannot be made leaves the signals unblocked rather than
/// silently swallowed.
struct DescriptorFailureTests {
    @Test func signalChannelOutOfDescriptorsNamesSignalfdAndLeavesTheSignalUnblocked() throws {
        let report = try inChildWithoutDescriptors {
            let channel = SignalChannel([SIGURG])
            var thrown = "none"
            do { _ = try SignalChannel.open([SIGURG]) } catch { thrown = "\(error)" }
            return "\(channel.failure?.description ?? "none")|\(thrown)|blocked: \(isBlocked(SIGURG))"
        }
        #expect(report == "signalfd failed: Too many open files|signalfd failed: Too many open files|blocked: false")
    }

    /// The clock's wake-up is made at its first arming: out of descriptors, the
    /// failure names timerfd_create and stays (nothing is tried again), and the
    /// clock has no descriptor for the loop to poll.
    @Test func clockWakeUpOutOfDescriptorsNamesTimerfdCreate() throws {
        let report = try inChildWithoutDescriptors {
            let clock = SystemClock()
            clock.armWakeUp(orAt: clock.monotonicNow + .seconds(1))
            clock.armWakeUp()
            return "\(clock.wakeUpFailure?.description ?? "none")|\(clock.wakeUpDescriptor)"
        }
        #expect(report == "timerfd_create failed: Too many open files|-1")
    }

    /// Arming a timerfd that is not there names timerfd_settime.
    @Test func armingATimerWithoutADescriptorNamesTimerfdSettime() {
        var thrown = "none"
        do { try SystemCall.setTimer(-1, itimerspec()) } catch { thrown = "\(error)" }
        #expect(thrown == "timerfd_settime failed: Bad file descriptor")
    }

    @Test func wallClockWatchOutOfDescriptorsNamesTimerfdCreate() throws {
        let report = try inChildWithoutDescriptors {
            let watch = WallClockChangeDescriptor()
            var thrown = "none"
            do { _ = try WallClockChangeDescriptor.open() } catch { thrown = "\(error)" }
            return "\(watch.failure?.description ?? "none")|\(thrown)"
        }
        #expect(report == "timerfd_create failed: Too many open files|timerfd_create failed: Too many open files")
    }

    /// SIGURG's default action is to ignore it, so a failure here cannot end the test run.
    @Test func signalChannelDeliversABlockedSignalAndUnblocksItWhenReleased() throws {
        do {
            let channel = try SignalChannel.open([SIGURG])
            #expect(channel.failure == nil)
            #expect(isBlocked(SIGURG))
            #expect(raise(SIGURG) == 0)
            #expect(waitReadable([channel.fd], timeoutMilliseconds: 10_000) == [channel.fd])
            #expect(channel.take() == [SIGURG])
        }
        #expect(!isBlocked(SIGURG))
    }

    /// The clock's wake-up is readable at its next timer, or at the loop's own
    /// deadline when sooner, until acknowledged; held timers and no timers leave it disarmed.
    @Test func theClockWakesTheLoopAtItsNextDeadlineAndIsAcknowledged() throws {
        let clock = SystemClock()
        clock.schedule(at: clock.monotonicNow) {}
        clock.armWakeUp()
        let wakeUp = clock.wakeUpDescriptor
        #expect(waitReadable([wakeUp], timeoutMilliseconds: 10_000) == [wakeUp])
        clock.acknowledgeWakeUp()
        #expect(waitReadable([wakeUp], timeoutMilliseconds: 0).isEmpty)
        clock.armWakeUp(holdingTimers: true)
        #expect(waitReadable([wakeUp], timeoutMilliseconds: 50).isEmpty, "held timers woke the loop")
        clock.armWakeUp(orAt: clock.monotonicNow, holdingTimers: true)
        #expect(waitReadable([wakeUp], timeoutMilliseconds: 10_000) == [wakeUp])
        clock.acknowledgeWakeUp()
        clock.runDueTimers()
        clock.armWakeUp()
        #expect(waitReadable([wakeUp], timeoutMilliseconds: 50).isEmpty, "no timer left, yet it woke the loop")
        #expect(clock.wakeUpFailure == nil)
        let watch = try WallClockChangeDescriptor.open()
        #expect(!watch.clockWasSet())
        #expect(watch.failure == nil)
    }

    // MARK: Helpers

    /// Runs `body` in a forked child whose RLIMIT_NOFILE is zero (so the test
    /// runner keeps its own descriptors), with no descriptor of the test
    /// process but its pipe, and returns the text it produced.
    /// The child is killed after 10 s, so a lock held by another thread at the
    /// fork fails the test instead of hanging it.
    private func inChildWithoutDescriptors(_ body: () -> String) throws -> String {
        // Instantiated before the fork, so the child takes no runtime lock for them.
        _ = (SignalChannel.self, SystemClock.self, WallClockChangeDescriptor.self, SystemCallError.self)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        // Beyond the process's highest descriptor, counted before the fork (the child may only make async-signal-safe calls).
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let highest = Int32(min(limit.rlim_cur, 65536))
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            // The child holds a copy of every descriptor the test process has, the sockets
            // of tests running beside this one too: a connection one of them closes would
            // not end while the copy lives. Only the pipe's end is kept, as descriptor 3.
            if ends[1] != 3 { dup2(ends[1], 3) }
            ends[1] = 3
            for descriptor in 4..<highest { close(descriptor) }
            alarm(10)
            var limit = rlimit(rlim_cur: 0, rlim_max: 0)
            var text = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? body() : "setrlimit failed"
            text.withUTF8 { bytes in _ = write(ends[1], bytes.baseAddress, bytes.count) }
            _exit(0)
        }
        close(ends[1])
        defer { close(ends[0]) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(status == 0, "the child did not exit normally (wait status \(status))")
        return String(decoding: bytes, as: UTF8.self)
    }
}

private func isBlocked(_ signal: Int32) -> Bool {
    var current = sigset_t()
    pthread_sigmask(SIG_BLOCK, nil, &current)
    return sigismember(&current, signal) == 1
}

/// The descriptors among `fds` that are readable within `timeoutMilliseconds`.
private func waitReadable(_ fds: [Int32], timeoutMilliseconds: Int) -> [Int32] {
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let count = poll(&polls, nfds_t(polls.count), Int32(clamping: timeoutMilliseconds))
    guard count > 0 else { return [] }
    return polls.filter { $0.revents != 0 }.map(\.fd)
}
