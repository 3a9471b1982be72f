import InterludeCore
import Streams
import Testing

@Suite struct ReconnectPolicyTests {
    @Test func delaysDoubleFromOneSecondToTheCap() throws {
        let policy = try #require(ReconnectPolicy(jitter: 0, limit: .forever))
        let delays = (1...8).map { policy.baseDelay(beforeAttempt: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        // Attempt ten thousand of a stream kept for ever neither overflows nor passes the cap.
        #expect(policy.baseDelay(beforeAttempt: 10_000) == .seconds(30))
        #expect(policy.baseDelay(beforeAttempt: Int.max) == .seconds(30))
    }

    @Test func jitterShortensEachDelayByAtMostItsShareAndRepeatsWithTheSeed() throws {
        let policy = try #require(ReconnectPolicy(jitter: 0.2, limit: .forever))
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        var other = SeededGenerator(seed: 8)
        var seen = Set<Duration>()
        var differs = false
        for attempt in 1...40 {
            let delay = policy.delay(beforeAttempt: attempt, using: &first)
            let base = policy.baseDelay(beforeAttempt: attempt)
            #expect(delay <= base && delay >= base * 0.8, "attempt \(attempt): \(delay) against \(base)")
            #expect(policy.delay(beforeAttempt: attempt, using: &second) == delay)
            differs = differs || policy.delay(beforeAttempt: attempt, using: &other) != delay
            seen.insert(delay)
        }
        #expect(differs)
        #expect(seen.count > 10)
    }

    @Test func refusesSettingsOutOfRange() {
        #expect(ReconnectPolicy(firstDelay: .zero) == nil)
        #expect(ReconnectPolicy(firstDelay: .seconds(60), maximumDelay: .seconds(30)) == nil)
        #expect(ReconnectPolicy(maximumDelay: .seconds(100_000)) == nil)
        #expect(ReconnectPolicy(jitter: 0.9) == nil)
        #expect(ReconnectPolicy(jitter: -0.1) == nil)
        #expect(ReconnectPolicy(limit: .attempts(0)) == nil)
        #expect(ReconnectPolicy(limit: .attempts(1_000_000)) == nil)
        #expect(ReconnectPolicy.standard.limit == .attempts(10))
    }
}

@Suite struct StreamReconnectorTests {
    final class Recorder {
        var events: [(Duration, StreamReconnector.Event)] = []
    }

    func make(_ policy: ReconnectPolicy, clock: VirtualClock, recorder: Recorder) -> StreamReconnector {
        StreamReconnector(stationName: "Radio Example", policy: policy, clock: clock, seed: 26) { event in
            recorder.events.append((clock.monotonicNow.sinceOrigin, event))
        }
    }

    @Test func attemptsComeOnTheClockWithBackoffAndSayTheirNumber() throws {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_700_000_000))
        let recorder = Recorder()
        let policy = try #require(ReconnectPolicy(jitter: 0, limit: .attempts(5)))
        let reconnector = make(policy, clock: clock, recorder: recorder)
        #expect(reconnector.statusLine == nil)

        reconnector.failed(reason: "the connection was reset")
        #expect(reconnector.statusLine == "reconnecting to Radio Example, attempt 1")
        #expect(clock.pendingTimerCount == 1)
        // Nothing happens before the delay: the attempt is a timer, not a wait.
        clock.advance(by: .milliseconds(999))
        #expect(recorder.events.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(recorder.events.map(\.1) == [.attempt(number: 1)])

        // Each attempt fails in turn: 2 s, 4 s, 8 s later.
        for expected in 2...3 {
            reconnector.failed(reason: "connection refused")
            clock.advance(by: .seconds(600))
            #expect(recorder.events.last?.1 == .attempt(number: expected))
        }
        reconnector.failed(reason: "connection refused")
        #expect(reconnector.statusLine == "reconnecting to Radio Example, attempt 4")
        clock.advance(by: .seconds(600))
        #expect(recorder.events.map(\.0) == [.seconds(1), .seconds(3), .seconds(605), .seconds(1209)])
    }

    @Test func givesUpAfterTheLimitWithOneLine() throws {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        let recorder = Recorder()
        let reconnector = make(try #require(ReconnectPolicy(limit: .attempts(3))), clock: clock, recorder: recorder)
        for _ in 1...3 {
            reconnector.failed(reason: "404 Not Found")
            clock.advance(by: .seconds(60))
        }
        reconnector.failed(reason: "404 Not Found")
        #expect(recorder.events.map(\.1) == [.attempt(number: 1), .attempt(number: 2), .attempt(number: 3),
                                             .gaveUp(attempts: 3, reason: "404 Not Found")])
        #expect(clock.pendingTimerCount == 0)
        #expect(reconnector.statusLine == nil)
        #expect(reconnector.gaveUpLine(attempts: 3, reason: "404 Not Found") == "gave up on Radio Example after 3 attempts: 404 Not Found")
    }

    @Test func keptForeverItNeverGivesUpAndStaysAtTheCap() throws {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        let recorder = Recorder()
        let reconnector = make(try #require(ReconnectPolicy(jitter: 0, limit: .forever)), clock: clock, recorder: recorder)
        for _ in 1...500 {
            reconnector.failed(reason: "down")
            clock.advance(by: .seconds(30))
        }
        #expect(recorder.events.count == 500)
        #expect(recorder.events.allSatisfy { if case .attempt = $0.1 { true } else { false } })
        #expect(reconnector.statusLine == "reconnecting to Radio Example, attempt 500")
        let gaps = zip(recorder.events.dropFirst(), recorder.events).map { $0.0 - $1.0 }
        #expect(gaps.suffix(400).allSatisfy { $0 == .seconds(30) })
    }

    @Test func aConnectionStartsTheCountOverAndCancelsTheTimer() throws {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        let recorder = Recorder()
        let reconnector = make(try #require(ReconnectPolicy(jitter: 0)), clock: clock, recorder: recorder)
        reconnector.failed(reason: "reset")
        clock.advance(by: .seconds(1))
        reconnector.failed(reason: "reset")
        reconnector.connected()
        #expect(clock.pendingTimerCount == 0)
        clock.advance(by: .seconds(60))
        #expect(recorder.events.count == 1)
        reconnector.failed(reason: "reset")
        #expect(reconnector.statusLine == "reconnecting to Radio Example, attempt 1")
        #expect(reconnector.pendingDelay == .seconds(1))
        reconnector.cancel()
        clock.advance(by: .seconds(60))
        #expect(recorder.events.count == 1)
    }
}
