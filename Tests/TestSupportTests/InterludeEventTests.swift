import Foundation
import Testing
import TestSupport

@Suite struct InterludeEventTests {
    @Test func parsesEventLinesAndKeepsTheRest() {
        let stdout = """
        {"t": 0.012, "event": "trackStarted", "path": "/tmp/a.mp3"}
        {"t":1.5,"event":"underrun"}
        not json
        {"t": 2, "event": "error", "message": "b.mp3: not an MP3 file", "fatal": false, "extra": [1, "x"]}
        {"t": 3.25, "event": "finished", "underruns": 1}

        """
        let log = EventLog(stdout: stdout)
        #expect(log.events.map(\.event) == ["trackStarted", "underrun", "error", "finished"])
        #expect(log.invalidLines == ["not json"])
        #expect(log.events[0].path == "/tmp/a.mp3" && log.events[0].t == 0.012)
        #expect(log.events[2].message == "b.mp3: not an MP3 file")
        #expect(log.events[2].fields["fatal"] == .bool(false))
        #expect(log.events[2].fields["extra"] == .json("[1,\"x\"]"))
        #expect(log.underrunCount == 1 && log.reportedUnderruns == 1)
    }

    @Test func rejectsObjectsWithoutTimeOrName() {
        #expect(InterludeEvent.parse(line: "{\"event\": \"x\"}") == nil)
        #expect(InterludeEvent.parse(line: "{\"t\": \"1\", \"event\": \"x\"}") == nil)
        #expect(InterludeEvent.parse(line: "[1]") == nil)
    }

    @Test func binaryPathComesFromTheEnvironmentOrTheBuildFolder() {
        let path = InterludeBinary.path()
        if let fromEnvironment = ProcessInfo.processInfo.environment["INTERLUDE_BIN"], !fromEnvironment.isEmpty {
            #expect(path == fromEnvironment)
        } else {
            #expect(path.hasSuffix("/.build/debug/interlude"))
            #expect(FileManager.default.fileExists(atPath: InterludeBinary.packageRoot + "/Package.swift"))
        }
    }
}
