import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The favourite stations, kept in
/// `$XDG_DATA_HOME/interlude/stations.m3u`, edited through `interlude remote
/// station ...` against a running player that plays a real Icecast station,
/// by two players at once, and in the full-screen player's radio pane (R).
@Suite(.serialized) struct StationFavouritesTests {
    typealias Player = PulseOutputTests.Player

    static func stationsFile(_ data: String) -> String { "\(data)/interlude/stations.m3u" }

    /// An Icecast server with two MP3 mounts: radio.mp3 ("Interlude Test Radio", 440 Hz) and other.mp3 ("Other Radio", 660 Hz).
    static func twoStations() throws -> IcecastServer {
        let server = try IcecastServer.start()
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 120), format: .mp3,
                               name: "Interlude Test Radio")
        try server.startSource(mount: "other.mp3", wav: Fixtures.wav(.tone(frequency: 660), seconds: 120), format: .mp3,
                               name: "Other Radio")
        return server
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("remote station add (the playing stream, under its ICY name), list, rename, play, remove; refusals named")
    func remoteStationCommands() throws {
        let server = try Self.twoStations()
        defer { server.stop() }
        let data = ScratchFiles.makeDirectory("stations-data")
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let url = server.url("radio.mp3")
        let other = server.url("other.mp3")
        let player = try Player([url, "--device", "pulse"], sink: sink, environment: ["XDG_DATA_HOME": data])
        #expect(StreamPlaybackTests.waitForEvent(player, "streamConnected", "url", url), "\(player.process.eventsSoFar().events)")

        let added = try player.remote(["station", "add"])
        #expect(added.succeeded && added.stdoutText == "station 1: Interlude Test Radio\n", "\(added.summary)")
        let typed = try player.remote(["station", "add", other, "Evening", "Tones"])
        #expect(typed.succeeded && typed.stdoutText == "station 2: Evening Tones\n", "\(typed.summary)")
        #expect(Self.text(Self.stationsFile(data))
                == "#EXTM3U\n#EXTINF:-1,Interlude Test Radio\n\(url)\n#EXTINF:-1,Evening Tones\n\(other)\n")

        let again = try player.remote(["station", "add", url])
        #expect(again.exitStatus == 1 && again.stderrText.contains("\(url) is station 1 already"), "\(again.summary)")
        let local = try player.remote(["station", "add", "file:///etc/passwd"])
        #expect(local.exitStatus == 1 && local.stderrText.contains("a file: URL is a local file, not a station"), "\(local.summary)")

        let renamed = try player.remote(["station", "rename", "1", "Night Radio"])
        #expect(renamed.succeeded && renamed.stdoutText == "station 1 is now Night Radio\n", "\(renamed.summary)")
        let list = try player.remote(["station", "list"])
        #expect(list.stdoutText == "1. Night Radio  \(url)\n2. Evening Tones  \(other)\n", "\(list.summary)")
        let json = try player.remote(["station", "list", "--json"])
        #expect(json.stdoutText == "[{\"name\":\"Night Radio\",\"number\":1,\"url\":\"\(url)\"},"
                + "{\"name\":\"Evening Tones\",\"number\":2,\"url\":\"\(other)\"}]\n", "\(json.summary)")

        let played = try player.remote(["station", "play", "2"])
        #expect(played.succeeded && played.stdoutText == "playing Evening Tones\n", "\(played.summary)")
        #expect(StreamPlaybackTests.waitForEvent(player, "streamConnected", "url", other), "\(player.process.eventsSoFar().events)")
        let missing = try player.remote(["station", "play", "3"])
        #expect(missing.exitStatus == 1 && missing.stderrText.contains("no station 3: the list has 2 (1 to 2)"), "\(missing.summary)")

        let removed = try player.remote(["station", "remove", "1"])
        #expect(removed.succeeded && removed.stdoutText == "removed the station Night Radio\n", "\(removed.summary)")
        #expect(Self.text(Self.stationsFile(data)) == "#EXTM3U\n#EXTINF:-1,Evening Tones\n\(other)\n")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }

    @Test("two players adding stations to one file at the same moment: every station of both is kept")
    func twoPlayersAddAtOnce() throws {
        let data = ScratchFiles.makeDirectory("stations-two")
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 120)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        nonisolated(unsafe) let players = try (0..<2).map { _ in try Player([music, "--device", "pulse"], sink: sink, environment: ["XDG_DATA_HOME": data]) }
        for player in players { #expect(player.waitFor("trackStarted")) }
        let count = 12
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<count {
                let result = try? players[writer].remote(["station", "add", "http://radio\(writer).invalid/\(index)", "P\(writer)-\(index)"])
                if result?.succeeded != true { failures.append(result?.summary ?? "did not run") }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let listed = try players[0].remote(["station", "list", "--json"])
        let names = Set(Self.text(Self.stationsFile(data)).split(separator: "\n").filter { $0.hasPrefix("#EXTINF:-1,") }
            .map { String($0.dropFirst("#EXTINF:-1,".count)) })
        let expected = Set((0..<2).flatMap { writer in (0..<count).map { "P\(writer)-\($0)" } })
        #expect(names == expected, "\(Self.text(Self.stationsFile(data)))")
        #expect(expected.allSatisfy { listed.stdoutText.contains("\"\($0)\"") }, "\(listed.summary)")
        for player in players { player.type("quit") }
        for player in players { #expect(player.process.wait(timeout: 10).succeeded) }
    }

    /// Lines from threads, for one look at the end.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test("the radio pane (R): f adds the playing station, F a typed URL, C renames, X removes, enter plays")
    func radioPane() throws {
        let server = try Self.twoStations()
        defer { server.stop() }
        let url = server.url("radio.mp3")
        let other = server.url("other.mp3")
        let data = ScratchFiles.makeDirectory("stations-pane")
        let session = try TUISession(columns: 120, rows: 40, arguments: [url], environment: ["XDG_DATA_HOME": data])
        // The station's name on screen: it plays.
        #expect(session.waitFor { $0.contains("Interlude Test Radio") }.met, "\(session.screen())")

        try session.press("R")
        #expect(session.waitFor { $0.contains("R Radio (0)") && $0.contains("no stations yet") }.met, "\(session.screen())")
        try session.press("f")
        // The pane is 48 columns wide at 120: the URL is cut there; the file holds it whole.
        let added = session.waitFor { $0.contains("station 1: Interlude Test Radio") && $0.contains("1. Interlude Test Radio  http://127") }
        #expect(added.met, "\(added.screen)")
        #expect(Self.text(Self.stationsFile(data)) == "#EXTM3U\n#EXTINF:-1,Interlude Test Radio\n\(url)\n")

        try session.press("F")
        #expect(session.waitFor("add the station at URL").met, "\(session.screen())")
        try session.type(other)
        try session.press("Enter")
        // No name given: its stream's (the server's icy-name), asked for in the background.
        let typed = session.waitFor { $0.contains("R Radio (2)") && $0.contains("2. Other Radio  http://127") }
        #expect(typed.met, "\(typed.screen)")
        #expect(Self.text(Self.stationsFile(data)).hasSuffix("#EXTINF:-1,Other Radio\n\(other)\n"))

        try session.press("Down")
        try session.press("C")
        #expect(session.waitFor("rename the station to: Other Radio").met, "\(session.screen())")
        // The pre-filled name is selected: backspace clears it whole.
        try session.press("BSpace")
        try session.type("Evening Tones")
        try session.press("Enter")
        let renamed = session.waitFor { $0.contains("station 2 is now Evening Tones") && $0.contains("2. Evening Tones  http://127") }
        #expect(renamed.met, "\(renamed.screen)")
        #expect(Self.text(Self.stationsFile(data)).hasSuffix("#EXTINF:-1,Evening Tones\n\(other)\n"))

        try session.press("Enter")
        // Enter plays the selection: the other mount connects (its ICY name in the event log).
        let playing = session.waitFor { $0.contains("playing Evening Tones") && $0.contains("station=Other Radio") }
        #expect(playing.met, "\(playing.screen)")

        try session.press("Up")
        try session.press("X")
        let removed = session.waitFor { $0.contains("removed the station Interlude Test Radio") && $0.contains("R Radio (1)") }
        #expect(removed.met, "\(removed.screen)")
        #expect(Self.text(Self.stationsFile(data)) == "#EXTM3U\n#EXTINF:-1,Evening Tones\n\(other)\n")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
