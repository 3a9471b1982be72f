import Alarms
import FoundationEssentials
import InterludeCore
import Testing

/// The next alarm announced on the status line, and
/// `alarm skip` passing over one occurrence of a repeating alarm only.
struct NextAlarmAndSkipTests {
    static let berlin = AlarmTimeFormat(zone: ZonedTime(timeZone: zone("Europe/Berlin")))

    // 2025-06-16 is a Monday; Berlin is UTC+2 in June.
    @Test("the next alarm's line: today, tomorrow, a weekday within the week, else the date", arguments: [
        ("2025-06-16T04:59:15Z", "2025-06-16T05:00:00Z", "next alarm today 07:00 (in 45 s)"),
        ("2025-06-16T21:48:00Z", "2025-06-17T05:00:00Z", "next alarm tomorrow 07:00 (in 7 h 12 min)"),
        ("2025-06-16T21:48:00Z", "2025-06-18T05:00:00Z", "next alarm Wed 07:00 (in 1 d 7 h)"),
        ("2025-06-16T05:00:00Z", "2025-06-22T18:30:00Z", "next alarm Sun 20:30 (in 6 d 13 h)"),
        ("2025-06-16T05:00:00Z", "2025-06-23T05:00:00Z", "next alarm 2025-06-23 07:00 (in 7 d)"),
    ])
    func nextAlarmLine(now: String, fire: String, line: String) {
        #expect(Self.berlin.nextAlarm(utc(fire), now: utc(now)) == line)
    }

    @Test("the scheduler's next alarm is the soonest enabled one, and moves on as the clock does")
    func schedulerNextAlarm() {
        let harness = AlarmHarness(startUTC: "2025-06-16T04:00:00Z")  // 06:00 Monday
        harness.scheduler.start()
        #expect(harness.scheduler.nextAlarm == nil)
        let later = harness.scheduler.add(schedule: AlarmHarness.clockTime(9, 0))
        let sooner = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .weekdays))
        #expect(harness.scheduler.nextAlarm == utc("2025-06-16T05:00:00Z"))
        harness.scheduler.setEnabled(sooner.id, false)
        #expect(harness.scheduler.nextAlarm == utc("2025-06-16T07:00:00Z"))
        harness.scheduler.setEnabled(later.id, false)
        #expect(harness.scheduler.nextAlarm == nil)
        harness.scheduler.setEnabled(sooner.id, true)
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.ringingBegan() == [[sooner.id]])
        #expect(harness.scheduler.nextAlarm == utc("2025-06-17T05:00:00Z"), "while it rings, the next is tomorrow's")
    }

    @Test("a weekday alarm skipped on Monday does not ring Monday and rings Tuesday; the file keeps the skip")
    func schedulerSkipsOneOccurrence() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T04:00:00Z", stateDirectory: directory)  // 06:00 Monday
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .weekdays))
        let once = harness.scheduler.add(schedule: AlarmHarness.clockTime(8, 0))
        #expect(harness.scheduler.skipNext(once.id) == nil, "one that rings once has no next to skip to")
        #expect(harness.scheduler.skipNext(AlarmID(rawValue: 99)) == nil)
        harness.scheduler.remove(once.id)

        #expect(harness.scheduler.skipNext(alarm.id) == utc("2025-06-16T05:00:00Z"))
        #expect(harness.scheduler.nextFire(of: alarm.id) == utc("2025-06-17T05:00:00Z"))
        let saved = AlarmStore(stateDirectory: directory).load(now: harness.clock.wallNow).contents.alarms
        #expect(saved.first?.skips == utc("2025-06-16T05:00:00Z"), "persisted in alarms.json")

        harness.clock.advance(by: .seconds(3600 + 60))  // Monday 07:01
        #expect(harness.ringingBegan().isEmpty, "Monday's is skipped")
        harness.clock.advance(by: .seconds(86_400 - 120))  // Tuesday 06:59
        #expect(harness.ringingBegan().isEmpty)
        harness.clock.advance(by: .seconds(60))
        #expect(harness.ringingBegan() == [[alarm.id]], "Tuesday's rings")
        #expect(harness.scheduler.alarms.first?.skips == nil, "once past, the skip is done")
    }

    private func commands(in directory: String, at now: String) -> AlarmCommands {
        AlarmCommands(store: AlarmStore(stateDirectory: directory + "/interlude"),
                      now: WallInstant(secondsSince1970: utc(now)), timeZone: zone("Europe/Berlin"),
                      fileExists: { _ in false })
    }

    @Test("alarm skip: list says what it skips, the running scheduler takes it from the file, once only")
    func skipCommand() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let monday = commands(in: directory, at: "2025-06-16T04:00:00Z")
        _ = try monday.add(.init(when: ["07:00"], label: "work", repeatDays: "weekdays"))
        _ = try monday.add(.init(when: ["in", "5m"]))
        let skipped = try monday.skip("1")
        #expect(skipped.standardOutput == "alarm 1 skips Mon 07:00, next at 2025-06-17 07:00 Tue\n")
        let list = try monday.list(json: false).standardOutput
        #expect(list.contains("2025-06-17 07:00 Tue (skips Mon 07:00)"), "\(list)")
        let json = try monday.list(json: true).standardOutput
        #expect(json.contains("\"skips\" : \"2025-06-16T07:00:00+02:00\"") || json.contains("\"skips\": \"2025-06-16T07:00:00+02:00\""), "\(json)")
        #expect(throws: AlarmCommandError.self) { try monday.skip("2") }
        #expect(throws: AlarmCommandError.self) { try monday.skip("7") }
        #expect(throws: AlarmCommandError.self) { try monday.skip("x") }

        // A player started later on Monday reads the skip: nothing at 07:00, Tuesday rings.
        let harness = AlarmHarness(startUTC: "2025-06-16T04:30:00Z", stateDirectory: directory + "/interlude")
        harness.scheduler.start()
        harness.clock.advance(by: .seconds(3600))
        #expect(harness.ringingBegan().isEmpty)
        let tuesday = commands(in: directory, at: "2025-06-16T06:00:00Z")
        #expect(!(try tuesday.list(json: false).standardOutput.contains("skips")), "past: no longer said")
        harness.clock.advance(by: .seconds(86_400))
        #expect(harness.ringingBegan().first == [AlarmID(rawValue: 1)])
    }
}
