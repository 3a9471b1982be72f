import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Books played in real time through a private PulseAudio null sink (a
/// recorder attached, so the sink is paced), driven by standard-input
/// commands and signals as a listener would.
@Suite(.serialized) struct BookRealTimeTests {
    /// A playing book with a FIFO on its standard input.
    final class Listener {
        let player: BackgroundProcess
        private let commands: Int32

        convenience init(_ book: BookUnderTest, sink: NullSink, _ extra: [String] = [], environment: [String: String] = [:]) throws {
            try self.init(["play", book.path], sink: sink, extra, environment: book.environment.merging(environment) { $1 })
        }

        /// `interlude COMMAND... --device pulse --latency 100 --events json extra...` (a book's play, an episode's).
        init(_ command: [String], sink: NullSink, _ extra: [String] = [], environment: [String: String] = [:]) throws {
            let fifo = ScratchFiles.makeDirectory("book-commands") + "/commands"
            #expect(mkfifo(fifo, 0o600) == 0)
            // Both ends held, so the player's open does not block and never sees EOF.
            commands = open(fifo, O_RDWR)
            player = try InterludeBinary.start(
                command + ["--device", "pulse", "--latency", "100", "--events", "json"] + extra,
                environment: sink.environment.merging(environment) { $1 }, stdinPath: fifo)
        }

        deinit {
            _ = player.stop(signal: SIGKILL, grace: 1)
            close(commands)
        }

        func type(_ command: String) {
            _ = (command + "\n").withCString { write(commands, $0, strlen($0)) }
        }

        var events: EventLog { player.eventsSoFar() }

        /// The `index`th event named `name` (0-based) that `matches`, waiting for it.
        func event(_ name: String, _ index: Int = 0, timeout: Double = 10,
                   where matches: (InterludeEvent) -> Bool = { _ in true }) -> InterludeEvent? {
            let deadline = monotonicSeconds() + timeout
            while monotonicSeconds() < deadline {
                let matching = events.named(name).filter(matches)
                if matching.count > index { return matching[index] }
                guard player.isRunning else { break }
                usleep(10_000)
            }
            let matching = events.named(name).filter(matches)
            return matching.count > index ? matching[index] : nil
        }
    }

    @Test func chapterAndSkipCommandsMoveThroughAFolderBookAndThePlaceIsKept() throws {
        let book = try BookUnderTest.folder("Navigate", files: 3, seconds: 20)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let listener = try Listener(book, sink: sink, ["--skip", "5"])
        #expect(listener.event("trackStarted") != nil, "\(listener.events.events)")
        usleep(500_000)

        listener.type("next-chapter")
        let next = try #require(listener.event("bookSeek", 0), "\(listener.events.events)")
        #expect(next.fields["reason"]?.description == "nextChapter")
        #expect(next.seconds("position") == 20)
        #expect(next.fields["chapterTitle"]?.description == "Part 2")
        // The engine went there: the second file is heard.
        #expect(listener.event("trackStarted", 1)?.path?.hasSuffix("Part 2.mp3") == true, "\(listener.events.events)")
        usleep(800_000)

        listener.type("skip-forward")
        let forward = try #require(listener.event("bookSeek", 1))
        let forwardFrom = try #require(forward.seconds("from"))
        #expect(forwardFrom > 20 && forwardFrom < 23, "\(forward)")
        #expect(abs((forward.seconds("position") ?? 0) - (forwardFrom + 5)) < 0.002)
        usleep(500_000)

        listener.type("skip-back")
        let back = try #require(listener.event("bookSeek", 2))
        let backFrom = try #require(back.seconds("from"))
        #expect(backFrom >= forwardFrom + 5 && backFrom < forwardFrom + 7, "\(back)")
        #expect(abs((back.seconds("position") ?? 0) - (backFrom - 5)) < 0.002)

        // Within 3 s of a chapter's start, prev-chapter goes to the previous chapter;
        // later, to the start of the current one.
        listener.type("prev-chapter")
        let previous = try #require(listener.event("bookSeek", 3))
        let previousFrom = try #require(previous.seconds("from"))
        let expected: Double = previousFrom - 20 > 3 ? 20 : 0
        #expect(previous.seconds("position") == expected, "\(previous)")
        usleep(700_000)

        // A pause keeps the place heard, in book time, at once.
        listener.type("pause")
        #expect(listener.event("paused") != nil)
        let saved = try #require(listener.event("positionSaved", listener.events.named("positionSaved").count - 1))
        let pausedAt = try #require(saved.seconds("position"))
        #expect(pausedAt > expected + 0.3 && pausedAt < expected + 2.5, "paused at \(pausedAt), sought \(expected)")
        // A bookmark added from another terminal while the book is open survives its saves.
        #expect(try book.bookmark("add", ["--at", "7", "--note", "meanwhile"]).exitStatus == 0)
        listener.type("quit")
        let result = listener.player.wait(timeout: 10)
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(abs(try book.savedPosition() - pausedAt) < 0.01)
        #expect(try book.bookmark("list").stdoutText.contains("meanwhile"))
    }

    /// Play during the sleep timer's fade: the listener is awake. The fade
    /// turns back up where it is (nothing skipped, nothing repeated, no
    /// pause), the timer is off, and the book plays on past the chapter's end.
    @Test(arguments: [BookUnderTest.Form.mp3, .m4b])
    func playDuringTheSleepFadeTurnsItBackUpAndTheBookPlaysOn(_ form: BookUnderTest.Form) throws {
        let book = try BookUnderTest.chaptered("Awake", seconds: 30, chapters: [("A", 0), ("B", 10_500), ("C", 20_000)], form: form)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let listener = try Listener(book, sink: sink, ["--sleep", "chapter"])
        // From the place heard when set (see endOfChapterSleepStopsAtTheChapterEndThroughPulse).
        let remaining = try #require(listener.event("sleepTimerSet")?.seconds("remaining"))
        #expect(remaining <= 10.5 && remaining > 10, "\(remaining) s to the chapter's end")
        #expect(listener.event("sleepFadeStarted") != nil)
        // Three seconds into the 10 s fade: the level is down to about 0.7.
        usleep(3_000_000)
        listener.type("play")
        let resumed = try #require(listener.event("resumed"), "\(listener.events.events)")
        #expect(resumed.fields["fadeCancelled"]?.description == "true", "\(resumed)")
        #expect(resumed.seconds("rewind") == 0)
        let position = try #require(resumed.seconds("position"))
        #expect(position > 2.5 && position < 4.5, "\(resumed)")
        #expect(listener.event("sleepTimerOff") != nil, "\(listener.events.events)")
        // On past the chapter's end (10.5 s) without a pause.
        let deadline = monotonicSeconds() + 15
        while (listener.events.named("positionSaved").last?.seconds("position") ?? 0) < 12, monotonicSeconds() < deadline {
            usleep(100_000)
        }
        let saved = try #require(listener.events.named("positionSaved").last?.seconds("position"))
        #expect(saved >= 12, "still at \(saved) s")
        #expect(listener.events.named("paused").isEmpty, "\(listener.events.named("paused"))")
        #expect(listener.events.named("sleepTimerExpired").isEmpty)
        listener.type("quit")
        #expect(listener.player.wait(timeout: 10).exitStatus == 0)

        // The capture: the tone dipped with the fade and came back to full level,
        // never near silence, without a gap where the fade turned.
        let capture = try recorder.stop()
        let bounds = try #require(SignalAnalysis.signalBounds(capture))
        let played = capture.frames(bounds)
        let window = capture.sampleRate / 10
        let levels = stride(from: 0, to: played.frameCount - window, by: window).map {
            SignalAnalysis.rms(played, frames: $0..<$0 + window)
        }
        let full = try #require(levels.dropFirst(2).first)
        // (The last windows hold quit's own fade.)
        let lowest = try #require(levels.dropLast(3).min())
        #expect(lowest > 0.5 * full && lowest < 0.85 * full, "lowest \(lowest) of \(full)")
        #expect(abs(levels[levels.count - 3] / full - 1) < 0.05, "ends at \(levels[levels.count - 3]) of \(full)")
        // From the window before the lowest (the play came during it or just before)
        // to the end. Not the fade's start three seconds earlier: there the pause
        // drops the device's queue, and under load PulseAudio's sink can run dry
        // for up to its latency (25 ms) before the writer's restart reaches it,
        // the pause path's own seam (PreemptionCaptureTests), not this feature's.
        let lowestWindow = try #require(levels.dropLast(3).indices.min { levels[$0] < levels[$1] })
        let turn = max(0, lowestWindow - 1) * window
        let fiveMilliseconds = SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate)
        // A stream the loaded machine let run dry is reported as an underrun (the
        // output says so): a silence then is the machine's, not the turn's.
        let silences = SignalAnalysis.silentRuns(played.frames(turn..<played.frameCount), minimumFrames: fiveMilliseconds)
        let underruns = listener.events.named("underrun")
        #expect(silences.isEmpty || !underruns.isEmpty, "silences after the turn: \(silences), no underrun reported")
    }

    /// Through ALSA the end-of-chapter pause falls on the chapter's end too:
    /// a pause fades from what is heard (the writer drops the device's
    /// queue), so nothing is aimed early by a device buffer. The last sound in
    /// the capture is the chapter's end from the first.
    @Test(arguments: [BookUnderTest.Form.mp3, .m4b])
    func endOfChapterSleepStopsAtTheChapterEndThroughPulse(_ form: BookUnderTest.Form) throws {
        let chapterEnd = 11.5
        let book = try BookUnderTest.chaptered("Sleepy", seconds: 20, chapters: [("A", 0), ("B", 11_500)], form: form)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let listener = try Listener(book, sink: sink, ["--sleep", "chapter", "--latency", "300"])
        // The timer counts from the place heard when it is set: 11.5 s at the book's start,
        // a few ms less when the first frames were already heard (11.497 under load).
        let remaining = try #require(listener.event("sleepTimerSet")?.seconds("remaining"))
        #expect(remaining <= chapterEnd && remaining > chapterEnd - 0.5, "\(remaining) s to the chapter's end")
        let paused = try #require(listener.event("paused", timeout: 20), "\(listener.events.events)")
        let position = try #require(paused.seconds("position"))
        // The writer fades from the heard frame plus what the server still plays
        // after a drop (12 ms assumed): within a few tens of ms of the end.
        #expect(abs(position - chapterEnd) < 0.05, "paused at \(position), the chapter ends at \(chapterEnd)")
        #expect(try book.savedPosition() == (position * 1000).rounded() / 1000)
        usleep(500_000)
        listener.type("quit")
        #expect(listener.player.wait(timeout: 10).exitStatus == 0)
        let capture = try recorder.stop()
        let bounds = try #require(SignalAnalysis.signalBounds(capture, threshold: 30))
        let heard = Double(bounds.count) / Double(capture.sampleRate)
        #expect(abs(heard - chapterEnd) < 0.1, "\(heard) s heard, the chapter is \(chapterEnd) s")
    }

    /// The same with every turn of the player's loop 150 ms late, as under load
    /// (where the pause fell 52-153 ms late when the loop's turn carried it out):
    /// the pause is aimed at the chapter's last frame ahead of time, so it falls
    /// there to the frame.
    @Test(arguments: [BookUnderTest.Form.mp3, .m4b])
    func endOfChapterSleepStopsOnTheChapterEndFrameWhenTheLoopIsLate(_ form: BookUnderTest.Form) throws {
        let chapterEnd = 11.5
        let book = try BookUnderTest.chaptered("Late", seconds: 20, chapters: [("A", 0), ("B", 11_500)], form: form)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let listener = try Listener(book, sink: sink, ["--sleep", "chapter", "--latency", "300"],
                                    environment: ["INTERLUDE_TEST_LATE_TURN_MS": "150"])
        let paused = try #require(listener.event("paused", timeout: 20), "\(listener.events.events)")
        let position = try #require(paused.seconds("position"))
        // Printed to the millisecond: the chapter's end frame is 11.500 s.
        #expect(abs(position - chapterEnd) < 0.0005, "paused at \(position), the chapter ends at \(chapterEnd)")
        #expect(try book.savedPosition() == chapterEnd)
        usleep(800_000)
        listener.type("quit")
        #expect(listener.player.wait(timeout: 10).exitStatus == 0)
        let capture = try recorder.stop()
        let bounds = try #require(SignalAnalysis.signalBounds(capture, threshold: 30))
        // What the late turns let run dry (each reported) is silence, not the book.
        let gaps = SignalAnalysis.silentRuns(capture.frames(bounds), threshold: 30,
                                             minimumFrames: SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate))
        let heard = Double(bounds.count - gaps.reduce(0) { $0 + $1.count }) / Double(capture.sampleRate)
        let underruns = listener.events.named("underrun").count
        #expect(abs(heard - chapterEnd) < 0.1, "\(heard) s heard, the chapter is \(chapterEnd) s; gaps \(gaps), \(underruns) underruns")
    }

    @Test("SIGTERM and SIGHUP keep the place heard", arguments: [SIGTERM, SIGHUP])
    func terminationSignalsSaveThePlace(signal: Int32) throws {
        let book = try BookUnderTest.folder("Signal\(signal)", files: 1, seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let listener = try Listener(book, sink: sink)
        #expect(listener.event("trackStarted") != nil)
        // trackStarted comes when the first frame is heard; seen within a poll (10 ms).
        let began = monotonicSeconds()
        usleep(2_300_000)
        let sent = monotonicSeconds()
        listener.player.send(signal)
        let result = listener.player.wait(timeout: 10)
        #expect(result.terminatingSignal == nil, "\(result.summary)")
        let heard = sent - began
        let saved = try book.savedPosition()
        #expect(saved <= heard + 0.1 && saved > heard - 0.3, "saved \(saved) s, heard about \(heard) s")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.named("positionSaved").last?.seconds("position") == saved)
    }

    /// Acceptance 3: `kill -9` at a random moment of playback, 20 times, a restart
    /// each time. The state file always parses, and each restart resumes within
    /// 5 s of what had been heard, never after it.
    @Test(arguments: BookUnderTest.Form.allCases)
    func killedTwentyTimesAtRandomTheBookAlwaysResumesWithinFiveSecondsOfWhatWasHeard(_ form: BookUnderTest.Form) throws {
        let book = try BookUnderTest.folder("Killed-\(form)", files: 3, seconds: 30, form: form)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        var random = SeededGenerator(seed: 0x5EED_B00C)
        // What had been heard at the last kill: surely within `range`, and surely at least `atLeast`.
        var heardAtKill: (range: ClosedRange<Double>, atLeast: Double)?
        var resumes: [(heard: ClosedRange<Double>, resumed: Double)] = []
        var longRuns = 0
        for run in 0..<20 {
            let launched = monotonicSeconds()
            let listener = try Listener(book, sink: sink)
            let opened = try #require(listener.event("bookOpened"), "run \(run): \(listener.player.eventsSoFar().events)")
            let resumed = try #require(opened.seconds("position"))
            if let heard = heardAtKill {
                resumes.append((heard.range, resumed))
                #expect(resumed <= heard.range.upperBound && resumed >= heard.atLeast - 5,
                        "run \(run): resumed at \(resumed) s, had heard \(heard.range) s, at least \(heard.atLeast) s")
            }
            let playing = try #require(listener.event("trackStarted"), "run \(run)")
            // When an event was printed, on the test's clock, from its time on the
            // player's clock (which starts once the book and the device are open).
            // No earlier than: from the launch, before that clock started, so early
            // by the whole start-up (over a second under load). No later than: from
            // when the first heard frame's trackStarted was seen, up to a poll late.
            let seenPlaying = monotonicSeconds()
            func printedNoEarlierThan(_ event: InterludeEvent) -> Double { launched + event.t }
            func printedNoLaterThan(_ event: InterludeEvent) -> Double { seenPlaying + event.t - playing.t }
            usleep(UInt32(500_000 + UInt32(truncatingIfNeeded: random.next()) % 2_000_000))
            let events = listener.events
            let killed = monotonicSeconds()
            listener.player.send(SIGKILL)
            let result = listener.player.wait(timeout: 10)
            #expect(result.terminatingSignal == SIGKILL)
            #expect(!result.stderrText.contains("book state"), "run \(run): \(result.stderrText)")

            // What had been heard: at least the last position saved (saves are of heard
            // positions) plus the time since it was surely printed, at most that plus the
            // time since it may have been printed.
            let last = try #require(events.named("positionSaved").last)
            let lower = try #require(last.seconds("position"))
            let upper = lower + max(0, killed - printedNoEarlierThan(last))
            let atLeast = lower + max(0, killed - printedNoLaterThan(last))
            heardAtKill = (lower...upper, atLeast)
            // The file parses (a kill never leaves half a file) and holds a heard position.
            let saved = try book.savedPosition()
            #expect(saved >= lower && saved <= upper, "run \(run): saved \(saved), heard \(lower)...\(upper)")
            // Saved every second while playing: never more than that (and a turn of the
            // loop) behind what was surely heard. (Behind the upper bound, a slow start-up
            // would count: the bound would be the start-up's, not the saves'.)
            #expect(saved >= atLeast - 1.5, "run \(run): saved \(saved) s, but \(atLeast) s was heard")
            if killed - printedNoLaterThan(playing) > 2 { longRuns += 1 }
        }
        #expect(resumes.count == 19)
        // Enough runs played long enough that a missing periodic save would show.
        #expect(longRuns >= 3, "only \(longRuns) runs played over 2 s")
    }
}
