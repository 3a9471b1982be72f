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
@Suite struct PluginThreadPriorityTests {
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
    /// writes and the timing a pause waits for), and only that one: threads
    /// other code starts meanwhile stay as they are.
    @Test func theNativeOutputRaisesLibpulsesMainLoopThreadOnly() throws {
        let server = try PulseServer.shared()
        if let address = server.environment["PULSE_SERVER"] { setenv("PULSE_SERVER", address, 1) }
        let before = Self.threads()
        let output = try PulseOutput(format: AudioFormat(rate: 44100, channels: 2), latencyMilliseconds: 300)
        let raised = Self.threads().subtracting(before).filter { sched_getscheduler($0) == SCHED_FIFO }
        if Self.realTimeAllowed() {
            #expect(output.mainLoopThreadsRaised == 1)
            #expect(!raised.isEmpty && raised.allSatisfy { Self.name(of: $0) == "threaded-ml" },
                    "raised: \(raised.map { Self.name(of: $0) })")
        } else {
            #expect(output.mainLoopThreadsRaised == 0 && raised.isEmpty)
        }
        withExtendedLifetime(output) {}
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
