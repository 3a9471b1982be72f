import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The screen's state word agrees with the engine after
/// every step. The engine is judged by what it sends to the player's own null
/// sink, not by the snapshot the screen is drawn from: music while the word is
/// "playing", digital silence while it is "paused" or "stopped" (while
/// "interrupted" an alarm's tone may sound); and exactly one stream of the
/// player's on the sink at all times.
extension TUISession {
    /// The status line's first word ("playing", "paused", "interrupted", "stopped").
    var stateWord: String? {
        let rows = lines
        guard rows.count >= 2 else { return nil }
        return rows[rows.count - 2].split(separator: " ").first.map(String.init)
    }

    /// The player's streams on its sink.
    func streamsOnSink() throws -> Int {
        let sinks = try sink.server.pactl(["list", "short", "sinks"]).stdoutText
        guard let index = sinks.split(separator: "\n").first(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink.name) })?
            .split(separator: "\t").first else { return -1 }
        let inputs = try sink.server.pactl(["list", "short", "sink-inputs"]).stdoutText
        return inputs.split(separator: "\n").filter { $0.split(separator: "\t").dropFirst().first == index }.count
    }

    /// Checks the invariant once the word has settled; `expected`, when given, is the word the step should have led to.
    func expectStateAgreesWithEngine(_ expected: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let expected {
            let settled = waitFor(10) { _ in self.stateWord == expected }
            #expect(settled.met, "state word is not \(expected):\n\(settled.screen)", sourceLocation: sourceLocation)
        }
        for attempt in 0..<3 {
            let before = stateWord
            let recorder = try sink.startRecorder()
            usleep(400_000)
            let heard = try recorder.stop()
            let after = stateWord
            // The word changed while recording. After a step with a word of its own,
            // which had settled: the screen moved by itself, what this check is
            // for, so it fails (looking again would hide it). After a step with
            // none, it may still be settling: look again, three times at most.
            guard before == after, let word = after else {
                if let expected {
                    Issue.record("the state word left \(expected) by itself: \(before ?? "-") -> \(after ?? "-")",
                                 sourceLocation: sourceLocation)
                    return
                }
                if attempt == 2 { Issue.record("the state word kept changing: \(before ?? "-") -> \(after ?? "-")", sourceLocation: sourceLocation) }
                continue
            }
            let level = SignalAnalysis.dBFS(SignalAnalysis.rms(heard))
            switch word {
            case "playing":
                #expect(level > -40, "\"playing\" on screen, but the sink hears \(level) dBFS", sourceLocation: sourceLocation)
            case "paused", "stopped":
                #expect(level < -80, "\"\(word)\" on screen, but the sink hears \(level) dBFS", sourceLocation: sourceLocation)
            default:
                break
            }
            #expect(try streamsOnSink() == 1, "the player's streams on its sink while \(word)", sourceLocation: sourceLocation)
            return
        }
    }
}

@Suite(.serialized) struct TUIStateInvariantTests {
    @Test("point 5: after every step (pause, play, alarm, dismiss, call, notification, suspension, device loss) the state word agrees with what the sink hears, with one stream of the player's throughout")
    func stateWordAgreesWithTheEngineAfterEveryStep() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 120, rows: 40, arguments: ["\(library)/Tones/1 Morning.mp3", "--resume-delay", "0.5"])
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        try session.expectStateAgreesWithEngine("playing")
        let steps: [(keys: [String], word: String?)] = [
            (["Space"], "paused"), (["Space"], "playing"),
            (["a"], "interrupted"), (["x"], "playing"),
            (["c"], "interrupted"), (["c"], "playing"),
            (["N"], "playing"),
            (["s"], nil), (["s"], "playing"),
            (["D"], nil), (["Space"], "playing"),
        ]
        for step in steps {
            for key in step.keys { try session.press(key) }
            usleep(300_000)
            try session.expectStateAgreesWithEngine(step.word)
        }
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }
}
