import Alarms
import FoundationEssentials
import InterludeCore
import Testing

/// A player that dies while an alarm rings (a crash, `kill -9`, a power cut)
/// leaves the ring unended in `alarms.json`; the next player to start never
/// drops it in silence: within the late-ring grace it rings again, said late
/// with the reason, past it it is reported missed. A ring that ended
/// (dismissed, snoozed, timed out) leaves nothing behind. A daily 07:00
/// Berlin alarm "wake", rung at 07:00, then the player gone.
struct InterruptedRingTests {
    enum End: String, Sendable, CaseIterable { case died, dismissed }

    struct Row: Sendable, CustomStringConvertible {
        let end: End
        /// Seconds after the ring began when the next player starts.
        let gap: Int64
        let late: [String]
        let missed: [String]
        var description: String { "\(end.rawValue), next start \(gap) s later" }
    }

    static let rows: [Row] = [
        Row(end: .died, gap: 30, late: ["alarm 1 rang 30 s late: the player stopped while it rang"], missed: []),
        Row(end: .died, gap: 9 * 60, late: ["alarm 1 rang 9 min late: the player stopped while it rang"], missed: []),
        Row(end: .died, gap: 11 * 60, late: [], missed: ["missed alarm 1 wake: 11 min late, the player stopped while it rang"]),
        Row(end: .dismissed, gap: 30, late: [], missed: []),
    ]

    @Test("an alarm ringing when its player died rings again late with the reason, or is missed past the grace", arguments: rows)
    func interruptedRing(row: Row) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T04:59:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily)) { $0.label = "wake" }
        harness.clock.advance(by: .seconds(60))
        #expect(harness.ringingBegan() == [[alarm.id]])
        if row.end == .dismissed { harness.scheduler.dismiss() }

        harness.clock.stepWallClock(by: .seconds(row.gap))
        harness.restart(stateDirectory: directory)
        let late = harness.events.flatMap { event -> [String] in
            if case .rangLate(let rings) = event { rings.map(\.line) } else { [] }
        }
        let missed = harness.events.flatMap { event -> [String] in
            if case .missed(let alarms) = event { alarms.map(\.line) } else { [] }
        }
        #expect(late == row.late)
        #expect(missed == row.missed)
        #expect(harness.ringingBegan().count == (row.late.isEmpty ? 1 : 2))
        // Said once: a third start finds nothing left to ring or miss.
        harness.scheduler.dismiss()
        let before = harness.events.count
        harness.restart(stateDirectory: directory)
        let again = harness.events[before...].filter {
            switch $0 {
            case .rangLate, .missed, .ringingBegan: true
            default: false
            }
        }
        #expect(again.isEmpty, "\(again)")
        #expect(harness.scheduler.nextFire(of: alarm.id) == utc("2025-06-17T05:00:00Z"), "tomorrow's rings as ever")
    }
}
