import InterludeCore
import Testing

struct ClockTextTests {
    @Test("minutes and seconds under an hour, hours with two-digit minutes above")
    func formats() {
        #expect(clockText(0) == "0:00")
        #expect(clockText(9.99) == "0:09")
        #expect(clockText(61) == "1:01")
        #expect(clockText(3599) == "59:59")
        #expect(clockText(3600) == "1:00:00")
        #expect(clockText(3 * 3600 + 5 * 60 + 7) == "3:05:07")
    }

    @Test("negative, not-a-number and infinite lengths read as a clock, never trap")
    func outOfRange() {
        #expect(clockText(-5) == "0:00")
        #expect(clockText(.nan) == "0:00")
        #expect(clockText(-.infinity) == "0:00")
        #expect(clockText(.infinity) == clockText(9_007_199_254_740_992))
        #expect(clockText(1e300) == "2501999792983:36:32")
    }
}
