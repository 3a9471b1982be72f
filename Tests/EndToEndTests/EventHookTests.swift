import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `on-event = PROGRAM` in the config file runs on
/// track changes with the title in its environment, and a hook that hangs
/// does not hold the player up.
@Suite(.serialized) struct EventHookTests {
    /// `interlude play` of two tagged 2 s tracks through a null sink, with `config` as the config file.
    func play(config: String) throws -> (result: ProcessResult, directory: String) {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 2)
        let directory = ScratchFiles.makeDirectory("hook")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try config.replacingOccurrences(of: "DIR", with: directory)
            .write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_STATE_HOME"] = directory + "/state"
        let result = try ProcessRunner.run(InterludeBinary.path(),
                                           ["play", "\(library)/Tones/1 Morning.mp3", "\(library)/Tones/2 Noon.mp3",
                                            "--device", "pulse", "--events", "json"],
                                           environment: environment, timeout: 40)
        return (result, directory)
    }

    @Test("acceptance 6: the hook runs on each track change with the title in its environment; hooks that hang 60 s do not hold the player")
    func hookRunsAndNeverBlocks() throws {
        // Each run logs itself and then hangs for a minute.
        let (result, directory) = try play(config: """
            # scrobbler
            on-event = echo "$$ $INTERLUDE_EVENT $INTERLUDE_TITLE $INTERLUDE_ARTIST" >> DIR/hook.log; exec sleep 60
            """)
        let log = (try? String(contentsOfFile: directory + "/hook.log", encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        // Whatever happens below, the hung hooks go (by the PIDs they wrote).
        defer { for line in lines { if let pid = Int32(line[0]) { kill(pid, SIGKILL) } } }
        #expect(result.exitStatus == 0, "\(result.summary)")
        let events = result.stdoutText.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        // Events kept flowing to the end while every hook still hung.
        #expect(events.filter { $0.event == "trackStarted" }.count == 2)
        #expect(events.last?.event == "summary", "\(events.map(\.event))")
        let runs = lines.compactMap { $0.count == 2 ? String($0[1]) : nil }
        #expect(runs.contains("trackStarted Morning Interlude") && runs.contains("trackStarted Noon Interlude"), "\(log)")
        #expect(!result.stderrText.contains("on-event"), "\(result.stderrText)")
    }

    @Test("a hook that fails is reported once; a bad config line is reported with file:line and the rest applies")
    func failuresAreReportedOnce() throws {
        let (result, directory) = try play(config: """
            volume = 11
            on-event = DIR/missing-program
            """)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let stderr = result.stderrText
        #expect(stderr.contains("\(directory)/config/interlude/config:1: unknown key 'volume'"), "\(stderr)")
        let failures = stderr.split(separator: "\n").filter { $0.contains("on-event:") }
        #expect(failures.count == 1 && failures[0].contains("exited 127"), "\(stderr)")
    }
}
