import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// While the player waits for a station that
/// dropped, it serves the listener. In the full-screen player (tmux), with
/// the Icecast server killed mid-play: the reconnect line is on the screen,
/// a key is answered (`A` asks for an alarm's delay), the alarm it sets rings
/// and is dismissed, and once the server is back the station plays again,
/// heard in the null sink's capture. A station with no title is shown by
/// its name throughout.
@Suite(.serialized) struct StreamFaultServiceTests {
    /// The now-playing pane's first line.
    static func nowPlaying(_ screen: String) -> String? {
        let rows = TUISession.rows(screen)
        return rows.firstIndex { $0.hasPrefix(" 3 Now playing") }.flatMap { rows.indices.contains($0 + 1) ? rows[$0 + 1] : nil }
    }

    static func elapsed(_ runtime: String) -> Double? {
        (try? Remote.status(runtime))?["elapsed"] as? Double
    }

    @Test("while a dropped station is retried, a key is answered and an alarm rings and is dismissed; the station plays again once its server is back")
    func keysAndAlarmsAreServedWhileAStationReconnects() throws {
        let server = try IcecastServer.start()
        let wav = try Fixtures.wav(.tone(frequency: 440), seconds: 120)
        try server.startSource(mount: "radio.mp3", wav: wav, format: .mp3, name: "Interlude Test Radio")
        let url = server.url("radio.mp3")
        let session = try TUISession(columns: 120, rows: 32, arguments: [url])
        let connected = session.waitFor("streamConnected", timeout: 30)
        #expect(connected.met, "\(connected.screen)")
        // The mount sends an empty StreamTitle: the station is shown by its name, not as "nothing playing",
        // and the browser opens where the player started (a URL has no folder to read).
        let named = session.waitFor { Self.nowPlaying($0)?.hasPrefix(" Interlude Test Radio") == true }
        #expect(named.met, "\(named.screen)")
        #expect(!named.screen.contains("cannot read folder"), "\(named.screen)")
        let port = server.port
        server.stop()
        let retrying = session.waitFor("reconnecting to Interlude Test Radio, attempt", timeout: 30)
        #expect(retrying.met, "\(retrying.screen)")

        // A key while it waits: the alarm prompt, answered.
        try session.press("A")
        let asked = session.waitFor("alarm in how many seconds?")
        #expect(asked.met, "\(asked.screen)")
        try session.type("2")
        try session.press("Enter")
        let rang = session.waitFor(20) { $0.contains("alarmRinging") && $0.contains("alarm ringing") }
        #expect(rang.met, "\(rang.screen)")
        // Still waiting for the station: the alarm rang while no station's server answered.
        #expect(!server.isRunning, "the server came back before the alarm rang")
        try session.press("x")
        let dismissed = session.waitFor(15) { $0.contains("alarmEnded reason=dismissed") && !$0.contains("alarm ringing") }
        #expect(dismissed.met, "\(dismissed.screen)")

        let recorder = try session.sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let before = Self.elapsed(session.runtimeDirectory) ?? 0
        let again = try IcecastServer.start(port: port)
        defer { again.stop() }
        try again.startSource(mount: "radio.mp3", wav: wav, format: .mp3, name: "Interlude Test Radio")
        // Playing again: the heard position moves on by seconds, and the tone is in the capture.
        let playing = Remote.waitUntil(60) { (Self.elapsed(session.runtimeDirectory) ?? 0) > before + 3 }
        #expect(playing, "elapsed stayed at \(String(describing: Self.elapsed(session.runtimeDirectory))) from \(before): \(session.screen())")
        let heard = try recorder.stop()
        let lastSecond = SignalAnalysis.rms(heard, frames: max(0, heard.frameCount - heard.sampleRate)..<heard.frameCount)
        #expect(SignalAnalysis.dBFS(lastSecond) > -30, "the last second of \(heard.frameCount) frames: \(SignalAnalysis.dBFS(lastSecond)) dBFS")
        try session.press("q")
    }
}
