import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26, points 1 and 2, headless: `interlude play URL` opens a station
/// where a file is taken (a reader thread per stream, the decoding on the
/// loop), plays it through the private PulseAudio server's null sink, and
/// reports the station's ICY titles as `streamTitle` events.
@Suite(.serialized) struct StreamPlaybackTests {
    typealias Player = PulseOutputTests.Player

    /// The stream's events: `name` events whose `key` field is `value`.
    static func hasEvent(_ player: Player, _ name: String, _ key: String, _ value: String) -> Bool {
        player.process.eventsSoFar().named(name).contains { $0.fields[key]?.description == value }
    }

    static func waitForEvent(_ player: Player, _ name: String, _ key: String, _ value: String, timeout: Double = 20) -> Bool {
        player.process.waitForEvent(timeout: timeout) { $0.event == name && $0.fields[key]?.description == value } != nil
    }

    /// MP3 and AAC mounts carry ICY titles; an Ogg mount's titles would be
    /// comment headers in the stream itself, which Icecast's admin call does
    /// not write for Opus: that mount is checked for its sound and name only.
    @Test("an Icecast station plays through the null sink, with its name, its title and a title changed by the admin call",
          arguments: [IcecastServer.SourceFormat.mp3, .aac, .opus])
    func anIcecastStationPlaysWithItsTitles(format: IcecastServer.SourceFormat) throws {
        let titled = format != .opus
        let server = try IcecastServer.start()
        defer { server.stop() }
        let mount = "radio.\(format)"
        try server.startSource(mount: mount, wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: format,
                               name: "Interlude Test Radio")
        if titled { try server.setTitle("First Artist - First Title", mount: mount) }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let url = server.url(mount)
        let player = try Player([url, "--device", "pulse"], sink: sink)
        #expect(Self.waitForEvent(player, "streamConnected", "url", url), "\(player.process.eventsSoFar().events)")
        let connected = player.process.eventsSoFar().named("streamConnected").first
        #expect(connected?.fields["station"]?.description == "Interlude Test Radio", "\(String(describing: connected))")
        if titled {
            #expect(Self.waitForEvent(player, "streamTitle", "title", "First Artist - First Title"),
                    "\(player.process.eventsSoFar().events)")
            try server.setTitle("Second: été à Zürich", mount: mount)
            #expect(Self.waitForEvent(player, "streamTitle", "title", "Second: été à Zürich"),
                    "\(player.process.eventsSoFar().events)")
            // The socket's status says the same title is playing.
            let status = try player.remote(["status"])
            #expect(status.succeeded && status.stdoutText.contains("Second: été à Zürich"), "\(status.summary)")
        } else {
            // Seconds of it played, whatever its titles.
            usleep(3_000_000)
        }
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let heard = try recorder.stop()
        // A 440 Hz tone at the source's level: well above silence for seconds of the capture.
        let loud = SignalAnalysis.rms(heard)
        #expect(SignalAnalysis.dBFS(loud) > -30, "capture level \(SignalAnalysis.dBFS(loud)) dBFS over \(heard.frameCount) frames")
        let problems = player.process.eventsSoFar().named("error") + player.process.eventsSoFar().named("underrun")
        #expect(problems.isEmpty, "\(problems)")
    }
}
