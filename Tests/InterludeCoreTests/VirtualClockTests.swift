import InterludeCore
import Testing

struct VirtualClockTests {
    @Test func timersFireInDeadlineOrderAtTheirOwnDeadline() {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_000))
        var fired: [(String, MonotonicInstant)] = []
        clock.schedule(after: .seconds(3)) { fired.append(("c", clock.monotonicNow)) }
        clock.schedule(after: .seconds(1)) { fired.append(("a", clock.monotonicNow)) }
        clock.schedule(after: .seconds(1)) { fired.append(("b", clock.monotonicNow)) }
        clock.advance(by: .milliseconds(999))
        #expect(fired.isEmpty)
        clock.advance(by: .seconds(5))
        #expect(fired.map(\.0) == ["a", "b", "c"])
        let expected: [MonotonicInstant] = [.origin + .seconds(1), .origin + .seconds(1), .origin + .seconds(3)]
        #expect(fired.map(\.1) == expected)
        #expect(clock.firedTimerCount == 3)
        #expect(clock.wallNow == WallInstant(secondsSince1970: 1_000) + .milliseconds(5999))
    }

    @Test func cancelledTimerNeverFires() {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        var fired = false
        let token = clock.schedule(after: .seconds(1)) { fired = true }
        clock.cancel(token)
        clock.advance(by: .seconds(2))
        #expect(!fired)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test func timerScheduledByATimerWithinTheIntervalFiresToo() {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 0))
        var times: [MonotonicInstant] = []
        clock.schedule(after: .seconds(1)) {
            times.append(clock.monotonicNow)
            clock.schedule(after: .seconds(1)) { times.append(clock.monotonicNow) }
        }
        clock.advance(by: .seconds(10))
        let expected: [MonotonicInstant] = [.origin + .seconds(1), .origin + .seconds(2)]
        #expect(times == expected)
    }

    @Test func wallStepMovesOnlyWallTimeAndSleepMovesWallAndBootButNotMonotonic() {
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: 100))
        clock.stepWallClock(by: .seconds(-50))
        #expect(clock.wallNow == WallInstant(secondsSince1970: 50))
        #expect(clock.monotonicNow == .origin)
        #expect(clock.bootTimeMinusMonotonic == .zero)
        clock.sleepMachine(for: .seconds(600))
        #expect(clock.wallNow == WallInstant(secondsSince1970: 650))
        #expect(clock.monotonicNow == .origin)
        #expect(clock.bootTimeMinusMonotonic == .seconds(600))
    }

    @Test func wallInstantSecondsRoundDownBeforeTheEpoch() {
        #expect(WallInstant(sinceEpoch: .milliseconds(-1500)).secondsSince1970 == -2)
        #expect(WallInstant(sinceEpoch: .milliseconds(1500)).secondsSince1970 == 1)
    }
}
