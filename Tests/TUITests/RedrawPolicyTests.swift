import Testing
@testable import TUI

struct RedrawPolicyTests {
    @Test("while playing, timed redraws come at most four times a second however often the loop turns")
    func atMostFourTimesASecond() {
        var policy = RedrawPolicy()
        var draws = 0
        // The loop turning every 10 ms for 10 s.
        for step in 0..<1000 where policy.shouldDraw(now: Double(step) * 0.01, moving: true) { draws += 1 }
        #expect(draws <= 41 && draws >= 39, "\(draws) draws in 10 s")
        #expect(policy.maximumWaitMilliseconds(moving: true) == 250)
    }

    @Test("paused, nothing is drawn after the first frame unless something changes; a change draws at once")
    func pausedDrawsNothing() {
        var policy = RedrawPolicy()
        let first = policy.shouldDraw(now: 0, moving: false)
        #expect(first)
        var draws = 0
        for step in 1...1000 where policy.shouldDraw(now: Double(step) * 0.01, moving: false) { draws += 1 }
        #expect(draws == 0)
        #expect(policy.maximumWaitMilliseconds(moving: false) == nil)
        policy.setNeedsDraw()
        let afterChange = policy.shouldDraw(now: 10.001, moving: false)
        let again = policy.shouldDraw(now: 10.002, moving: false)
        #expect(afterChange && !again)
    }
}
