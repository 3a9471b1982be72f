import Alarms
import AudioSession
import InterludeCore
import Testing

/// A year of daily and weekday alarms in five zones (whole-hour, half-hour
/// and 45-minute offsets, one-hour and 30-minute DST), on the virtual clock,
/// with the wall clock stepped an hour back or forward and the machine
/// suspended for 8 hours on seeded random days: every occurrence rings
/// exactly once, at its local time, unless it fell inside a suspend, when it
/// is reported missed instead; none rings twice, even when a step back makes
/// the wall clock pass it again.
struct YearOfAlarmsTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kathmandu"]
    /// Print this with a failure: the same seed gives the same steps and suspends.
    static let seed: UInt64 = 0xA1A2_2026

    /// 02:15 is skipped when Berlin, New York, Sydney and Lord Howe spring
    /// forward and happens twice when Berlin and Sydney fall back; 01:45
    /// happens twice when New York and Lord Howe fall back.
    static let alarms: [(time: LocalTime, days: RepeatDays)] = [
        (LocalTime(hour: 2, minute: 15), .daily), (LocalTime(hour: 1, minute: 45), .daily),
        (LocalTime(hour: 7, minute: 30), .weekdays),
    ]

    struct Occurrence: Hashable, CustomStringConvertible {
        let alarm: AlarmID
        let instant: Int64
        var description: String { "alarm \(alarm) at \(instant)" }
    }

    /// The first instant at which the wall clock in `rules` reads `date` `time`
    /// or later that day: the time itself, its first occurrence when clocks go
    /// back, the moment the clock jumps when they skip it. Worked out from the
    /// zone's offsets alone, not from the scheduler's arithmetic.
    static func expectedInstant(_ date: LocalDate, _ time: LocalTime, _ rules: TimeZoneRules) -> Int64 {
        let local = date.daysSinceEpoch * 86_400 + time.secondsIntoDay
        let offsets = Set([rules.utcOffset(at: local - 86_400), rules.utcOffset(at: local + 86_400)])
        let exact = offsets.map { local - $0 }.filter { $0 + rules.utcOffset(at: $0) == local }
        if let first = exact.min() { return first }
        // In a gap: back from where the old offset puts it to the jump.
        var instant = local - rules.utcOffset(at: local - 86_400)
        while instant - 60 + rules.utcOffset(at: instant - 60) >= local { instant -= 60 }
        return instant
    }

    @Test("a year in each zone: every occurrence once at its local time, or reported missed inside a suspend", arguments: zones)
    func aYearOfAlarms(zoneName: String) {
        let rules = zone(zoneName)
        let start = utc("2025-01-01T00:00:00Z")
        let end = utc("2026-01-01T00:00:00Z")
        let clock = VirtualClock(wall: WallInstant(secondsSince1970: start))
        let arbiter = AudioSessionArbiter(clock: clock)
        var rung: [Occurrence: Int] = [:]
        var missed: [Occurrence: Int] = [:]
        let scheduler = AlarmScheduler(clock: clock, timeZone: rules, arbiter: arbiter, store: nil) { event in
            switch event {
            case .ringingBegan(let ids):
                for id in ids { rung[Occurrence(alarm: id, instant: clock.wallNow.secondsSince1970), default: 0] += 1 }
            case .ringingJoined(let id):
                rung[Occurrence(alarm: id, instant: clock.wallNow.secondsSince1970), default: 0] += 1
            case .missed(let alarms):
                for alarm in alarms { missed[Occurrence(alarm: alarm.id, instant: alarm.dueAt), default: 0] += 1 }
            default: break
            }
        }
        scheduler.start()
        let ids = Self.alarms.map { scheduler.add(schedule: .clockTime(time: $0.time, repeatDays: $0.days)).id }

        // Every occurrence of the year (and a day either side), from the zone's offsets.
        let zoned = ZonedTime(timeZone: rules)
        let firstDay = zoned.local(at: start).date.adding(days: -1)
        var occurrences: [Occurrence] = []
        var day = firstDay
        while day.daysSinceEpoch * 86_400 < end + 2 * 86_400 {
            for (index, alarm) in Self.alarms.enumerated() where alarm.days.contains(day.weekday) {
                let instant = Self.expectedInstant(day, alarm.time, rules)
                if instant > start && instant <= end { occurrences.append(Occurrence(alarm: ids[index], instant: instant)) }
            }
            day = day.adding(days: 1)
        }
        occurrences.sort { $0.instant < $1.instant }
        func between(_ lower: Int64, _ upper: Int64) -> [Occurrence] {
            occurrences.filter { $0.instant > lower && $0.instant <= upper }
        }

        // What should happen: the wall clock's furthest point so far; what it
        // passes by running rings, what a suspend jumps over is missed.
        var reached = start
        var expectRung = Set<Occurrence>()
        var expectMissed = Set<Occurrence>()
        func run(to wall: Int64) {
            let now = clock.wallNow.secondsSince1970
            guard wall > now else { return }
            expectRung.formUnion(between(max(now, reached), wall))
            reached = max(reached, wall)
            clock.advance(by: .seconds(wall - now))
        }
        let grace = AlarmScheduler.Settings.defaultLateRingGrace.components.seconds
        var generator = SeededGenerator(seed: Self.seed &+ UInt64(Self.zones.firstIndex(of: zoneName) ?? 0))
        var steps = (back: 0, forward: 0, suspends: 0)
        for dayIndex in 0..<365 {
            let dayStart = start + Int64(dayIndex) * 86_400
            let at = dayStart + Int64(generator.next() % 86_400)
            run(to: at)
            let now = clock.wallNow.secondsSince1970
            switch generator.next() % 100 {
            case 55..<75:
                clock.stepWallClock(by: .seconds(-3600))
                scheduler.wallClockDidChange()
                steps.back += 1
            case 75..<88 where between(now, now + 3600 + grace).isEmpty:
                // A step over an occurrence is WallClockStepTests' case; here the hour is empty.
                clock.stepWallClock(by: .seconds(3600))
                reached = max(reached, now + 3600)
                scheduler.wallClockDidChange()
                steps.forward += 1
            case 88..<100 where between(now + 8 * 3600 - grace - 60, now + 8 * 3600).isEmpty:
                // Not within the late-ring grace of waking: those ring late, by design.
                expectMissed.formUnion(between(max(now, reached), now + 8 * 3600))
                reached = max(reached, now + 8 * 3600)
                clock.sleepMachine(for: .seconds(8 * 3600))
                if arbiter.checkForSystemSleep() { scheduler.wallClockDidChange() }
                steps.suspends += 1
            default:
                break
            }
        }
        run(to: end)

        #expect(steps.back > 30 && steps.forward > 20 && steps.suspends > 20, "\(steps)")
        #expect(expectMissed.count > 20 && expectRung.count > 900, "\(expectMissed.count) missed, \(expectRung.count) rung")
        let context = "\(zoneName), seed \(Self.seed)"
        for occurrence in expectRung.sorted(by: { $0.instant < $1.instant }) {
            #expect(rung[occurrence] == 1, "\(context): \(occurrence) rang \(rung[occurrence] ?? 0) times")
            #expect(missed[occurrence] == nil, "\(context): \(occurrence) rang but was also reported missed")
        }
        for occurrence in expectMissed.sorted(by: { $0.instant < $1.instant }) {
            #expect(missed[occurrence] == 1, "\(context): \(occurrence) in a suspend was not reported missed once")
            #expect(rung[occurrence] == nil, "\(context): \(occurrence) in a suspend rang")
        }
        let unexpected = Set(rung.keys).subtracting(expectRung)
        #expect(unexpected.isEmpty, "\(context): rang at times no occurrence has: \(unexpected.sorted { $0.instant < $1.instant })")
        #expect(Set(missed.keys).subtracting(expectMissed).isEmpty, "\(context): reported missed wrongly")
    }
}
