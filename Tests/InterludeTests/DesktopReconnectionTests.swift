import DesktopIntegration
import Foundation
@testable import Interlude
import PlayerModel
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The sound server killed while the source is
/// subscribed is reported once, the source retries with a backoff (counted
/// over a bounded stretch of real time, not timed), and when a server is back
/// on the same socket it is subscribed again and sees the next stream.
///
/// The source is driven here as the runtime drives it: one `poll` on its
/// requests with its own timeout, then `service`. A private server, stopped
/// by its PID.
@Suite(.serialized) struct DesktopReconnectionTests {
    final class Driver {
        let source: DesktopInterruptionSource
        private(set) var messages: [String] = []
        private(set) var turns = 0

        init(_ source: DesktopInterruptionSource) { self.source = source }

        /// Turns the loop until `condition` holds or `seconds` pass; each wait
        /// is the source's own (capped at a second so the deadline is seen).
        @discardableResult
        func run(for seconds: Double, until condition: () -> Bool = { false }) -> Bool {
            let deadline = TestSupport.monotonicSeconds() + seconds
            while TestSupport.monotonicSeconds() < deadline {
                if condition() { return true }
                let requests = source.pollRequests
                var fds = requests.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
                let remaining = Int((deadline - TestSupport.monotonicSeconds()) * 1000) + 1
                let wait = min(source.wakeWithinMilliseconds ?? 1000, 1000, remaining)
                _ = poll(&fds, nfds_t(fds.count), Int32(wait))
                let ready = fds.filter { $0.revents != 0 }.map { LoopPollRequest(fd: $0.fd, events: $0.revents) }
                source.service(ready: ready)
                messages += source.takeMessages()
                turns += 1
            }
            return condition()
        }
    }

    func phoneCall(_ server: PulseServer, seconds: Double) throws -> BackgroundProcess {
        let tone = try Fixtures.wav(.tone(frequency: 880), seconds: seconds, sampleRate: 44100, channels: 1)
        return try BackgroundProcess.start("paplay", ["--property=media.role=phone", tone], environment: server.environment)
    }

    @Test func aKilledServerIsReportedOnceRetriedWithBackoffAndSubscribedAgainWhenBack() throws {
        let server = try PulseServer.start()
        defer { server.stop() }
        let source = DesktopInterruptionSource(settings: DesktopInterruptionSettings(), server: server.environment["PULSE_SERVER"])
        let driver = Driver(source)
        #expect(driver.run(for: 10) { source.isConnected }, "\(driver.messages)")
        #expect(source.connectionAttempts == 1)

        let call = try phoneCall(server, seconds: 2)
        #expect(driver.run(for: 10) { source.interruptingPrograms == ["paplay"] }, "\(driver.messages)")
        _ = call.wait(timeout: 20)
        #expect(driver.run(for: 10) { source.interruptingPrograms.isEmpty })

        // Killed while subscribed (SIGKILL: no goodbye on the socket).
        _ = server.process.stop(signal: SIGKILL, grace: 1)
        #expect(driver.run(for: 10) { !source.isConnected })
        let attemptsBefore = source.connectionAttempts
        let turnsBefore = driver.turns
        driver.run(for: 4)
        // Backoff 0.5, 1, 2 s: three attempts fit in four seconds. A busy loop
        // would have made thousands of attempts and turns.
        let attempts = source.connectionAttempts - attemptsBefore
        #expect(attempts >= 2 && attempts <= 4, "\(attempts) attempts")
        #expect(driver.turns - turnsBefore < 40, "\(driver.turns - turnsBefore) turns of the loop in 4 s")
        #expect(driver.messages.filter { $0.contains("the sound server went away") }.count == 1, "\(driver.messages)")
        #expect(!source.isConnected)

        let again = try PulseServer.start(runtimeDirectory: server.runtimeDirectory)
        defer { again.stop() }
        // The next attempt is at most 8 s away by now.
        #expect(driver.run(for: 15) { source.isConnected }, "\(driver.messages)")
        let secondCall = try phoneCall(again, seconds: 1)
        #expect(driver.run(for: 10) { source.interruptingPrograms == ["paplay"] }, "\(driver.messages)")
        _ = secondCall.wait(timeout: 20)
        #expect(driver.messages.filter { $0.contains("went away") }.count == 1, "\(driver.messages)")
        #expect(!driver.messages.contains { $0.contains("are off") })
    }
}
