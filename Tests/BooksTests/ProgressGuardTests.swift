import Testing
@testable import Books

/// A place near the start never overwrites real progress unless the listener chose it.
@Suite struct ProgressGuardTests {
    @Test func aPlaceNearTheStartKeepsRealProgressUntilPlaybackPassesIt() {
        var guarding = ProgressGuard()
        // Opened at 0:00 after 40:00 was heard: 0:00, 0:01, ... 39:59 are not written.
        let admitted1 = guarding.admits(0, over: 2_400_000, chosen: false)
        #expect(!admitted1)
        #expect(guarding.kept == 2_400_000)
        let admitted2 = guarding.admits(1_000, over: 2_400_000, chosen: false)
        #expect(!admitted2)
        // Past the start, still before the progress kept: not written either.
        let admitted3 = guarding.admits(600_000, over: 2_400_000, chosen: false)
        #expect(!admitted3)
        // Playback reached it: written again, and the guard is done.
        let admitted4 = guarding.admits(2_400_500, over: 2_400_000, chosen: false)
        #expect(admitted4)
        #expect(guarding.kept == nil)
        let admitted5 = guarding.admits(2_401_500, over: 2_400_500, chosen: false)
        #expect(admitted5)
    }

    @Test func theListenerSeekingBackIsWritten() {
        var guarding = ProgressGuard()
        let admitted6 = guarding.admits(0, over: 2_400_000, chosen: false)
        #expect(!admitted6)
        let admitted7 = guarding.admits(5_000, over: 2_400_000, chosen: true)
        #expect(admitted7)
        #expect(guarding.kept == nil)
        // From there on, playing forward from the chosen place is written.
        let admitted8 = guarding.admits(6_000, over: 5_000, chosen: false)
        #expect(admitted8)
    }

    /// A resume less smart rewind (30 s at most by default) never trips it;
    /// neither does an early place over early progress, nor a place over none.
    @Test func ordinaryPlacesAreWritten() {
        var guarding = ProgressGuard()
        let admitted9 = guarding.admits(35_000, over: 65_000, chosen: false)
        #expect(admitted9)
        let admitted10 = guarding.admits(29_000, over: 59_000, chosen: false)
        #expect(admitted10)
        let admitted11 = guarding.admits(0, over: 0, chosen: false)
        #expect(admitted11)
        let admitted12 = guarding.admits(10_000, over: 20_000, chosen: false)
        #expect(admitted12)
        #expect(guarding.kept == nil)
    }
}
