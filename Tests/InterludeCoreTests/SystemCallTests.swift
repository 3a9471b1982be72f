import CLinux
import Glibc
import InterludeCore
import Testing

/// The system-call layer: `EINTR` retried, every other failure thrown as a
/// typed `Errno`, and the descriptor wrappers' failures as one line naming
/// the call and the C library's message.
struct SystemCallTests {
    @Test func retryingRepeatsACallInterruptedByASignal() throws {
        var calls = 0
        let result = try SystemCall.retrying { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test func retryingThrowsTheErrnoOfAFailureOtherThanEINTR() {
        var calls = 0
        #expect(throws: Errno.noSuchFile) {
            try SystemCall.retrying { () -> Int32 in
                calls += 1
                return open("/proc/interlude-no-such-file", O_RDONLY | O_CLOEXEC)
            }
        }
        #expect(calls == 1)
    }

    @Test func errnoCarriesTheCLibraryMessage() {
        #expect(Errno(ENOENT).message == "No such file or directory")
        #expect(Errno(EMFILE).description == "Too many open files")
        #expect(Errno.current == Errno(errno))
    }

    @Test func aNamedCallFailsAsOneLineNamingItAndTheMessage() {
        #expect(throws: SystemCallError(call: "open", errno: .noSuchFile)) {
            try SystemCall.retrying("open") { open("/proc/interlude-no-such-file", O_RDONLY | O_CLOEXEC) }
        }
        let error = SystemCallError(call: "open", errno: .noSuchFile)
        #expect(error.description == "open failed: No such file or directory")
    }

    @Test func pthreadFailuresAreTheReturnedNumberNotErrno() {
        errno = 0
        #expect(throws: SystemCallError(call: "pthread_sigmask", errno: Errno(EINVAL))) {
            try SystemCall.checkingReturnedError("pthread_sigmask") { EINVAL }
        }
        #expect(throws: Never.self) { try SystemCall.checkingReturnedError("pthread_sigmask") { 0 } }
    }

    // MARK: The descriptor wrappers, each failing for real

    @Test func timerDescriptorWithUnknownFlagsNamesTimerfdCreate() {
        #expect(description { _ = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC, flags: 0x7fff_0000) }
                == "timerfd_create failed: Invalid argument")
    }

    @Test func settingATimerOnAClosedDescriptorNamesTimerfdSettime() {
        #expect(description { try SystemCall.setTimer(-1, itimerspec()) }
                == "timerfd_settime failed: Bad file descriptor")
    }

    @Test func settingATimerWithAnInvalidTimeNamesTimerfdSettime() throws {
        let descriptor = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC)
        defer { close(descriptor) }
        var specification = itimerspec()
        // tv_nsec must be below one second.
        specification.it_value = timespec(tv_sec: 0, tv_nsec: 2_000_000_000)
        #expect(description { try SystemCall.setTimer(descriptor, specification) }
                == "timerfd_settime failed: Invalid argument")
    }

    @Test func eventDescriptorWithUnknownFlagsNamesEventfd() {
        #expect(description { _ = try SystemCall.eventDescriptor(flags: 0x7fff_0000) } == "eventfd failed: Invalid argument")
    }

    @Test func signalDescriptorWithUnknownFlagsNamesSignalfd() {
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGUSR2)
        #expect(description { _ = try SystemCall.signalDescriptor(for: mask, flags: 0x7fff_0000) }
                == "signalfd failed: Invalid argument")
    }

    @Test func signalMaskWithAnUnknownHowNamesPthreadSigmask() {
        var mask = sigset_t()
        sigemptyset(&mask)
        #expect(description { try SystemCall.changeSignalMask(12345, mask) } == "pthread_sigmask failed: Invalid argument")
    }

    /// Out of descriptors (RLIMIT_NOFILE lowered to zero, in a child process so
    /// the test runner keeps its own), each descriptor call fails with EMFILE.
    @Test("a descriptor call out of descriptors names the call and EMFILE",
          arguments: ["signalfd", "timerfd_create", "eventfd"])
    func descriptorCallOutOfDescriptors(call: String) throws {
        let code = try errnoInChildWithoutDescriptors(call)
        #expect(SystemCallError(call: call, errno: Errno(code)).description == "\(call) failed: Too many open files")
    }

    @Test func descriptorsAreMadeWhenTheCallsSucceed() throws {
        let timer = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC)
        defer { close(timer) }
        var specification = itimerspec()
        specification.it_value = timespec(tv_sec: 0, tv_nsec: 1)
        try SystemCall.setTimer(timer, specification)
        var readable = pollfd(fd: timer, events: Int16(POLLIN), revents: 0)
        #expect(poll(&readable, 1, -1) == 1)
        let event = try SystemCall.eventDescriptor(initialValue: 3)
        defer { close(event) }
        var value: UInt64 = 0
        #expect(try SystemCall.retrying { read(event, &value, 8) } == 8)
        #expect(value == 3)
    }

    // MARK: Helpers

    /// The thrown error's text, or nil when `body` does not throw a `SystemCallError`.
    private func description(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? SystemCallError)?.description
        }
    }

    /// Forks; the child lowers its descriptor limit to zero, calls the wrapper
    /// for `call` and sends back the thrown error's code (or -1 when it did not
    /// throw). The child makes no allocation after the fork.
    private func errnoInChildWithoutDescriptors(_ call: String) throws -> Int32 {
        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        let which: Int32 = call == "signalfd" ? 0 : call == "timerfd_create" ? 1 : 2
        var mask = sigset_t()
        sigemptyset(&mask)
        // Beyond the process's highest descriptor, counted before the fork.
        var open = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &open)
        let highest = Int32(min(open.rlim_cur, 65536))
        let child = fork()
        try #require(child >= 0)
        if child == 0 {
            // The child's copies of the test process's descriptors (the sockets of tests running beside
            // this one) would keep their connections open: only the pipe's end is kept, as descriptor 3.
            if pipeEnds[1] != 3 { dup2(pipeEnds[1], 3) }
            pipeEnds[1] = 3
            for descriptor in 4..<highest { close(descriptor) }
            var limit = rlimit(rlim_cur: 0, rlim_max: 0)
            var code: Int32 = -1
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 {
                do {
                    switch which {
                    case 0: _ = try SystemCall.signalDescriptor(for: mask)
                    case 1: _ = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC)
                    default: _ = try SystemCall.eventDescriptor()
                    }
                } catch {
                    code = error.errno.code
                }
            }
            _ = write(pipeEnds[1], &code, 4)
            _exit(0)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        var code: Int32 = 0
        let got = read(pipeEnds[0], &code, 4)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        try #require(got == 4)
        return code
    }
}
