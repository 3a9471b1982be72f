import DesktopIntegration
import InterludeCore
import PlayerModel
import Testing
import TUI
@testable import Interlude

/// Every command, walked row by row: each front end that offers it (keys and
/// `?` help, standard input, the socket, `interlude remote` and its
/// `--help`, MPRIS) takes it by its one name, and its old spellings still work.
struct CommandTableTests {
    static let rows = CommandTable.entries

    @Test("names and aliases are unique across the table, lowercase words joined by hyphens")
    func namesAreUnique() {
        let words = Self.rows.flatMap { [$0.name] + $0.aliases }
        #expect(Set(words).count == words.count, "\(words.sorted())")
        #expect(words.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") && !$0.isEmpty })
    }

    @Test("the old spellings users' files and scripts wrote are aliases of the one name")
    func oldSpellingsAreAliases() {
        let old = ["toggle": "play-pause", "next-chapter": "chapter-next", "prev-chapter": "chapter-previous",
                   "sleep": "sleep-timer", "snooze": "alarm-snooze", "dismiss": "alarm-dismiss", "shuffle": "shuffle-toggle",
                   "repeat": "repeat-cycle", "open-book": "book-open", "bookmark": "bookmark-add", "alarm-fire": "alarm-fire-test",
                   "alarm-new": "alarm-add", "alarm-ask": "alarm-in", "notification": "notification-chime",
                   "device-loss": "device-lost", "events": "subscribe"]
        for (alias, name) in old {
            #expect(CommandTable.entry(named: alias)?.name == name, "\(alias)")
        }
    }

    @Test("keys: every key action is a row offered to keys, in the table's order, bound by default to the table's keys")
    func keys() throws {
        let keyRows = CommandTable.offered(by: .keys)
        #expect(KeyAction.allCases.map(\.rawValue) == keyRows.map(\.name))
        for row in keyRows {
            let action = try #require(KeyAction(rawValue: row.name))
            let keys = try row.defaultKeys.map { try #require(Key(parsing: $0), "\(row.name): \($0)") }
            #expect(KeyBindings.defaults.keys(for: action) == keys.sorted(), "\(row.name)")
            for alias in row.aliases {
                #expect(KeyAction(named: alias) == action, "\(alias)")
            }
        }
        // The keys file reads the old names too.
        let load = KeyConfigParser.apply("bind ctrl-a alarm-new\nbind ctrl-s snooze\nbind ctrl-t toggle", path: "keys")
        #expect(load.problems.isEmpty)
        #expect(load.bindings.action(for: .control("a")) == .alarmNew)
        #expect(load.bindings.action(for: .control("s")) == .alarmSnooze)
        #expect(load.bindings.action(for: .control("t")) == .playPause)
    }

    @Test("keys send what the table's row stands for, the same command standard input and the socket send")
    func keysSendTheRowsCommand() throws {
        var snapshot = PlayerSnapshot()
        snapshot.book = BookInfo(path: "/b", title: "b", chapters: [.init(title: "one", startMilliseconds: 0, durationMilliseconds: 1000)],
                                 currentChapter: 0)
        // Rows with arguments take them from the screen (a prompt, the selection).
        for row in CommandTable.offered(by: .keys) where row.scope == .player && row.arguments.isEmpty {
            guard let command = row.plainCommand, let key = row.defaultKeys.first.flatMap(Key.init(parsing:)) else { continue }
            var ui = InterfaceState(browser: nil)
            #expect(ui.handle(key, snapshot: snapshot, source: EmptyBrowserSource()) == [.player(command)], "\(row.name)")
        }
    }

    @Test("? help lists each key row under its one name with the table's help line")
    func help() {
        let lines = KeyHelp.lines(for: .defaults)
        for row in CommandTable.offered(by: .keys) {
            #expect(lines.contains { $0.contains("  \(row.name)  ") && $0.hasSuffix("  " + row.summary) }, "\(row.name)")
        }
        for row in Self.rows {
            for alias in row.aliases {
                #expect(!lines.contains { $0.contains("  \(alias)  ") }, "help names the alias \(alias)")
            }
        }
    }

    @Test("standard input: its words are the rows it offers, by name, and each alias means the same")
    func standardInput() throws {
        let rows = CommandTable.offered(by: .standardInput)
        #expect(StandardInputVocabulary.words.map(\.word) == rows.map(\.name))
        for row in rows {
            let command = try #require(StandardInputVocabulary.command(for: row.name), "\(row.name)")
            #expect(command == row.plainCommand)
            for alias in row.aliases { #expect(StandardInputVocabulary.command(for: alias) == command, "\(alias)") }
        }
        #expect(StandardInputVocabulary.command(for: "status") == nil)
    }

    @Test("the socket: its vocabulary is the rows it offers, by name; an alias is read as the name")
    func socket() throws {
        let rows = CommandTable.offered(by: .socket)
        #expect(RemoteVocabulary.names == rows.map(\.name).joined(separator: ", "))
        for row in rows where row.arguments.isEmpty {
            let byName = try RemoteRequest.parse(Array(#"{"id":1,"command":"\#(row.name)"}"#.utf8))
            for alias in row.aliases {
                #expect(try RemoteRequest.parse(Array(#"{"id":1,"command":"\#(alias)"}"#.utf8)) == byName, "\(alias)")
            }
        }
    }

    @Test("interlude remote: each row's words translate to its one name, and --help lists every row by its usage")
    func remoteCommandLine() throws {
        let usage = RemoteCommand.usage.split(separator: "\n").map(String.init)
        let rows = CommandTable.offered(by: .socket)
        for row in rows {
            #expect(usage.contains { $0.hasPrefix("  \(row.usage) ") && $0.contains(row.summary) }, "\(row.name)")
            guard row.arguments.isEmpty else { continue }
            // As people type it: "chapter next" for chapter-next.
            let words = row.name.split(separator: "-").map(String.init)
            let translation = try RemoteCommandLine.translate(words.count == 2 ? words : [row.name])
            #expect(translation.command == row.name, "\(words)")
            for alias in row.aliases {
                #expect(try RemoteCommandLine.translate([alias]).command == row.name, "\(alias)")
            }
        }
        let listed = usage.filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2).prefix { $0 != " " }) }
        #expect(listed == rows.map(\.name))
    }

    @Test("interlude remote: a key's commands with arguments take ids as numbers and a time's words as one string")
    func remoteCommandLineKeyRows() throws {
        #expect(try RemoteCommandLine.translate(["alarm", "edit", "#3", "tomorrow", "07:30"])
                == .init(command: "alarm-edit", arguments: [.integer(3), .string("tomorrow 07:30")]))
        #expect(try RemoteCommandLine.translate(["alarm", "toggle", "4"]) == .init(command: "alarm-toggle", arguments: [.integer(4)]))
        #expect(try RemoteCommandLine.translate(["bookmark-delete", "2"]) == .init(command: "bookmark-delete", arguments: [.integer(2)]))
        #expect(try RemoteCommandLine.translate(["station-add-url", "http://h/s", "Two", "Words"])
                == .init(command: "station-add-url", arguments: [.string("http://h/s"), .string("Two Words")]))
        #expect(throws: RemoteCommandLine.UsageError.self) { try RemoteCommandLine.translate(["alarm", "edit", "3"]) }
        #expect(throws: RemoteCommandLine.UsageError.self) { try RemoteCommandLine.translate(["bookmark", "delete", "first"]) }
    }

    @Test("MPRIS: each method and writable property the player exports is a row's, and each row's member is exported")
    func mpris() {
        let player = CommandSpec.MprisMember.playerInterface
        let exported = PlayerObject.members.filter { $0.kind == .method || $0.kind == .writableProperty }.map(\.name)
        let mapped = Self.rows.compactMap(\.mpris).filter { $0.interface == player }.map(\.name)
        #expect(Set(exported) == Set(mapped))
        for member in PlayerObject.members where member.kind == .method || member.kind == .writableProperty {
            let kind: CommandSpec.MprisMember.Kind = member.kind == .method ? .method : .writableProperty
            #expect(CommandTable.entry(mpris: member.name, interface: player)?.mpris?.kind == kind, "\(member.name)")
        }
        // Raise does nothing in a terminal: it is no command.
        let root = RootObject.members.filter { $0.kind == .method && $0.name != "Raise" }.map(\.name)
        #expect(root == ["Quit"])
        #expect(CommandTable.entry(mpris: "Quit", interface: CommandSpec.MprisMember.rootInterface)?.name == "quit")
        #expect(CommandTable.entry(mpris: "PlayPause", interface: player)?.name == "play-pause")
    }

    @Test("arguments are checked by the row's ranges: Seek(INT64_MAX), a seek of 1e300 s, volume NaN, alarm id 2^40")
    func ranges() throws {
        let seek = try #require(CommandTable.entry(mpris: "Seek", interface: CommandSpec.MprisMember.playerInterface))
        #expect(throws: RemoteArgumentError.self) { try seek.action([.double(Double(Int64.max) / 1_000_000)]) }
        #expect(try seek.action([.double(-30)]) == .perform(.seek(seconds: -30)))
        func error(_ line: String) -> String? {
            do { _ = try RemoteRequest.parse(Array(line.utf8)); return nil } catch { return error.message }
        }
        #expect(error(#"{"id":1,"command":"seek","args":[1e300]}"#)?.hasPrefix("seek: expects seconds") == true)
        #expect(error(#"{"id":1,"command":"seek-to","args":[-1]}"#) != nil)
        #expect(error(#"{"id":1,"command":"alarm-delete","args":[1099511627776]}"#) != nil)
        #expect(error(#"{"id":1,"command":"speed","args":[4]}"#) != nil)
        #expect(error(#"{"id":1,"command":"seek","args":[3600000]}"#) == nil)
    }
}

/// A browser with nothing in it, for keys that need none.
private struct EmptyBrowserSource: BrowserSource {
    func entries(in directory: String) -> [BrowserEntry]? { [] }
}
