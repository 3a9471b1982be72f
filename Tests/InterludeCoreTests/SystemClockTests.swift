import InterludeCore
import Testing

struct SystemClockTests {
    @Test func realClocksReadPlausibleValuesAndDueTimersRun() {
        let clock = SystemClock()
        // After 2020-01-01 and before 2100: the wall clock is a real date.
        #expect(clock.wallNow.secondsSince1970 > 1_577_836_800)
        #expect(clock.wallNow.secondsSince1970 < 4_102_444_800)
        #expect(clock.bootTimeMinusMonotonic >= .zero)
        var ran = false
        clock.schedule(at: clock.monotonicNow - .seconds(1)) { ran = true }
        #expect(clock.timeUntilNextTimer == .zero)
        clock.runDueTimers()
        #expect(ran)
        #expect(clock.timeUntilNextTimer == nil)
    }
}
