import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player on a machine without a usable
/// sound device. The ALSA `pulse` device is pointed at a private PulseAudio
/// socket where no server runs yet, so opening it fails as it does without a
/// sound server; the server is started on that socket later, and play plays.
@Suite(.serialized) struct NoSoundCardTests {
    /// Where a private server will listen, before it runs: the variables its
    /// clients need (as `PulseServer.environment`), autospawn off.
    static func absentServer() throws -> (directory: String, environment: [String: String]) {
        let directory = ScratchFiles.makeDirectory("pulse-later")
        chmod(directory, 0o700)
        try "autospawn = no\n".write(toFile: directory + "/client.conf", atomically: true, encoding: .utf8)
        return (directory, [
            "PULSE_SERVER": "unix:\(directory)/pulse/native",
            "PULSE_RUNTIME_PATH": "\(directory)/pulse",
            "PULSE_COOKIE": "\(directory)/cookie",
            "PULSE_CLIENTCONFIG": "\(directory)/client.conf",
            "PULSE_SINK": "out",
        ])
    }

    @Test("point 7: no device at start: the screen opens with the device's error in the banner; browse, alarms and books work; play fails with the reason until the server is up, then plays")
    func startsWithoutADeviceAndPlaysOnceThereIsOne() throws {
        let made = try BookUnderTest.folder("Waiting Book", files: 2, seconds: 20)
        // State kept outside the browsed folder, so that it lists the book alone.
        let book = BookUnderTest(path: made.path, stateHome: ScratchFiles.makeDirectory("no-card-state"))
        let root = (book.path as NSString).deletingLastPathComponent
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 30)
        let (directory, pulse) = try Self.absentServer()
        var environment = book.environment
        for (key, value) in pulse { environment[key] = value }
        let session = try TUISession(columns: 120, rows: 40, arguments: [music, root], environment: environment)

        // The screen, with the device's own error on the banner line, and the run still going.
        let waiting = session.waitFor { Self.bannerLine($0).contains("audio device 'pulse'") }
        #expect(waiting.met, "\(waiting.screen)")
        #expect(Self.bannerLine(waiting.screen).hasPrefix(" audio paused — press space to resume ("), "\(waiting.screen)")
        #expect(!waiting.screen.contains("EXITED"))
        Self.expectStateWord("paused", on: session)

        // Play with no server: the reason, and still paused.
        try session.press("Space")
        let refused = session.waitFor("resumeFailed reason=audio device 'pulse'")
        #expect(refused.met, "\(refused.screen)")
        Self.expectStateWord("paused", on: session)

        // Browse: into the book's folder and back out (the cursor stays on it).
        // The top row is the way up (.., above the folder started in too); the book's folder is below it.
        try session.press("1", "g", "Down", "Enter")
        let inside = session.waitFor { $0.contains(" ..") && $0.contains("Part 1") && $0.contains("Part 2") }
        #expect(inside.met, "\(inside.screen)")
        try session.press("g", "Enter")
        #expect(session.waitFor { !$0.contains("Part 1") && $0.contains("Waiting Book/") }.met, "\(session.screen())")
        // Books: b opens it (a new run, still without a device: the banner says so again).
        try session.press("b")
        let opened = session.waitFor { $0.contains("bookOpened") && $0.contains("chapter 1/2") }
        #expect(opened.met, "\(opened.screen)")
        #expect(session.waitFor { Self.bannerLine($0).contains("audio device 'pulse'") }.met, "\(session.screen())")
        // Alarms: a clock-time alarm is added and listed.
        try session.press("o")
        #expect(session.waitFor("new alarm (07:30, in 10m):").met, "\(session.screen())")
        try session.type("07:30")
        try session.press("Enter")
        #expect(session.waitFor("#1 on ").met, "\(session.screen())")
        try session.press("6")
        #expect(session.waitFor { $0.contains(" 6 Books") && $0.contains("Waiting Book") }.met, "\(session.screen())")

        // The sound server comes; the user's play opens the device and the book plays from its start.
        let server = try PulseServer.start(runtimeDirectory: directory)
        defer { server.stop() }
        let recorder = try server.defaultSink.startRecorder()
        try session.press("Space")
        let playing = session.waitFor { $0.contains("▶ playing") && (TUISession.elapsed($0) ?? 0) >= 2 }
        #expect(playing.met, "\(playing.screen)")
        #expect(!Self.bannerLine(playing.screen).contains("audio paused"), "\(playing.screen)")
        Self.expectStateWord("playing", on: session)
        // No rewind for the time spent waiting: nothing had been heard.
        let resumed = TUISession.logLines(playing.screen, containing: "resumed position=").last ?? ""
        #expect(Self.number(after: "position=", in: resumed) == 0 && Self.number(after: "rewind=", in: resumed) == 0,
                "\(resumed)")
        usleep(500_000)
        let heard = try recorder.stop()
        #expect(SignalAnalysis.dBFS(SignalAnalysis.rms(heard)) > -40, "the server heard nothing: \(heard)")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met, "\(session.screen())")
    }

    /// The row under the title: the banner's.
    static func bannerLine(_ screen: String) -> String {
        let rows = TUISession.rows(screen)
        return rows.count > 1 ? rows[1] : ""
    }

    static func number(after key: String, in line: String) -> Double? {
        guard let range = line.range(of: key) else { return nil }
        return line[range.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    }

    /// The status line's state word (the last row but one starts with it).
    static func expectStateWord(_ word: String, on session: TUISession, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = session.waitFor(5) { screen in
            let rows = TUISession.rows(screen)
            return rows.count >= 2 && rows[rows.count - 2].hasPrefix(" \(word) ·")
        }
        #expect(shown.met, "state word is not \(word):\n\(shown.screen)", sourceLocation: sourceLocation)
    }
}
