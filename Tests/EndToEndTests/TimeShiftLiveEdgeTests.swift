import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Go-live, and a station without a buffer
/// (`time-shift = off`). Set-up and measurement: `TimeShiftTests`.
@Suite(.serialized) struct TimeShiftLiveEdgeTests {
    typealias Shift = TimeShiftTests
    typealias Rig = TimeShiftTests.Rig

    /// Acceptance 4, go-live: paused 20 s, resumed 20 s behind live, then
    /// `go-live`: the station jumps to the live edge of what the server sends.
    ///
    /// Measured in the capture against the source: the jump (the source's
    /// place less the capture's, after go-live against before it) is how far
    /// behind live the status said the station was, within 0.5 s (the
    /// packets' arrival, a few tens of ms, and the time between the status
    /// and the command, the same for both while it plays); and the place heard
    /// after it is the server's real-time edge: the source plays in real time
    /// from the moment `ffmpeg -re` started and the capture from the moment
    /// parec started, so the edge at capture frame c is source frame c +
    /// (recorder start - source start); the station is heard behind that by
    /// Icecast's burst on connect (64 KiB, 4.1 s at 128 kbit/s, which every
    /// listener receives late) and at most 2 s more (the encoder, the output,
    /// and the two start times taken around process starts).
    @Test("go-live: a station heard 20 s behind live jumps to the server's live edge")
    func goLiveJumpsToTheLiveEdge() throws {
        let rig = try Rig.start()
        defer { rig.stop() }
        let player = try rig.player()
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        #expect(try Shift.hear(player, seconds: 4))
        player.type("pause")
        #expect(player.waitFor("paused"))
        #expect(try Shift.waitForStatus(player, timeout: 60) { (Shift.number($0, "behindLive") ?? 0) >= 20 } != nil)
        player.type("play")
        #expect(player.waitFor("resumed"))
        #expect(try Shift.hear(player, seconds: 4))
        let shifted = try Shift.status(player)
        let behindBefore = Shift.number(shifted, "behindLive") ?? 0
        #expect(behindBefore >= 19, "\(shifted)")
        let live = try player.remote(["go-live"])
        #expect(live.succeeded, "\(live.summary)")
        let atLive = try Shift.waitForStatus(player, timeout: 10) { (Shift.number($0, "behindLive") ?? 99) < 1 }
        #expect(atLive?["timeShift"] as? String == "live", "\(String(describing: atLive))")
        #expect(try Shift.hear(player, seconds: 5))
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")

        let heard = try rig.recorder.stop()
        let reference = try WAVFile.read(rig.source)
        // Time-shifted: 3 s just after the pause's silence.
        let pause = try #require(SignalAnalysis.longestSilentRun(heard, threshold: Shift.quiet))
        let shiftedWindow = (pause.upperBound + Shift.rate / 20)..<(pause.upperBound + Shift.rate / 20 + 3 * Shift.rate)
        let shiftedOffset = Shift.place(heard, shiftedWindow, in: reference) - shiftedWindow.lowerBound
        // Live: the last 3 s of station in the capture (before the quit's silence, if any).
        let end = try #require(SignalAnalysis.signalBounds(heard, threshold: Shift.quiet)).upperBound - Shift.rate / 2
        let lastWindow = (end - 3 * Shift.rate)..<end
        let expected = shiftedOffset + lastWindow.lowerBound + Int(behindBefore * Double(Shift.rate))
        let placed = Shift.place(heard, lastWindow, in: reference, near: expected)
        let jump = Double(placed - lastWindow.lowerBound - shiftedOffset) / Double(Shift.rate)
        #expect(abs(jump - behindBefore) <= 0.5, "go-live jumped \(jump) s; the status said \(behindBefore) s behind live")
        let liveEdge = lastWindow.lowerBound + Int(rig.recorderStarted.timeIntervalSince(rig.sourceStarted) * Double(Shift.rate))
        let behindEdge = Double(liveEdge - placed) / Double(Shift.rate)
        #expect(behindEdge >= -0.5 && behindEdge <= 4.1 + 2, "after go-live, \(behindEdge) s behind the server's real-time edge")
    }


    /// `time-shift = off`: the pause's resume is live, said in one line.
    /// A station's title follows the audio heard. One sent while the
    /// station is paused shows when its audio plays, not when it came; a
    /// seek back in the buffer to before it shows the title of that moment
    /// again, and playing on past it shows it again. Paused about 10 s, the
    /// title sent 5 s into the pause. (It shows as far behind its arrival as
    /// the station is behind where it would be unpaused: Icecast puts it in
    /// at the next block, up to 1 s after the admin call, and FFmpeg reads it
    /// with the bytes ahead of the packet it demuxes, up to 2 s at 128
    /// kbit/s, so it shows 3 to 6 s into the resumed audio; 1 s is the bound
    /// kept.)
    @Test("a title sent while the station is paused shows when its audio plays, and a seek back shows the one before")
    func aTitleSentWhilePausedShowsWhenItsAudioPlays() throws {
        let rig = try Rig.start()
        defer { rig.stop() }
        try rig.server.setTitle("Before the Pause", mount: "radio.mp3")
        let player = try rig.player()
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        func titled(_ title: String) throws -> [String: Any]? {
            try Shift.waitForStatus(player, timeout: 30) { $0["title"] as? String == title }
        }
        func titles() -> [String] { player.process.eventsSoFar().named("streamTitle").compactMap { $0.fields["title"]?.description } }
        #expect(try titled("Before the Pause") != nil, "\(titles())")
        #expect(try Shift.hear(player, seconds: 2))
        player.type("pause")
        #expect(player.waitFor("paused"))
        let pausedAt = try #require(Shift.number(try Shift.status(player), "elapsed"))
        usleep(5_000_000)
        try rig.server.setTitle("During the Pause", mount: "radio.mp3")
        // Received meanwhile, into the buffer: not heard, so not shown.
        #expect(try Shift.waitForStatus(player, timeout: 60) { (Shift.number($0, "behindLive") ?? 0) >= 10 } != nil)
        #expect(!titles().contains("During the Pause"), "shown while paused: \(titles())")
        #expect(try Shift.status(player)["title"] as? String == "Before the Pause")
        player.type("play")
        #expect(player.waitFor("resumed"))
        let shown = try #require(try titled("During the Pause"), "never shown: \(titles())")
        let heardAt = try #require(Shift.number(shown, "elapsed"))
        #expect(heardAt - pausedAt > 1, "shown \(heardAt - pausedAt) s into the resumed audio")
        // Back in the buffer to a second before the pause (the buffer holds the
        // seconds heard before it), and on past the title again.
        let back = try player.remote(["seek", "-\(Int((heardAt - pausedAt).rounded(.up)) + 1)"])
        #expect(back.succeeded, "\(back.summary)")
        #expect(try titled("Before the Pause") != nil, "\(titles())")
        #expect(try titled("During the Pause") != nil, "\(titles())")
        // On failure, every event with its time: a title shown again says why only beside them.
        #expect(titles() == ["Before the Pause", "During the Pause", "Before the Pause", "During the Pause"],
                "\(titles()) in \(player.process.eventsSoFar().events)")
        player.type("quit")
        #expect(player.process.wait(timeout: 10).succeeded)
    }

    @Test("time-shift = off: a paused station resumes live, with a line")
    func withoutABufferTheResumeIsLive() throws {
        let rig = try Rig.start(config: "time-shift = off\n")
        defer { rig.stop() }
        let player = try rig.player()
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        #expect(try Shift.hear(player, seconds: 4))
        player.type("pause")
        #expect(player.waitFor("paused"))
        let pausedAt = Date()
        // Paused for 15 s of the scenario.
        usleep(15_000_000)
        let paused = Date().timeIntervalSince(pausedAt)
        player.type("play")
        #expect(player.waitFor("resumed"))
        #expect(player.process.waitForEvent(timeout: 10) { $0.event == "timeShift" && $0.message?.contains("time-shift is off") == true } != nil,
                "\(player.process.eventsSoFar().events)")
        #expect(try Shift.hear(player, seconds: 5))
        // Refused in one line: no buffer to seek in.
        let seek = try player.remote(["seek", "-5"])
        #expect(!seek.succeeded && seek.stderrText.contains("time-shift = off"), "\(seek.summary)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")

        let heard = try rig.recorder.stop()
        let resume = try Shift.resume(heard, source: try WAVFile.read(rig.source), minimum: 10 * Shift.rate)
        // Live: the source ran on through the pause, and the resume skipped all of it (less
        // the time the player was behind the live edge before, at most the server's burst).
        let skipped = Double(resume.skipped) / Double(Shift.rate)
        #expect(skipped >= paused - 1 && skipped <= paused + 6, "skipped \(skipped) s of a \(paused) s pause")
    }

}
