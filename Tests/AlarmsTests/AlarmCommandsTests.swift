import Alarms
import FoundationEssentials
import InterludeCore
import Testing

/// The `interlude alarm` command line, run through its parsing and
/// validation functions directly, against a temporary state directory.
struct AlarmCommandsTests {
    /// Monday 2025-06-16 08:00 in Berlin.
    static let now = WallInstant(secondsSince1970: utc("2025-06-16T06:00:00Z"))

    private func commands(in directory: String, existing: Set<String> = ["/music/wake.mp3"]) -> AlarmCommands {
        AlarmCommands(store: AlarmStore(stateDirectory: directory + "/interlude"), now: Self.now,
                      timeZone: zone("Europe/Berlin"), fileExists: { existing.contains($0) })
    }

    static let badInputs: [(AlarmCommands.AddRequest, String)] = [
        (.init(when: ["25:00"]), "'25:00'"),
        (.init(when: ["07:61"]), "'07:61'"),
        (.init(when: ["7.30"]), "'7.30'"),
        (.init(when: ["in", "-5s"]), "'-5s'"),
        (.init(when: ["in", "0s"]), "'0s'"),
        (.init(when: ["in", "5x"]), "'5x'"),
        (.init(when: ["in"]), "duration"),
        (.init(when: []), "missing time"),
        (.init(when: ["2027-02-29T07:00"]), "'2027-02-29'"),
        (.init(when: ["2025-06-01T07:00"]), "in the past"),
        (.init(when: ["07:00"], repeatDays: "mon,funday"), "'funday'"),
        (.init(when: ["in", "5m"], repeatDays: "daily"), "--repeat"),
        (.init(when: ["07:00"], sound: "/music/missing.mp3"), "/music/missing.mp3"),
        (.init(when: ["07:00"], snoozeMinutes: "0"), "'0'"),
        (.init(when: ["07:00"], ringSeconds: "forever"), "'forever'"),
    ]

    @Test("bad alarm input is rejected with a line naming the value and nothing is saved", arguments: badInputs)
    func badInputIsRejectedAndNothingSaved(request: AlarmCommands.AddRequest, named: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands = commands(in: directory)
        #expect {
            _ = try commands.add(request)
        } throws: { error in
            guard let error = error as? AlarmCommandError else { return false }
            return error.message.contains(named) && !error.message.contains("\n")
        }
        #expect(try StateFile(path: directory + "/interlude/alarms.json").read() == nil)
    }

    @Test func unknownIDIsRejectedForRemoveEnableAndDisableWithoutTouchingTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands = commands(in: directory)
        _ = try commands.add(.init(when: ["07:00"]))
        let before = try StateFile(path: directory + "/interlude/alarms.json").read()
        #expect(throws: AlarmCommandError("alarm rm: no alarm with id 7")) { try commands.remove("7") }
        #expect(throws: AlarmCommandError("alarm enable: no alarm with id 7")) { try commands.setEnabled("7", true) }
        #expect(throws: AlarmCommandError("alarm disable: invalid alarm id 'x' (see 'interlude alarm list')")) { try commands.setEnabled("x", false) }
        #expect(try StateFile(path: directory + "/interlude/alarms.json").read() == before)
    }

    @Test("good alarm input is saved and reports the next ring time", arguments: [
        (AlarmCommands.AddRequest(when: ["07:30"]), "alarm 1 added, next at 2025-06-17 07:30 Tue\n"),
        (AlarmCommands.AddRequest(when: ["9:05"], label: "standup", repeatDays: "weekdays"), "alarm 1 added, next at 2025-06-16 09:05 Mon\n"),
        (AlarmCommands.AddRequest(when: ["07:00"], repeatDays: "sat,sun", sound: "/music/wake.mp3", snoozeMinutes: "5", ringSeconds: "120"),
         "alarm 1 added, next at 2025-06-21 07:00 Sat\n"),
        (AlarmCommands.AddRequest(when: ["in", "90s"]), "alarm 1 added, next at 2025-06-16 08:01 Mon\n"),
        (AlarmCommands.AddRequest(when: ["in", "1h30m"]), "alarm 1 added, next at 2025-06-16 09:30 Mon\n"),
        (AlarmCommands.AddRequest(when: ["in5m"]), "alarm 1 added, next at 2025-06-16 08:05 Mon\n"),
        (AlarmCommands.AddRequest(when: ["2028-02-29T06:45"], sound: "chime"), "alarm 1 added, next at 2028-02-29 06:45 Tue\n"),
    ])
    func goodInputIsSaved(request: AlarmCommands.AddRequest, expected: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands = commands(in: directory)
        #expect(try commands.add(request).standardOutput == expected)
        let saved = AlarmStore(stateDirectory: directory + "/interlude").load(now: Self.now)
        #expect(saved.problem == nil)
        #expect(saved.contents.alarms.count == 1)
        if let sound = request.sound {
            #expect(saved.contents.alarms.first?.sound.description == sound)
        }
    }

    @Test func listShowsTableAndJSONAndFollowsEnableDisableRemove() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands = commands(in: directory)
        _ = try commands.add(.init(when: ["07:30"], label: "wake", repeatDays: "weekdays"))
        _ = try commands.add(.init(when: ["2025-07-01T09:15"]))
        #expect(try commands.setEnabled("2", false).standardOutput == "alarm 2 disabled\n")

        #expect(try commands.list(json: false).standardOutput == """
            ID  TIME              REPEAT    LABEL  ENABLED  NEXT
            1   07:30             weekdays  wake   yes      2025-06-17 07:30 Tue
            2   2025-07-01T09:15  once             no       -

            """)
        let json = try commands.list(json: true).standardOutput
        #expect(json.contains("\"nextFire\" : \"2025-06-17T07:30:00+02:00\""))
        #expect(json.contains("\"repeat\" : \"weekdays\""))

        _ = try commands.remove("1")
        #expect(try commands.setEnabled("2", true).standardOutput == "alarm 2 enabled, next at 2025-07-01 09:15 Tue\n")
        #expect(try commands.list(json: false).standardOutput.contains("\n2 ") == true)
        #expect(try commands.list(json: false).standardOutput.contains("\n1 ") == false)
    }

    @Test func damagedFileIsReportedAsWarningSetAsideAndTheCommandStillWorks() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try StateFile(path: directory + "/interlude/alarms.json").writeAtomically(Array("{\"version\":1,".utf8))
        let output = try commands(in: directory).add(.init(when: ["07:30"]))
        #expect(output.warnings.count == 1)
        #expect(output.warnings.first?.contains(directory + "/interlude/alarms.json") == true)
        #expect(try StateFile(path: directory + "/interlude/alarms.json.corrupt-20250616T060000Z").read() != nil)
    }
}

/// What the user types, read as they mean it: a delay quoted as one argument is the same delay.
struct AlarmWhenWordsTests {
    @Test("'in 20s' as one argument is 'in' '20s'; '07:30' with spaces around is 07:30")
    func aDelayQuotedAsOneArgumentReadsAsTwoWords() throws {
        let now = WallInstant(secondsSince1970: 1_796_000_000)
        let zone = ZonedTime(timeZone: .utc)
        #expect(try AlarmInputParser.parseWhen(["in 20s"], now: now, zone: zone) == .relative(firesAt: 1_796_000_020))
        #expect(try AlarmInputParser.parseWhen(["in 1h 30m"], now: now, zone: zone) == .relative(firesAt: 1_796_005_400))
        #expect(try AlarmInputParser.parseWhen(["in", "20s"], now: now, zone: zone) == .relative(firesAt: 1_796_000_020))
        #expect(try AlarmInputParser.parseWhen([" 07:30 "], now: now, zone: zone)
                == .clockTime(time: LocalTime(hour: 7, minute: 30), repeatDays: .never))
    }
}
