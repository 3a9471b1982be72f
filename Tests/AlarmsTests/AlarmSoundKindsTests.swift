import Alarms
import FoundationEssentials
import InterludeCore
import Testing

/// What `--sound` and `--ramp` take, and how
/// `alarms.json` keeps each kind of sound and the ramp.
struct AlarmSoundKindsTests {
    static let now = WallInstant(secondsSince1970: utc("2025-06-16T06:00:00Z"))

    @Test func eachKindOfSoundIsReadFromWhatWasTyped() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exists: (String) -> Bool = { $0 == "/music/wake.mp3" || $0 == "/music/morning.m3u8" || $0 == "/books/one.m4b" }
        func parse(_ text: String) throws -> AlarmSound { try AlarmInputParser.parseSound(text, fileExists: exists) }
        #expect(try parse("beep") == .tone(name: "beep"))
        #expect(try parse("/music/wake.mp3") == .file(path: "/music/wake.mp3"))
        #expect(try parse(directory) == .folder(path: directory))
        #expect(try parse("/music/morning.m3u8") == .playlist(path: "/music/morning.m3u8"))
        #expect(try parse("playlist:morning") == .playlist(path: "morning"))
        #expect(try parse("book:" + directory) == .book(path: directory))
        #expect(try parse("book:/books/one.m4b") == .book(path: "/books/one.m4b"))
        #expect(try parse("https://radio.example/live.mp3") == .station(url: "https://radio.example/live.mp3"))
        #expect(try parse("HTTP://radio.example/live") == .station(url: "HTTP://radio.example/live"))
    }

    @Test("a sound that names nothing is refused in one line naming it", arguments: [
        ("/music/gone.mp3", "sound file not found: /music/gone.mp3"),
        ("book:/books/gone", "book not found: /books/gone"),
        ("book:", "book not found: (no path after book:)"),
        ("playlist:", "--sound playlist: needs a playlist's name"),
        ("http://radio.example/a b", "is no station URL"),
        ("/music/\u{1B}[2J.mp3", "control character (U+1B)"),
    ])
    func aSoundThatNamesNothingIsRefused(text: String, named: String) {
        #expect {
            _ = try AlarmInputParser.parseSound(text, fileExists: { _ in false })
        } throws: { error in
            guard let error = error as? AlarmCommandError else { return false }
            return error.message.hasPrefix("alarm add: ") && error.message.contains(named) && !error.message.contains("\n")
        }
    }

    @Test("--ramp takes 1 s to 10 min and refuses the rest", arguments: [
        ("60s", 60), ("1", 1), ("2m", 120), ("10m", 600), ("1.4s", 1),
    ])
    func rampInRange(text: String, seconds: Int) throws {
        #expect(try AlarmInputParser.parseRamp(text) == seconds)
    }

    @Test(arguments: ["0", "0.5s", "11m", "-5s", "1e308h", "nan", "soon", ""])
    func rampOutOfRangeIsRefusedNamingTheValue(text: String) {
        #expect(throws: AlarmCommandError("alarm add: invalid --ramp '\(text)': \(Alarm.rampRange.accepts)")) {
            _ = try AlarmInputParser.parseRamp(text)
        }
    }

    @Test func everyKindOfSoundAndTheRampSurviveTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sounds: [AlarmSound] = [.tone(name: "chime"), .file(path: "/music/wake.mp3"), .folder(path: "/music/morning"),
                                    .playlist(path: "morning"), .book(path: "/books/Moby Dick"),
                                    .station(url: "http://127.0.0.1:8000/radio.mp3")]
        let store = AlarmStore(stateDirectory: directory + "/interlude")
        let update = try store.update(now: Self.now) { (contents: inout AlarmStore.Contents) throws(AlarmCommandError) in
            for (index, sound) in sounds.enumerated() {
                var alarm = Alarm(id: contents.allocateID(), schedule: .clockTime(time: LocalTime(hour: 7, minute: index), repeatDays: .never),
                                  handledThrough: Self.now.secondsSince1970)
                alarm.sound = sound
                alarm.rampSeconds = index * 60
                contents.alarms.append(alarm)
            }
        }
        #expect(update.failure == nil && update.problem == nil)
        let loaded = store.load(now: Self.now)
        #expect(loaded.problem == nil)
        #expect(loaded.contents.alarms.map(\.sound) == sounds)
        #expect(loaded.contents.alarms.map(\.rampSeconds) == [0, 60, 120, 180, 240, 300])
        // No ramp is no key: a file of an earlier program reads the same.
        let text = String(decoding: try #require(try StateFile(path: directory + "/interlude/alarms.json").read()), as: UTF8.self)
        #expect(text.components(separatedBy: "rampSeconds").count == 6, "\(text)")
        #expect(text.contains("\"station\"") && text.contains("\"book\"") && text.contains("\"folder\"") && text.contains("\"playlist\""))
    }

    @Test func aRampOutsideItsRangeInTheFileIsDamage() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/interlude/alarms.json"
        try FileManager.default.createDirectory(atPath: directory + "/interlude", withIntermediateDirectories: true)
        let file = """
        {"version": 1, "nextID": 2, "alarms": [{"id": 1, "label": "", "schedule": {"relative": {"firesAt": 1750060000}},
         "sound": {"station": {"url": "http://127.0.0.1/x"}}, "isEnabled": true, "volume": 1, "ringTimeoutSeconds": 60,
         "snoozeMinutes": 9, "handledThrough": 1750053600, "rampSeconds": 601}]}
        """
        try StateFile(path: path).writeAtomically(Array(file.utf8))
        let loaded = AlarmStore(stateDirectory: directory + "/interlude").load(now: Self.now)
        let problem = try #require(loaded.problem)
        #expect(problem.contains(path) && problem.contains("rampSeconds"), "\(problem)")
        #expect(loaded.contents.alarms.isEmpty)
    }

    @Test func addSavesTheRampAndListSaysIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands = AlarmCommands(store: AlarmStore(stateDirectory: directory + "/interlude"), now: Self.now,
                                     timeZone: zone("Europe/Berlin"), fileExists: { _ in false })
        _ = try commands.add(.init(when: ["07:30"], sound: "https://radio.example/live", ramp: "90s"))
        let listed = try commands.list(json: true).standardOutput
        #expect(listed.contains("\"rampSeconds\" : 90") && listed.contains("\"sound\" : \"https://radio.example/live\""), "\(listed)")
        #expect(throws: AlarmCommandError("alarm add: invalid --ramp '0s': \(Alarm.rampRange.accepts)")) {
            _ = try commands.add(.init(when: ["07:30"], ramp: "0s"))
        }
    }
}
