import Alarms
import FoundationEssentials
import InterludeCore
import Testing

/// Acceptance 8: restarts, damaged files, missed alarms.
struct PersistenceTests {
    @Test func alarmsSurviveARestart() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let daily = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .weekdays)) {
            $0.label = "work"
            $0.sound = .file(path: "/music/wake.mp3")
            $0.volume = 0.5
            $0.ringTimeoutSeconds = 120
            $0.snoozeMinutes = 4
        }
        let once = harness.scheduler.add(schedule: .date(date: LocalDate(year: 2025, month: 7, day: 1), time: LocalTime(hour: 9, minute: 15)))
        harness.scheduler.setEnabled(once.id, false)

        harness.restart(stateDirectory: directory)
        #expect(harness.scheduler.alarms == [daily, { var alarm = once; alarm.isEnabled = false; return alarm }()])
        let third = harness.scheduler.add(schedule: AlarmHarness.clockTime(8, 0))
        #expect(third.id.rawValue == 3, "ids are not reused after a restart")
        harness.clock.advance(by: .seconds(2 * 3600))
        #expect(harness.ringingBegan() == [[daily.id]])
    }

    @Test("a damaged alarm file is reported with its path, set aside and defaults used",
          arguments: ["{\"version\": 1, \"nextID\": 4, \"alarms\": [{\"id\": 1, \"sched", "not json at all", "", "{\"version\": 99, \"nextID\": 1, \"alarms\": []}"])
    func damagedAlarmFileIsReportedSetAsideAndDefaultsUsed(content: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/alarms.json"
        try StateFile(path: path).writeAtomically(Array(content.utf8))

        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()

        #expect(harness.scheduler.alarms.isEmpty)
        let problem = harness.events.compactMap { if case .storeProblem(let text) = $0 { text } else { nil } }.first
        #expect(problem?.contains(path) == true)
        let aside = directory + "/alarms.json.corrupt-20250616T030000Z"
        #expect(problem?.contains(aside) == true)
        #expect(try StateFile(path: aside).read() == Array(content.utf8), "kept, not deleted")
        #expect(try StateFile(path: path).read() != nil, "a fresh file replaces it")
    }

    @Test func alarmsDueWhileNotRunningAreReportedMissedNotRungLate() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let daily = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0, .daily)) { $0.label = "wake" }
        let once = harness.scheduler.add(schedule: .relative(firesAt: harness.inSeconds(600)))
        let later = harness.scheduler.add(schedule: AlarmHarness.clockTime(22, 0))

        // The program is not running for three days: no timer fires meanwhile.
        harness.clock.stepWallClock(by: .seconds(3 * 86_400))
        harness.restart(stateDirectory: directory)

        #expect(harness.ringingBegan().isEmpty)
        let reports: [[MissedAlarm]] = harness.events.compactMap { if case .missed(let alarms) = $0 { alarms } else { nil } }
        #expect(reports.count == 1)
        let missed = reports.first ?? []
        #expect(missed.map(\.id) == [daily.id, once.id, later.id])
        #expect(missed.first?.dueAt == utc("2025-06-18T05:00:00Z"), "the latest missed occurrence (the 19th at 07:00 is still ahead)")
        #expect(missed.first?.label == "wake")
        #expect(harness.scheduler.alarms.first { $0.id == once.id }?.isEnabled == false)
        #expect(harness.scheduler.nextFire(of: daily.id) == utc("2025-06-19T05:00:00Z"))
    }

    @Test func alarmDueMomentsBeforeStartRingsWithinTheGracePeriod() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T04:58:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let alarm = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        harness.clock.stepWallClock(by: .seconds(240))
        harness.restart(stateDirectory: directory)
        #expect(harness.ringingBegan() == [[alarm.id]])
    }
}
