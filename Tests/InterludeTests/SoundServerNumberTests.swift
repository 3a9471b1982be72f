@testable import Interlude
import DesktopIntegration
import Testing

/// The sound server's numbers on the main loop: a
/// timer deadline libpulse hands over is clamped to a day either way before
/// the waits are computed from it, so a wild one cannot overflow.
struct SoundServerNumberTests {
    @Test func aDeadlineFarOffEitherWayIsClampedToADay() {
        let day: Int64 = 86_400_000_000
        #expect(PulseMainLoop.deadline(.max, onClockAt: -5, monotonicNow: 1_000) == 1_000 + day)
        #expect(PulseMainLoop.deadline(.min, onClockAt: 5, monotonicNow: 1_000) == 1_000 - day)
        #expect(PulseMainLoop.deadline(.max - 1, onClockAt: 0, monotonicNow: .max - day) == .max)
        // A deadline on the wall clock, 2 s ahead, lands 2 s ahead on the monotonic clock.
        #expect(PulseMainLoop.deadline(1_700_000_002_000_000, onClockAt: 1_700_000_000_000_000, monotonicNow: 500) == 2_000_500)
    }
}
