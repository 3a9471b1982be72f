import Alarms
import Dispatch
import FoundationEssentials
import InterludeCore
import Testing

/// The alarm file has two writers (a running player and
/// `interlude alarm`, or two players); neither loses the other's changes.
struct SharedAlarmFileTests {
    static let now = WallInstant(secondsSince1970: utc("2025-06-16T03:00:00Z"))

    static func alarm(_ id: Int, _ hour: Int, label: String = "", enabled: Bool = true) -> Alarm {
        Alarm(id: AlarmID(rawValue: id), schedule: AlarmHarness.clockTime(hour, 0), label: label, isEnabled: enabled,
              handledThrough: now.secondsSince1970)
    }

    @Test("the merge keeps an alarm added elsewhere, keeps one removed elsewhere removed, and takes each side's changed fields")
    func mergeRules() {
        let base = AlarmStore.Contents(alarms: [Self.alarm(1, 7), Self.alarm(2, 8), Self.alarm(3, 9)], nextID: 4)
        // Here: alarm 1 disabled, alarm 3 removed, alarm 4 added.
        var mine = base
        mine.alarms[0].isEnabled = false
        mine.alarms.remove(at: 2)
        mine.alarms.append(Self.alarm(4, 10, label: "mine"))
        mine.nextID = 5
        // Elsewhere: alarm 1 relabelled, alarm 2 removed, its own alarm 4 added.
        var theirs = base
        theirs.alarms[0].label = "theirs"
        theirs.alarms.remove(at: 1)
        theirs.alarms.append(Self.alarm(4, 11, label: "theirs"))
        theirs.nextID = 5

        let (merged, renumbered) = mine.merged(since: base, over: theirs)
        var expectedFirst = Self.alarm(1, 7, label: "theirs")
        expectedFirst.isEnabled = false
        #expect(merged.alarms.first { $0.id.rawValue == 1 } == expectedFirst, "each side's field kept")
        #expect(!merged.alarms.contains { $0.id.rawValue == 2 }, "removed elsewhere stays removed")
        #expect(!merged.alarms.contains { $0.id.rawValue == 3 }, "removed here stays removed")
        #expect(merged.alarms.first { $0.id.rawValue == 4 }?.label == "theirs", "the file's alarm keeps its id")
        #expect(renumbered == [AlarmID(rawValue: 4): AlarmID(rawValue: 5)])
        #expect(merged.alarms.first { $0.id.rawValue == 5 }?.label == "mine", "this writer's is numbered anew, not lost")
        #expect(merged.nextID == 6)
    }

    @Test("one field changed on both sides: the last writer's value")
    func sameFieldLastWriterWins() {
        let base = AlarmStore.Contents(alarms: [Self.alarm(1, 7)], nextID: 2)
        var mine = base
        mine.alarms[0].label = "mine"
        var theirs = base
        theirs.alarms[0].label = "theirs"
        theirs.alarms[0].snoozeMinutes = 5
        let merged = mine.merged(since: base, over: theirs).contents
        #expect(merged.alarms[0].label == "mine" && merged.alarms[0].snoozeMinutes == 5)
    }

    @Test("an alarm added to the file while the scheduler runs rings, and survives the scheduler's next save")
    func alarmAddedElsewhereSurvivesTheSchedulersSave() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let first = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        // `interlude alarm add 04:00` in another process.
        let store = AlarmStore(stateDirectory: directory)
        let commands = AlarmCommands(store: store, now: harness.clock.wallNow, timeZone: harness.timeZone, fileExists: { _ in true })
        let added = try commands.add(.init(when: ["04:00"]))
        #expect(added.standardOutput.hasPrefix("alarm 2 added"))
        // The player toggles its own alarm before it has seen the file change: its save keeps alarm 2.
        harness.scheduler.setEnabled(first.id, false)
        let onDisk = store.load(now: harness.clock.wallNow).contents.alarms
        #expect(onDisk.map(\.id.rawValue).sorted() == [1, 2], "\(onDisk)")
        #expect(onDisk.first { $0.id == first.id }?.isEnabled == false)
        #expect(harness.scheduler.alarms.map(\.id.rawValue).sorted() == [1, 2], "the scheduler took the new alarm in")
        #expect(harness.scheduler.nextFire(of: AlarmID(rawValue: 2)) != nil, "planned to ring")
    }

    @Test("the scheduler takes in a file changed elsewhere: an alarm removed there is gone, one added there rings")
    func fileDidChangeTakesOthersChanges() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()
        let kept = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        let removed = harness.scheduler.add(schedule: AlarmHarness.clockTime(8, 0))
        let commands = AlarmCommands(store: AlarmStore(stateDirectory: directory), now: harness.clock.wallNow,
                                     timeZone: harness.timeZone, fileExists: { _ in true })
        _ = try commands.remove(String(removed.id.rawValue))
        _ = try commands.add(.init(when: ["in", "10s"]))
        #expect(harness.scheduler.alarms.count == 2, "nothing is read before the change is announced")
        harness.scheduler.fileDidChange()
        #expect(harness.scheduler.alarms.map(\.id.rawValue) == [kept.id.rawValue, 3])
        harness.clock.advance(by: .seconds(11))
        #expect(harness.ringingBegan() == [[AlarmID(rawValue: 3)]])
        // The scheduler's own save is no change to take in.
        let before = harness.events.count
        harness.scheduler.fileDidChange()
        #expect(harness.events.count == before)
    }

    @Test("alarm commands from two threads at once: every alarm added is in the file, each under its own id")
    func concurrentCommandsLoseNothing() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let perWriter = 40
        let zone = zone("UTC")
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let commands = AlarmCommands(store: AlarmStore(stateDirectory: directory), now: Self.now, timeZone: zone,
                                         fileExists: { _ in true })
            for _ in 0..<perWriter { _ = try? commands.add(.init(when: ["07:30"])) }
        }
        let alarms = AlarmStore(stateDirectory: directory).load(now: Self.now).contents.alarms
        #expect(alarms.count == 2 * perWriter)
        #expect(Set(alarms.map(\.id)).count == alarms.count)
    }
}

/// An alarm file that parses but holds what no program
/// writes is damaged: set aside once, named in one line, no alarms used.
struct ImpossibleAlarmValueTests {
    static func file(_ alarms: String, nextID: Int = 3) -> String {
        "{\"version\": 1, \"nextID\": \(nextID), \"alarms\": [\(alarms)]}"
    }

    static func alarm(id: Int = 1, hour: Int = 7, days: String = "[\"mon\"]", volume: String = "1", snooze: Int = 9) -> String {
        "{\"id\": \(id), \"label\": \"\", \"schedule\": {\"clockTime\": {\"time\": {\"hour\": \(hour), \"minute\": 0}, "
            + "\"repeatDays\": \(days)}}, \"sound\": {\"tone\": {\"name\": \"classic\"}}, \"isEnabled\": true, "
            + "\"volume\": \(volume), \"ringTimeoutSeconds\": 60, \"snoozeMinutes\": \(snooze), \"handledThrough\": 1750053600}"
    }

    @Test("impossible alarm values are damage", arguments: [
        file(alarm(hour: 25)),
        file(alarm(days: "[\"mon\", \"mon\"]")),
        file(alarm(days: "[\"someday\"]")),
        file(alarm(snooze: 525_600)),
        file(alarm(volume: "2.5")),
        file(alarm(volume: "-1")),
        file(alarm(id: 1) + ", " + alarm(id: 1, hour: 8)),
        file(alarm(id: 0)),
        file(alarm(), nextID: -4),
    ])
    func impossibleValuesAreSetAsideOnce(content: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StateFile(path: directory + "/alarms.json").writeAtomically(Array(content.utf8))
        let harness = AlarmHarness(startUTC: "2025-06-16T03:00:00Z", stateDirectory: directory)
        harness.scheduler.start()
        #expect(harness.scheduler.alarms.isEmpty)
        let problems = harness.events.compactMap { if case .storeProblem(let text) = $0 { text } else { nil } }
        #expect(problems.count == 1 && problems.allSatisfy { !$0.contains("\n") }, "\(problems)")
        // Saves after it (an alarm added, toggled) set nothing aside again.
        let added = harness.scheduler.add(schedule: AlarmHarness.clockTime(7, 0))
        harness.scheduler.setEnabled(added.id, false)
        harness.scheduler.fileDidChange()
        harness.restart(stateDirectory: directory)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1, "\(aside)")
        #expect(harness.scheduler.alarms.map(\.id) == [added.id])
    }
}
