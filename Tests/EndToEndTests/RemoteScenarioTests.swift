import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player in tmux driven through a
/// whole alarm scenario by `interlude remote` shows what it shows and emits
/// the events it emits when the same scenario is played on its keys.
@Suite(.serialized) struct RemoteScenarioTests {
    struct Step: Sendable {
        var key: String
        var remote: [String]
        /// Events this step causes, waited for in order.
        var events: [String]
        /// The banner (the screen's second line) once they came.
        var banner: @Sendable (String) -> Bool
    }

    static let noBanner: @Sendable (String) -> Bool = { !$0.contains("audio paused") && !$0.contains("suspended") }

    static let steps: [Step] = [
        Step(key: "a", remote: ["alarm", "fire"], events: ["alarmRinging", "paused"],
             banner: { $0 == " audio paused, will resume after alarm" }),
        Step(key: "z", remote: ["snooze"], events: ["resumed", "alarmEnded"], banner: noBanner),
        Step(key: "a", remote: ["alarm", "fire"], events: ["alarmRinging", "paused"],
             banner: { $0 == " audio paused, will resume after alarm" }),
        Step(key: "x", remote: ["dismiss"], events: ["resumed", "alarmEnded"], banner: noBanner),
        Step(key: "s", remote: ["suspend"], events: ["suspended"], banner: { $0.contains("audio paused, will resume after the suspension") }),
        Step(key: "s", remote: ["continue"], events: ["continued", "resumed"], banner: noBanner),
        Step(key: "c", remote: ["call", "start"], events: ["callStarted", "paused"],
             banner: { $0.contains("audio paused, will resume after the call") }),
        Step(key: "c", remote: ["call", "end"], events: ["callEnded", "resumed"], banner: noBanner),
    ]

    /// Plays the scenario on the keys or through the remote; the event names
    /// from the first step on, and a problem for each step that did not come.
    func play(remotely: Bool) throws -> (names: [String], problems: [String]) {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3", "--resume-delay", "0.5"])
        let runtime = session.runtimeDirectory
        guard Remote.waitForPlayer(runtime) else { return ([], ["no control socket in \(runtime): \(session.screen())"]) }
        let capture = try Remote.EventCapture(runtime)
        guard session.waitFor(15, { (TUISession.elapsed($0) ?? 0) >= 1 }).met else { return ([], ["not playing: \(session.screen())"]) }
        var problems: [String] = []
        let start = capture.events.count
        for (number, step) in Self.steps.enumerated() {
            var from = capture.events.count
            if remotely {
                let result = try Remote.run(runtime, step.remote)
                if !result.succeeded { problems.append("step \(number) \(step.remote): \(result.summary)") }
            } else {
                try session.press(step.key)
            }
            for name in step.events {
                guard let index = capture.waitFor(name, after: from) else {
                    problems.append("step \(number) (\(remotely ? step.remote.joined(separator: " ") : step.key)): no \(name) in "
                                    + capture.events.dropFirst(start).map(\.event).joined(separator: " "))
                    break
                }
                from = index + 1
            }
            let shown = session.waitFor { step.banner(TUISession.rows($0).dropFirst().first ?? "") }
            if !shown.met { problems.append("step \(number): banner \(TUISession.rows(shown.screen).dropFirst().first ?? "")") }
        }
        // An underrun under a loaded machine is the machine's, not the scenario's.
        return (capture.events.dropFirst(start).map(\.event).filter { $0 != "underrun" }, problems)
    }

    @Test("acceptance 3: fire, snooze, fire, dismiss, suspend, continue, call start and end: the remote's events and screen match the keys'")
    func remoteMatchesKeys() throws {
        let keys = try play(remotely: false)
        #expect(keys.problems.isEmpty, "keys: \(keys.problems)")
        let remote = try play(remotely: true)
        #expect(remote.problems.isEmpty, "remote: \(remote.problems)")
        #expect(!keys.names.isEmpty)
        #expect(remote.names == keys.names, "keys:   \(keys.names.joined(separator: " "))\nremote: \(remote.names.joined(separator: " "))")
    }

    @Test("one player per user: interlude FILE queues in the running player (--play plays it) and exits; --new starts a second one")
    func onePlayerPerUser() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 60)
        let first = try TUISession(columns: 200, rows: 50, arguments: ["\(library)/Tones/1 Morning.mp3"])
        let runtime = first.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime))
        let noon = "\(library)/Tones/2 Noon.mp3"
        // No terminal needed: the files go to the running player and this one exits.
        let queued = try ProcessRunner.run(InterludeBinary.path(), [noon], environment: ["XDG_RUNTIME_DIR": runtime], timeout: 15)
        #expect(queued.exitStatus == 0
                && queued.stdoutText == "interlude: the running player queued 2 Noon.mp3 ('interlude --new' starts another)\n",
                "\(queued.summary)")
        let list = try Remote.run(runtime, ["queue", "list", "--json"]).check()
        let entries = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        #expect(entries.map { $0["title"] as? String } == ["Morning", "Noon"], "\(list.stdoutText)")
        #expect(first.waitFor("2 Queue (2)").met, "\(first.screen())")
        #expect(try Remote.status(runtime)["title"] as? String == "Morning")
        // --play: played at once.
        let played = try ProcessRunner.run(InterludeBinary.path(), ["--play", noon], environment: ["XDG_RUNTIME_DIR": runtime],
                                           timeout: 15)
        #expect(played.exitStatus == 0, "\(played.summary)")
        #expect(try Remote.waitUntil { try Remote.status(runtime)["title"] as? String == "Noon" })

        // --new: a second player beside the first, at the next name.
        let second = try TUISession(columns: 200, rows: 50, arguments: ["--new", "\(library)/Tones/1 Morning.mp3"],
                                    environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(Remote.waitForPlayer(runtime, instance: 2), "\(second.screen())")
        #expect(access(runtime + "/interlude/control.2", F_OK) == 0)
        #expect(try Remote.status(runtime, instance: 2)["title"] as? String == "Morning")
        #expect(try Remote.run(runtime, ["--instance", "2", "pause"]).exitStatus == 0)
        #expect(try Remote.waitUntil { try Remote.status(runtime, instance: 2)["state"] as? String == "paused" })
        #expect(try Remote.status(runtime)["state"] as? String == "playing")
    }
}
