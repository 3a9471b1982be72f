import Alarms
import FoundationEssentials
import Testing

/// Acceptance 6: next-fire times across DST, leap days and repeats, table-driven.
/// Expected instants are UTC, worked out from the published transition times:
/// Berlin 2025: +01 -> +02 on 30 Mar at 01:00Z, back on 26 Oct at 01:00Z;
/// New York 2025: -05 -> -04 on 9 Mar at 07:00Z, back on 2 Nov at 06:00Z.
struct NextFireTests {
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let zone: String
        let schedule: AlarmSchedule
        let after: String
        let expected: String?
        var description: String { name }
    }

    static func at(_ hour: Int, _ minute: Int, _ repeatDays: RepeatDays = .never) -> AlarmSchedule {
        .clockTime(time: LocalTime(hour: hour, minute: minute), repeatDays: repeatDays)
    }

    static let rows: [Row] = [
        Row(name: "Berlin 07:30 on spring-forward day is 07:30 CEST", zone: "Europe/Berlin",
            schedule: at(7, 30, .daily), after: "2025-03-29T07:00:00Z", expected: "2025-03-30T05:30:00Z"),
        Row(name: "Berlin 07:30 on fall-back day is 07:30 CET", zone: "Europe/Berlin",
            schedule: at(7, 30, .daily), after: "2025-10-25T06:00:00Z", expected: "2025-10-26T06:30:00Z"),
        Row(name: "Berlin 02:30 does not exist on spring-forward day: rings at 03:00 CEST", zone: "Europe/Berlin",
            schedule: at(2, 30, .daily), after: "2025-03-29T22:00:00Z", expected: "2025-03-30T01:00:00Z"),
        Row(name: "Berlin 02:30 the day after the gap is normal again", zone: "Europe/Berlin",
            schedule: at(2, 30, .daily), after: "2025-03-30T01:00:00Z", expected: "2025-03-31T00:30:00Z"),
        Row(name: "Berlin 02:30 repeated on fall-back day: first occurrence (CEST)", zone: "Europe/Berlin",
            schedule: at(2, 30, .daily), after: "2025-10-25T22:00:00Z", expected: "2025-10-26T00:30:00Z"),
        Row(name: "Berlin 02:30 after its first occurrence skips the repeat (rings once)", zone: "Europe/Berlin",
            schedule: at(2, 30, .daily), after: "2025-10-26T00:30:00Z", expected: "2025-10-27T01:30:00Z"),
        Row(name: "New York 02:30 does not exist on spring-forward day: rings at 03:00 EDT", zone: "America/New_York",
            schedule: at(2, 30, .daily), after: "2025-03-09T05:00:00Z", expected: "2025-03-09T07:00:00Z"),
        Row(name: "New York 07:00 on spring-forward day is 07:00 EDT", zone: "America/New_York",
            schedule: at(7, 0), after: "2025-03-08T13:00:00Z", expected: "2025-03-09T11:00:00Z"),
        Row(name: "New York 01:30 repeated on fall-back day: first occurrence (EDT)", zone: "America/New_York",
            schedule: at(1, 30, .daily), after: "2025-11-02T04:00:00Z", expected: "2025-11-02T05:30:00Z"),
        Row(name: "New York 01:30 after its first occurrence skips the repeat", zone: "America/New_York",
            schedule: at(1, 30, .daily), after: "2025-11-02T05:30:00Z", expected: "2025-11-03T06:30:00Z"),
        Row(name: "New York 07:00 on fall-back day is 07:00 EST", zone: "America/New_York",
            schedule: at(7, 0), after: "2025-11-01T12:00:00Z", expected: "2025-11-02T12:00:00Z"),
        Row(name: "daily alarm lands on leap day", zone: "Europe/Berlin",
            schedule: at(7, 0, .daily), after: "2028-02-28T07:00:00Z", expected: "2028-02-29T06:00:00Z"),
        Row(name: "one-shot on leap day", zone: "Europe/Berlin",
            schedule: .date(date: LocalDate(year: 2028, month: 2, day: 29), time: LocalTime(hour: 7, minute: 0)),
            after: "2028-01-01T00:00:00Z", expected: "2028-02-29T06:00:00Z"),
        Row(name: "one-shot in the past never fires", zone: "Europe/Berlin",
            schedule: .date(date: LocalDate(year: 2025, month: 1, day: 1), time: LocalTime(hour: 7, minute: 0)),
            after: "2025-06-01T00:00:00Z", expected: nil),
        Row(name: "weekdays alarm after Friday's skips to Monday", zone: "Europe/Berlin",
            schedule: at(7, 0, .weekdays), after: "2025-06-13T06:00:00Z", expected: "2025-06-16T05:00:00Z"),
        Row(name: "weekends alarm on Monday waits for Saturday", zone: "Europe/Berlin",
            schedule: at(7, 0, .weekends), after: "2025-06-16T06:00:00Z", expected: "2025-06-21T05:00:00Z"),
        Row(name: "mon,wed alarm after Monday's rings Wednesday", zone: "Europe/Berlin",
            schedule: at(7, 0, RepeatDays([.mon, .wed])), after: "2025-06-16T06:00:00Z", expected: "2025-06-18T05:00:00Z"),
        Row(name: "non-repeating clock time later today rings today", zone: "Europe/Berlin",
            schedule: at(23, 15), after: "2025-06-16T06:00:00Z", expected: "2025-06-16T21:15:00Z"),
        Row(name: "non-repeating clock time already passed rings tomorrow", zone: "Europe/Berlin",
            schedule: at(6, 0), after: "2025-06-16T06:00:00Z", expected: "2025-06-17T04:00:00Z"),
        Row(name: "relative alarm fires at its instant", zone: "UTC",
            schedule: .relative(firesAt: utc("2025-06-16T06:01:30Z")), after: "2025-06-16T06:00:00Z", expected: "2025-06-16T06:01:30Z"),
    ]

    @Test("next fire time", arguments: rows)
    func nextFireTime(row: Row) {
        let calculator = NextFireCalculator(zone: ZonedTime(timeZone: zone(row.zone)))
        #expect(calculator.nextFire(of: row.schedule, after: utc(row.after)) == row.expected.map(utc))
    }

    @Test func civilDateArithmeticRoundTripsAcrossCenturiesAndLeapDays() {
        #expect(LocalDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(LocalDate(year: 1970, month: 1, day: 1).weekday == .thu)
        #expect(LocalDate(year: 2028, month: 2, day: 29).weekday == .tue)
        #expect(!LocalDate(year: 2027, month: 2, day: 29).isValid)
        #expect(!LocalDate(year: 2100, month: 2, day: 29).isValid)
        #expect(LocalDate(year: 2000, month: 2, day: 29).isValid)
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }
}
