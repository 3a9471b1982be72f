import AudioDecoding
@testable import AudioEngine
import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The `pulse` plugin's own thread (PulseAudio's threaded main loop) carries
/// every call the real-time writer makes to the sound server, so it runs at the
/// writer's priority: at normal priority a loaded machine kept the writer
/// waiting on it for whole sink blocks (silence heard between the music and a
/// pause's fade; see `PluginThreads`).
///
/// Serialized: the ALSA plugin's threads are known only as the threads
/// `snd_pcm_open` started, so that test's open raises any thread started
/// beside it (the other test's bystander, seen once at SCHED_FIFO).
@Suite(.serialized) struct PluginThreadPriorityTests {
    @Test func thePulsePluginsThreadRunsAtTheWritersRealTimePriority() throws {
        let server = try PulseServer.shared()
        // Only PULSE_SERVER, as `WriterScenario` explains.
        if let address = server.environment["PULSE_SERVER"] { setenv("PULSE_SERVER", address, 1) }
        let before = Self.threads()
        let pcm = try AlsaPCM(device: "pulse", format: AudioFormat(rate: 44100, channels: 2), latencyMilliseconds: 300)
        // Threads named by PulseAudio's main loop that the open started (other
        // tests may start threads meanwhile: those are not looked at).
        let started = Self.threads().subtracting(before).filter { Self.name(of: $0) == "threaded-ml" }
        #expect(!started.isEmpty, "the pulse plugin started no thread of its own")
        let policies = started.map { sched_getscheduler($0) }
        let priorities = started.map { thread -> Int32 in
            var parameters = sched_param()
            return sched_getparam(thread, &parameters) == 0 ? parameters.sched_priority : -1
        }
        if Self.realTimeAllowed() {
            #expect(policies.contains(SCHED_FIFO) && priorities.contains(20),
                    "the plugin's threads run with policies \(policies) at priorities \(priorities)")
        } else {
            // Refused, as the writer is: the open still succeeds, at normal priority.
            #expect(policies.allSatisfy { $0 == SCHED_OTHER })
        }
        withExtendedLifetime(pcm) {}
    }

    /// The native output raises libpulse's main loop thread (it carries the
    /// writes and the timing a pause waits for), and only that one: a thread
    /// other code starts meanwhile (here one of the test's own, alive through
    /// the open; in a test process the suites running beside) stays as it is.
    @Test func theNativeOutputRaisesLibpulsesMainLoopThreadOnly() throws {
        let server = try PulseServer.shared()
        if let address = server.environment["PULSE_SERVER"] { setenv("PULSE_SERVER", address, 1) }
        let bystander = try Bystander()
        defer { bystander.stop() }
        let output = try PulseOutput(format: AudioFormat(rate: 44100, channels: 2), latencyMilliseconds: 300)
        #expect(output.mainLoopThread > 0)
        #expect(Self.name(of: output.mainLoopThread) == "threaded-ml")
        #expect(sched_getscheduler(bystander.thread) == SCHED_OTHER)
        if Self.realTimeAllowed() {
            #expect(output.mainLoopThreadsRaised == 1)
            #expect(sched_getscheduler(output.mainLoopThread) == SCHED_FIFO)
        } else {
            #expect(output.mainLoopThreadsRaised == 0 && sched_getscheduler(output.mainLoopThread) == SCHED_OTHER)
        }
        withExtendedLifetime(output) {}
    }

    /// A thread of the test's own that waits on a pipe until stopped.
    final class Bystander {
        private(set) var thread: pid_t = 0
        private var pipe: [Int32] = [-1, -1]
        private var handle: pthread_t?
        private let started = DispatchSemaphore(value: 0)

        init() throws {
            guard Glibc.pipe(&pipe) == 0 else { throw POSIXError(.EMFILE) }
            let box = Unmanaged.passRetained(self)
            var created = pthread_t()
            guard pthread_create(&created, nil, { argument in
                let bystander = Unmanaged<Bystander>.fromOpaque(argument!).takeRetainedValue()
                // Its id from /proc/thread-self, "PID/task/TID" (Swift has no gettid).
                var link = [CChar](repeating: 0, count: 64)
                let length = readlink("/proc/thread-self", &link, link.count - 1)
                let text = String(decoding: link.prefix(max(0, length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                bystander.thread = pid_t(text.split(separator: "/").last ?? "") ?? 0
                bystander.started.signal()
                var byte: UInt8 = 0
                _ = read(bystander.pipe[0], &byte, 1)
                return nil
            }, box.toOpaque()) == 0 else {
                box.release()
                throw POSIXError(.EAGAIN)
            }
            handle = created
            started.wait()
        }

        func stop() {
            var byte: UInt8 = 1
            _ = write(pipe[1], &byte, 1)
            if let handle { pthread_join(handle, nil) }
            handle = nil
            close(pipe[0])
            close(pipe[1])
        }
    }

    static func threads() -> Set<pid_t> {
        Set((DirectoryListing.names(in: "/proc/self/task") ?? []).compactMap { pid_t($0) })
    }

    static func name(of thread: pid_t) -> String {
        let fd = open("/proc/self/task/\(thread)/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether this process may start a SCHED_FIFO thread (as the writer asks).
    static func realTimeAllowed() -> Bool {
        var parameters = sched_param(sched_priority: 20)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
        pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
        pthread_attr_setschedparam(&attributes, &parameters)
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, { _ in nil }, nil) == 0 else { return false }
        pthread_join(thread, nil)
        return true
    }
}
