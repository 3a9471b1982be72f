import LoopIO
import Core
import Alarms
import Books
import Foundation
@testable import Interlude
import InterludeCore
import PlayerModel
import TestSupport
import Testing
@testable import TUI

/// The parsers behind the screen's prompts, standard input's commands, the
/// keys file, the alarms file and a book's state file, fed the same hostile
/// numbers as the command line (`NumberOptionTests`): each answers with a
/// value in range or one line saying what it accepts, and nothing traps.
@Suite struct NumberInputTests {
    static let seed: UInt64 = 0x1_5EED_0016
    static var values: [String] { Array(HostileNumbers(seed: seed, randomCount: 200)) }

    @Test("the alarm-seconds prompt adds an alarm in range or says what it accepts")
    func alarmSecondsPrompt() {
        for value in Self.values {
            var ui = InterfaceState(browser: nil)
            let actions = ui.submit(.alarmSeconds, value)
            if case .player(.addAlarm(let seconds))? = actions.first {
                #expect((1...604_800).contains(seconds), "'\(value)'")
            } else if !value.isEmpty {
                #expect(ui.message?.isError == true && ui.message?.text.contains("from 1 to 604800") == true, "'\(value)'")
                #expect(ui.message?.text.contains("\n") == false, "'\(value)'")
            }
        }
    }

    @Test("typed alarm times, seeks, volumes and notes reach the player as a result or a one-line refusal")
    func playerCommandsFromTypedText() throws {
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        let file = try Fixtures.mp3(.sweep, seconds: 1)
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: [file], events: stream,
                                                      signals: SignalChannel([])))
        let added = runtime.perform(.addAlarmSchedule("07:30"))
        #expect(added != .refused(reason: .problem("")))
        // Numbers reach the player through the command table's rows, as the
        // socket's args or as typed at a prompt; its ranges refuse the rest.
        let seek = try #require(CommandTable.entry(named: "seek"))
        let volume = try #require(CommandTable.entry(named: "volume"))
        let alarmIn = try #require(CommandTable.entry(named: "alarm-in"))
        for value in Self.values {
            let number = Double(value) ?? .nan
            var commands: [PlayerCommand] = [
                .addAlarmSchedule(value), .addAlarmSchedule("in " + value), .addAlarmSchedule("in" + value),
                .editAlarm(id: 1, schedule: value),
            ]
            for entry in [seek, volume, alarmIn] {
                for action in [try? entry.action([.double(number)]), try? entry.action(typed: value)] {
                    if case .perform(let command)? = action { commands.append(command) }
                }
            }
            for command in commands {
                if case .refused(let reason) = runtime.perform(command) {
                    #expect(!reason.sentence().contains("\n") && !reason.sentence().isEmpty, "\(command)")
                }
            }
        }
        #expect(throws: RemoteArgumentError.self) { try seek.action([.double(.infinity)]) }
        #expect(throws: RemoteArgumentError.self) { try volume.action([.double(.nan)]) }
        #expect(throws: RemoteArgumentError.self) { try alarmIn.action([.integer(Int64.max)]) }
        #expect(throws: RemoteArgumentError("bookmark-add: the note is 1001 characters long; at most 1000")) {
            try CommandTable.entry(named: "bookmark-add")?.action([.string(String(repeating: "n", count: 1001))])
        }
        #expect(try seek.action([.double(-30)]) == .perform(.seek(seconds: -30)))
    }

    @Test("alarm inputs: durations, times, snooze, ring and ids in range or one line naming the value")
    func alarmInputs() {
        let zone = ZonedTime(timeZone: .utc)
        let now = WallInstant(secondsSince1970: 1_750_000_000)
        func oneLine(_ body: () throws -> Void) {
            do { try body() } catch let error as AlarmCommandError {
                #expect(!error.message.contains("\n") && error.isBadInput, "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
        for value in Self.values {
            oneLine { _ = try AlarmInputParser.parseWhen(["in", value], now: now, zone: zone) }
            oneLine { _ = try AlarmInputParser.parseWhen([value], now: now, zone: zone) }
            oneLine { _ = try AlarmInputParser.parseWhen(["2030-01-01T" + value], now: now, zone: zone) }
            oneLine {
                let minutes = try AlarmInputParser.parseSnoozeMinutes(value)
                #expect((1...60).contains(minutes))
            }
            oneLine {
                let seconds = try AlarmInputParser.parseRingSeconds(value)
                #expect((1...3600).contains(seconds))
            }
            oneLine { _ = try AlarmInputParser.parseID(value, command: "rm") }
        }
        #expect(throws: AlarmCommandError("alarm add: --label: the label is 100000 characters long; at most 200")) {
            try AlarmInputParser.parseLabel(String(repeating: "x", count: 100_000))
        }
    }

    @Test("a keys file line with a number for a key is one problem on its line; the rest still applies")
    func keysFile() {
        for value in Self.values {
            let load = KeyConfigParser.apply("bind \(value) toggle-play\nunbind \(value)\nbind q quit\n", path: "keys")
            #expect(load.problems.allSatisfy { !$0.description.contains("\n") }, "'\(value)'")
            #expect(load.bindings.action(for: Key.character("q")) == .quit)
        }
    }

    @Test("an alarms file with any number in any field loads, or is set aside with one line naming the field")
    func alarmsFile() throws {
        let fields = ["id", "hour", "minute", "ringTimeoutSeconds", "snoozeMinutes", "handledThrough", "snoozedUntil",
                      "volume", "nextID", "year", "month", "day", "firesAt"]
        let directory = ScratchFiles.makeDirectory("alarm-numbers")
        let store = AlarmStore(stateDirectory: directory)
        let calculator = NextFireCalculator(zone: ZonedTime(timeZone: .utc))
        let now = WallInstant(secondsSince1970: 1_750_000_000)
        for value in Self.values where Double(value) != nil || Int64(value) != nil {
            for field in fields {
                func number(_ name: String, _ normal: String) -> String { name == field ? value : normal }
                let text = """
                {"version": 1, "nextID": \(number("nextID", "3")), "alarms": [
                 {"id": \(number("id", "1")), "label": "a", "isEnabled": true, "volume": \(number("volume", "1")),
                  "schedule": {"clockTime": {"time": {"hour": \(number("hour", "7")), "minute": \(number("minute", "30"))},
                               "repeatDays": ["mon"]}},
                  "sound": {"tone": {"name": "classic"}}, "ringTimeoutSeconds": \(number("ringTimeoutSeconds", "60")),
                  "snoozeMinutes": \(number("snoozeMinutes", "9")), "handledThrough": \(number("handledThrough", "1750000000")),
                  "snoozedUntil": \(number("snoozedUntil", "1750000100"))},
                 {"id": 2, "label": "b", "isEnabled": true, "volume": 1, "ringTimeoutSeconds": 60, "snoozeMinutes": 9,
                  "handledThrough": 1750000000, "sound": {"tone": {"name": "classic"}},
                  "schedule": {"date": {"date": {"year": \(number("year", "2030")), "month": \(number("month", "1")),
                                                  "day": \(number("day", "2"))}, "time": {"hour": 7, "minute": 0}}}},
                 {"id": 3, "label": "c", "isEnabled": true, "volume": 1, "ringTimeoutSeconds": 60, "snoozeMinutes": 9,
                  "handledThrough": 1750000000, "sound": {"tone": {"name": "classic"}},
                  "schedule": {"relative": {"firesAt": \(number("firesAt", "1750000500"))}}}]}
                """
                try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/alarms.json"))
                let loaded = store.load(now: now)
                if let problem = loaded.problem {
                    #expect(!problem.contains("\n"), "\(field) \(value): \(problem)")
                    #expect(problem.contains(field) || problem.contains("line "), "\(field) \(value): \(problem)")
                }
                for alarm in loaded.contents.alarms {
                    _ = calculator.nextFire(of: alarm.schedule, after: alarm.handledThrough)
                    _ = calculator.lastFire(of: alarm.schedule, after: alarm.handledThrough, through: now.secondsSince1970)
                }
            }
        }
    }

    @Test("a book state file with any number in any field decodes, or is refused with one line")
    func bookStateFile() throws {
        let fields = ["milliseconds", "offsetMilliseconds", "speed", "updated", "nextBookmark", "durationMilliseconds",
                      "id", "at", "created"]
        for value in Self.values where Double(value) != nil || Int64(value) != nil {
            for field in fields {
                func number(_ name: String, _ normal: String) -> String { name == field ? value : normal }
                let text = """
                {"version": 1, "path": "/b", "speed": \(number("speed", "1.25")), "updated": \(number("updated", "1764460800123")),
                 "position": {"milliseconds": \(number("milliseconds", "812345")), "file": "03.mp3",
                              "offsetMilliseconds": \(number("offsetMilliseconds", "12345"))},
                 "durationMilliseconds": \(number("durationMilliseconds", "3723000")), "nextBookmark": \(number("nextBookmark", "3")),
                 "bookmarks": [{"id": \(number("id", "1")), "milliseconds": \(number("at", "5000")), "note": "map",
                                "created": \(number("created", "1764460000000"))}]}
                """
                guard let json = try? JSONParser.parse(text) else { continue }
                do throws(BookStateFormat.DecodeError) {
                    var state = try BookStateFormat.decode(json)
                    // What the player does with a loaded state: its arithmetic must not trap either.
                    state.addBookmark(at: state.positionMilliseconds, note: nil, now: WallInstant(secondsSince1970: 0))
                    _ = BookStateFormat.encode(state)
                } catch {
                    #expect(!error.description.contains("\n"), "\(field) \(value): \(error)")
                }
            }
        }
    }
}
