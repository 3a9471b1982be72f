import PlayerModel
import Streams
import Testing

/// The station rows of the command table as the socket,
/// `interlude remote` and the radio pane's prompts read them.
@Suite struct StationCommandTests {
    @Test func theNumbersTheTableTakesAreTheListsOwn() {
        #expect(StationNumbers.range.range == 1...StationList.maximumCount)
    }

    @Test func remoteWordsBecomeTypedArguments() throws {
        #expect(try RemoteCommandLine.translate(["station", "add", "http://radio.example/a", "Night", "Radio"])
                == .init(command: "station-add", arguments: [.string("http://radio.example/a"), .string("Night Radio")]))
        #expect(try RemoteCommandLine.translate(["station", "add"]) == .init(command: "station-add", arguments: []))
        #expect(try RemoteCommandLine.translate(["station", "rename", "#2", "Evening", "Tones"])
                == .init(command: "station-rename", arguments: [.integer(2), .string("Evening Tones")]))
        #expect(try RemoteCommandLine.translate(["station", "remove", "3"]) == .init(command: "station-remove", arguments: [.integer(3)]))
        #expect(try RemoteCommandLine.translate(["stations"]) == .init(command: "station-list", arguments: []))
        #expect(throws: RemoteCommandLine.UsageError.self) { try RemoteCommandLine.translate(["station", "rename", "2"]) }
        #expect(throws: RemoteCommandLine.UsageError.self) { try RemoteCommandLine.translate(["station", "play", "two"]) }
    }

    @Test func theSocketsArgumentsAreCheckedByTheRows() throws {
        let add = try #require(CommandTable.entry(named: "station-add"))
        #expect(try add.action([]) == .perform(.addStation(url: nil, name: nil)))
        #expect(try add.action([.string("http://radio.example/a"), .string("A")])
                == .perform(.addStation(url: "http://radio.example/a", name: "A")))
        #expect(throws: RemoteArgumentError("station-add: expects a URL and a name, or fewer")) {
            try add.action([.string("a"), .string("b"), .string("c")])
        }
        let rename = try #require(CommandTable.entry(named: "station-rename"))
        #expect(try rename.action([.integer(2), .string("B")]) == .perform(.renameStation(.number(2), name: "B")))
        #expect(throws: RemoteArgumentError("station-rename: expects a station's number (as station-list shows it), not 0")) {
            try rename.action([.integer(0), .string("B")])
        }
        let remove = try #require(CommandTable.entry(named: "station-delete"))
        #expect(try remove.action([.integer(1000)]) == .perform(.removeStation(.number(1000))))
        #expect(throws: RemoteArgumentError("station-remove: expects a station's number (as station-list shows it), not 1001")) {
            try remove.action([.integer(1001)], calledAs: "station-remove")
        }
        #expect(try CommandTable.entry(named: "station-list")?.action([]) == .stationList)
        // The pane's prompt for a URL reads what was typed as the socket's one argument.
        #expect(try add.action(typed: "http://radio.example/b") == .perform(.addStation(url: "http://radio.example/b", name: nil)))
    }
}
