import Foundation
import Testing
import TestSupport

/// `--events json` is a contract with scripts and tests: these staged
/// scenarios, rendered on the frame clock (so every line is deterministic),
/// must print exactly the lines recorded in `Tests/Fixtures/events/` before
/// the events became typed (issue "One clear shape before the player grows").
/// Fixture and scratch paths are written as `<fixtures>` and `<scratch>`.
///
/// To record again after a deliberate change of the output:
/// `INTERLUDE_RECORD_EVENTS=1 swift test --filter RecordedEventTests`, and
/// say why in the commit.
@Suite struct RecordedEventTests {
    struct Scenario: Sendable, CustomStringConvertible {
        let name: String
        let files: @Sendable () throws -> [String]
        let arguments: [String]
        /// A private state directory (books keep their place there).
        var stateHome = false
        var description: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "gapless-pair", files: {
            let pair = try Fixtures.gaplessPair()
            return [pair.first, pair.second]
        }, arguments: []),
        Scenario(name: "alarm", files: { [try Fixtures.mp3(.sweep, seconds: 12)] },
                 arguments: ["--alarm-in", "3", "--alarm-ring", "2"]),
        Scenario(name: "alarm-while-suspended", files: { [try Fixtures.mp3(.sweep, seconds: 12)] },
                 arguments: ["--suspend-at", "2", "--continue-at", "5", "--alarm-in", "3", "--alarm-ring", "1"]),
        Scenario(name: "call-spoken", files: { [try Fixtures.mp3(.tone(frequency: 440), seconds: 10)] },
                 arguments: ["--spoken", "--call-at", "2", "--call-end", "4"]),
        Scenario(name: "notifications", files: { [try Fixtures.mp3(.sweep, seconds: 8)] },
                 arguments: ["--notify-at", "2", "--notify-at", "2.5"]),
        Scenario(name: "notification-spoken-alarm", files: { [try Fixtures.mp3(.sweep, seconds: 10)] },
                 arguments: ["--spoken", "--notify-at", "2", "--alarm-in", "2.2", "--alarm-ring", "1", "--fade", "50ms"]),
        Scenario(name: "bad-and-good", files: {
            [try Fixtures.broken(.randomBytes), try Fixtures.mp3(.sweep, seconds: 2), "/nonexistent/missing.mp3"]
        }, arguments: []),
        Scenario(name: "speed-alarm", files: { [try Fixtures.mp3(.sweep, seconds: 12)] },
                 arguments: ["--speed", "1.5", "--alarm-in", "3", "--alarm-ring", "1"]),
        Scenario(name: "book-folder", files: {
            let book = try BookUnderTest.folder("Recorded", files: 3, seconds: 4)
            return [book.path]
        }, arguments: ["--alarm-in", "5", "--alarm-ring", "1", "--sleep", "chapter"], stateHome: true),
    ]

    static var directory: String { InterludeBinary.packageRoot + "/Tests/Fixtures/events" }

    /// The run's stdout with its machine-specific paths replaced.
    static func normalized(_ stdout: String) -> String {
        stdout.replacingOccurrences(of: Fixtures.directory, with: "<fixtures>")
            .replacingOccurrences(of: ScratchFiles.directory, with: "<scratch>")
            // `ScratchFiles.makeDirectory`'s random suffix.
            .replacingOccurrences(of: "<scratch>/([A-Za-z-]+)-[0-9A-F]{8}/", with: "<scratch>/$1/",
                                  options: .regularExpression)
    }

    @Test(arguments: scenarios)
    func printsExactlyTheRecordedLines(_ scenario: Scenario) throws {
        var environment: [String: String] = [:]
        if scenario.stateHome { environment["XDG_STATE_HOME"] = ScratchFiles.makeDirectory("events-state") }
        let result = try InterludeBinary.play(try scenario.files(), output: .null, extraArguments: scenario.arguments,
                                              environment: environment, timeout: 120)
        let text = Self.normalized(result.process.stdoutText)
        let path = "\(Self.directory)/\(scenario.name).jsonl"
        if ProcessInfo.processInfo.environment["INTERLUDE_RECORD_EVENTS"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!recorded.isEmpty)
        let expected = recorded.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, pair) in zip(expected, actual).enumerated() where pair.0 != pair.1 {
            Issue.record("\(scenario.name) line \(index + 1):\n recorded \(pair.0)\n printed  \(pair.1)")
            break
        }
        #expect(text == recorded, "\(scenario.name): \(actual.count) lines printed, \(expected.count) recorded")
    }
}
