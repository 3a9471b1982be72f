import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The player's output into a real snapserver's pipe source, heard in three
/// rooms: real snapclients playing to raw files, each set on the monotonic
/// clock by when its blocks were written (`CaptureClock`).
@Suite(.serialized) struct SnapcastRoomsTests {
    static let rate = 48000
    static let rooms = ["kitchen", "bedroom", "hall"]

    /// The queue as the rooms must hear it: two MP3s cut from one tone, each
    /// decoded by mpg123, one after the other.
    static func gaplessQueue() throws -> (files: [String], reference: PCMAudio, cut: Int) {
        let pair = try Fixtures.gaplessPair(.sweep, firstSeconds: 3, secondSeconds: 3, sampleRate: rate, channels: 2)
        let first = try WAVFile.read(Fixtures.decodedByMPG123(pair.first))
        let second = try WAVFile.read(Fixtures.decodedByMPG123(pair.second))
        return ([pair.first, pair.second], first.appending(second), first.frameCount)
    }

    @Test func threeRoomsHearTheQueueSampleForSampleGaplessAndInStep() throws {
        let queue = try Self.gaplessQueue()
        let server = try SnapcastServer.start(rate: Self.rate)
        let clients = try Self.rooms.map { try server.startClient($0) }
        let clock = CaptureClock(clients)
        defer { clock.stop() }
        let run = try InterludeBinary.run(["play"] + queue.files + ["--device", server.device, "--events", "json"],
                                          environment: try Self.playerEnvironment(), timeout: 60)
        // The last frames reach the rooms a buffer after the player ended; a little more for the file player.
        usleep(300_000)
        for client in clients { client.stop() }
        clock.stop()
        #expect(run.succeeded, "\(run.summary)")
        let events = EventLog(stdout: run.stdoutText)
        #expect(events.named("error").isEmpty, "\(events.named("error"))")
        #expect(events.underrunCount == 0, "\(events.named("underrun"))")

        var heardAt: [[Double]] = []
        for (index, client) in clients.enumerated() {
            let capture = client.captured()
            // Where the queue starts, by its first second alone: over the whole queue a client's corrections (a
            // frame repeated or left out) throw a sweep's correlation off. The exact check follows.
            let alignment = SignalAnalysis.align(reference: queue.reference.frames(0..<Self.rate), signal: capture,
                                                 minimumOverlap: 0.99)
            #expect(alignment.correlation > 0.9, "\(client.name): \(alignment), \(capture.frameCount) frames")
            let heard = capture.frames(alignment.lag..<capture.frameCount)
            // Every sample of both files, in order, across the join: nothing lost or changed, but
            // for the frames the client itself repeats or leaves out to keep in step.
            let match = SignalAnalysis.matchAllowingClientCorrections(expected: queue.reference, actual: heard)
            let starved = events.named("starved").count
            #expect(match.unexplained == nil && match.matchedFrames == queue.reference.frameCount,
                    "\(client.name): \(match); the player starved \(starved) time(s); the server's log ends: \(server.logTail(6))")
            #expect(Self.withinClientCorrections(match, seconds: queue.reference.durationSeconds), "\(client.name): \(match)")
            let join = heard.frames((queue.cut - Self.rate / 100)..<(queue.cut + Self.rate / 100))
            #expect(SignalAnalysis.longestSilentRun(join, threshold: 0).map(\.count) ?? 0 < 8,
                    "\(client.name): a gap at the track change")
            heardAt.append(try Self.whenHeard(capture, from: alignment.lag, queue: queue.reference, clock: clock, room: index))
        }
        // How far apart the rooms hear each second's mark; in step: the median within 1 ms. (One mark alone
        // can catch a room amid its own correction: at normal priority beside three other test processes
        // the first mark has been 3-8 ms out in one room while the others agreed within 20 µs.)
        let spreads = heardAt[0].indices.map { mark in
            (heardAt.map { $0[mark] }.max()! - heardAt.map { $0[mark] }.min()!) * 1000
        }
        let median = spreads.sorted()[spreads.count / 2]
        #expect(median <= 1, "the rooms hear each second of the queue \(spreads) ms apart")
    }

    /// When a room heard each whole second of `queue` (on the monotonic
    /// clock), the queue starting at `capture`'s frame `start`: each second's
    /// first quarter found by cross-correlation near where it should be, so a
    /// client's corrections before it are counted.
    static func whenHeard(_ capture: PCMAudio, from start: Int, queue: PCMAudio, clock: CaptureClock, room: Int) throws
        -> [Double] {
        let window = rate / 4
        let slack = rate / 10
        return try stride(from: 0, to: queue.frameCount - window, by: rate).map { mark in
            let sliceStart = max(0, start + mark - slack)
            let slice = capture.frames(sliceStart..<min(capture.frameCount, start + mark + window + slack))
            let found = SignalAnalysis.align(reference: queue.frames(mark..<(mark + window)), signal: slice, minimumOverlap: 0.99)
            #expect(found.correlation > 0.9, "room \(room), second \(mark / rate): \(found)")
            return try #require(clock.time(room, frame: sliceStart + found.lag), "room \(room): no block times seen")
        }
    }

    /// What a client does on its own to keep in step (`ClientCorrectedMatch`):
    /// frames repeated or left out, at most 25 ms in all. The player's output
    /// cannot add or lose a frame (the writer takes the ring in order); what it
    /// could do wrong, a pipe run dry, is the server's silence, which no
    /// correction explains.
    static func withinClientCorrections(_ match: ClientCorrectedMatch, seconds: Double) -> Bool {
        abs(match.corrections.reduce(0, +)) <= rate / 40
    }

    /// The player's folders, private to the test: its runtime folder (the
    /// socket), its config (`config` added to it) and its state. Other
    /// programs' streams on a desktop sound server are no concern of these
    /// tests (the machine has none: no line about it either).
    static func playerEnvironment(config: String = "") throws -> [String: String] {
        let runtime = try Remote.makeRuntimeDirectory()
        let home = ScratchFiles.makeDirectory("snapcast-player")
        try FileManager.default.createDirectory(atPath: home + "/config/interlude", withIntermediateDirectories: true)
        try ("desktop-interruptions = off\n" + config).write(toFile: home + "/config/interlude/config", atomically: true,
                                                            encoding: .utf8)
        return ["XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state"]
    }

    /// A player feeding `server` in the background, its socket in a private
    /// runtime folder, its events as JSON on its standard output.
    static func startPlayer(_ files: [String], server: SnapcastServer, extra: [String] = [], config: String = "") throws
        -> (process: BackgroundProcess, runtime: String) {
        let environment = try playerEnvironment(config: config)
        let runtime = environment["XDG_RUNTIME_DIR"]!
        let process = try InterludeBinary.start(["play"] + files + ["--device", server.device, "--events", "json"] + extra,
                                                environment: environment)
        #expect(Remote.waitForPlayer(runtime), "the player's socket never answered")
        return (process, runtime)
    }

    @Test func anAlarmSilencesEveryRoomWithinTheBufferAndTheMusicGoesOnFromTheSampleTheyLastHeard() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 14, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 192))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let server = try SnapcastServer.start(rate: Self.rate)
        let clients = try Self.rooms.map { try server.startClient($0) }
        let clock = CaptureClock(clients)
        defer { clock.stop() }
        let player = try Self.startPlayer([mp3], server: server)
        let control = try RawControlConnection(player.runtime + "/interlude/control")
        _ = player.process.waitForEvent(named: "trackStarted", timeout: 10)
        usleep(3_000_000)
        let due = monotonicSeconds()
        #expect(control.request(#"{"id":1,"command":"alarm-fire-test"}"#)?["ok"] as? Bool == true)
        usleep(2_500_000)
        #expect(control.request(#"{"id":2,"command":"alarm-dismiss"}"#)?["ok"] as? Bool == true)
        let finished = player.process.waitForEvent(named: "finished", timeout: 30)
        usleep(300_000)
        for client in clients { client.stop() }
        clock.stop()
        let events = player.process.eventsSoFar()
        _ = player.process.stop()
        #expect(finished != nil, "the player did not finish: \(events.events.suffix(5))")
        #expect(events.named("error").isEmpty, "\(events.named("error"))")
        #expect(events.underrunCount == 0, "\(events.named("underrun"))")
        // The same events as on one machine: the interruption's began and ended, paused and resumed at one place.
        let paused = try #require(events.named("paused").first?.number("position"))
        let resumed = try #require(events.named("resumed").first?.number("position"))
        #expect(resumed == paused)
        #expect(!events.named("interruption").isEmpty)
        let requested = try #require(events.named("pauseRequested").first?.number("position"))
        let requestedAt = due + ((events.named("pauseRequested").first?.t ?? 0) - (events.named("alarmRinging").first?.t ?? 0))
        let stop = Int((paused * Double(Self.rate)).rounded())
        let fade = Self.rate * 30 / 1000

        for (index, client) in clients.enumerated() {
            let capture = client.captured()
            let heard = try Self.musicAroundTheStop(capture, source: source, stop: stop, fade: fade, client: client)
            // Silent (the music's fade ended) within the server's buffer and 100 ms of the alarm's due time.
            let silentAt = try #require(clock.time(index, frame: heard.musicEnd), "\(client.name): no block times")
            // What the player said the rooms heard when the pause was asked for is what this room heard then:
            // the frames written, less the pipe, less the server's buffer.
            let base = try #require(clock.time(index, frame: heard.start))
            let heardThen = (requestedAt - base) * Double(Self.rate)
            #expect(abs(heardThen - requested * Double(Self.rate)) <= Double(Self.rate) * 0.05,
                    "\(client.name) heard frame \(Int(heardThen)) at the request, the player says \(Int(requested * Double(Self.rate)))")
            let late = silentAt - due
            #expect(late <= Double(server.bufferMilliseconds) / 1000 + 0.1,
                    "\(client.name): silent \(Int(late * 1000)) ms after the alarm was due (buffer \(server.bufferMilliseconds) ms)")
            // The alarm sounds there, the music does not.
            let alarm = capture.frames(heard.musicEnd..<(heard.musicEnd + Self.rate))
            #expect(SignalAnalysis.rms(alarm) > 0.05, "\(client.name): no alarm after the music stopped")
            let under = SignalAnalysis.correlation(reference: source.frames(stop..<(stop + Self.rate)), signal: alarm, lag: 0)
            #expect(abs(under) < 0.2, "\(client.name): music under the alarm (\(under))")
        }
    }

    /// Where in a room's capture the music stopped for an interruption and
    /// came back, checking on the way that the room heard the file (`source`)
    /// exactly up to the fade at stream frame `stop` (but for the client's own
    /// corrections), and exactly from that frame on after the fade-in: the
    /// resume starts at the sample the rooms last heard. `musicEnd`: the
    /// capture's frame where the fade reached silence; `returned`: where the
    /// file's frame `stop` is heard again; `start`: where its first frame is.
    static func musicAroundTheStop(_ capture: PCMAudio, source: PCMAudio, stop: Int, fade: Int, client: SnapcastClient) throws
        -> (musicEnd: Int, returned: Int, start: Int) {
        let room = client.name
        // What snapclient said of its sync (corrections, hard syncs) goes with any failure.
        func log() -> String { "; its log ends: \(client.logTail(12))" }
        let head = SignalAnalysis.align(reference: source.frames(0..<(rate * 2)), signal: capture, minimumOverlap: 0.99)
        #expect(head.correlation > 0.9, "\(room): \(head)\(log())")
        let before = SignalAnalysis.matchAllowingClientCorrections(expected: source.frames(0..<(stop - fade)),
                                                                   actual: capture.frames(head.lag..<capture.frameCount))
        #expect(before.unexplained == nil && before.matchedFrames == stop - fade, "\(room): the music before the stop: \(before)\(log())")
        #expect(withinClientCorrections(before, seconds: Double(stop) / Double(rate)), "\(room): \(before)\(log())")
        let musicEnd = head.lag + before.actualFrames + fade
        // After the interruption: the second of music after the fade-in, found in what follows, lies where the stop frame is.
        let after = capture.frames((musicEnd + rate)..<capture.frameCount)
        let tail = SignalAnalysis.align(reference: source.frames((stop + fade)..<(stop + fade + rate)), signal: after,
                                        minimumOverlap: 0.99)
        let quarters = tail.correlation > 0.9 ? [] : (0..<8).map { quarter in
            let from = stop + fade + quarter * rate / 4
            let part = SignalAnalysis.align(reference: source.frames(from..<(from + rate / 4)), signal: after, minimumOverlap: 0.99)
            return "\(quarter): lag \(part.lag - quarter * rate / 4) r \(String(format: "%.3f", part.correlation))"
        }
        #expect(tail.correlation > 0.9, "\(room): the music did not come back: \(tail); by quarter second: \(quarters)\(log())")
        let returned = musicEnd + rate + tail.lag - fade
        let rest = source.frameCount - stop - fade
        let resumed = SignalAnalysis.matchAllowingClientCorrections(
            expected: source.frames((stop + fade)..<source.frameCount),
            actual: capture.frames((returned + fade)..<capture.frameCount))
        #expect(resumed.unexplained == nil && resumed.matchedFrames == rest && rest > rate,
                "\(room): the music after the stop is not the file from the stop sample: \(resumed)\(log())")
        #expect(withinClientCorrections(resumed, seconds: Double(rest) / Double(rate)), "\(room): \(resumed)\(log())")
        return (musicEnd, returned, head.lag)
    }

    @Test func aServerKilledAndRestartedCostsOneLineAndTheRoomsHearItAgainWithinFiveSeconds() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 20, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let server = try SnapcastServer.start(rate: Self.rate)
        let room = try server.startClient("kitchen")
        let player = try Self.startPlayer([mp3], server: server)
        _ = player.process.waitForEvent(named: "trackStarted", timeout: 10)
        usleep(2_000_000)
        server.kill()
        // While no server reads: one line, and the socket answers at once.
        let line = player.process.waitForEvent(named: "error", timeout: 5)
        #expect(line?.message?.contains("snapcast:") == true, "\(String(describing: line))")
        let asked = monotonicSeconds()
        let status = try Remote.status(player.runtime)
        #expect(monotonicSeconds() - asked < 1, "the socket took \(monotonicSeconds() - asked) s")
        #expect(status["state"] as? String == "playing" || status["playing"] as? Bool == true, "\(status)")
        usleep(2_000_000)
        let silentFrom = room.capturedFrames
        try server.killAndRestart()
        let restarted = monotonicSeconds()
        // Sound in the room again: its capture grows with something that is not silence.
        var heardAgain: Double?
        while heardAgain == nil && monotonicSeconds() - restarted < 8 {
            let capture = room.captured()
            if capture.frameCount > silentFrom,
               SignalAnalysis.signalBounds(capture.frames(silentFrom..<capture.frameCount), threshold: 64) != nil {
                heardAgain = monotonicSeconds()
            }
            usleep(20_000)
        }
        // And it is the music again, whole: two seconds of it, the file's own samples with no hole.
        usleep(2_500_000)
        let errors = player.process.eventsSoFar().named("error")
        _ = player.process.stop()
        let back = try #require(heardAgain, "no sound in the room 8 s after the restart: \(room.logTail())")
        #expect(back - restarted <= 5, "sound came back \(back - restarted) s after the restart")
        let capture = room.captured()
        let lastTwo = capture.frames((capture.frameCount - Self.rate * 2)..<capture.frameCount)
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let place = SignalAnalysis.align(reference: lastTwo, signal: source, minimumOverlap: 0.99)
        let match = SignalAnalysis.matchAllowingClientCorrections(
            expected: source.frames(place.lag..<(place.lag + lastTwo.frameCount)), actual: lastTwo)
        #expect(place.correlation > 0.9 && match.unexplained == nil && Self.withinClientCorrections(match, seconds: 2),
                "the room does not hear the music whole after the restart: \(place), \(match)")
        #expect(errors.count == 1, "\(errors)")
    }

    /// Three tagged MP3s at the stream's rate: Song a, b and c by Artist a, b and c on one album.
    static func taggedQueue(seconds: Double = 20) throws -> [String] {
        let folder = ScratchFiles.makeDirectory("snapcast-music")
        return try ["a", "b", "c"].enumerated().map { index, name in
            let source = try Fixtures.mp3(.tone(frequency: 330 + 110 * Double(index)), seconds: seconds, sampleRate: rate,
                                          channels: 2, encoding: .cbr(kbps: 128))
            let path = "\(folder)/\(name).mp3"
            try FileManager.default.copyItem(atPath: source, toPath: path)
            try ProcessRunner.run("id3v2", ["--artist", "Artist \(name)", "--album", "Rooms", "--song", "Song \(name)",
                                            "--track", String(index + 1), path]).check()
            return path
        }
    }

    /// snapserver 0.26 starts a stream's control script with `--stream` alone
    /// (`controlscriptparams` came in 0.27), so the stock `meta_mpd.py` is
    /// pointed at the player's MPD port the one way 0.26 allows: a script that
    /// runs it with `--mpd-host` and `--mpd-port` (the README's set-up uses
    /// `mpd = 127.0.0.1:6600`, its default, instead).
    static func metaMPD(port: Int) throws -> String {
        let script = ScratchFiles.makeDirectory("meta-mpd") + "/meta_mpd_interlude"
        try """
            #!/bin/sh
            exec /usr/bin/python3 /usr/share/snapserver/plug-ins/meta_mpd.py --mpd-host=127.0.0.1 --mpd-port=\(port) "$@"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    /// MusicBrainz as a house with internet meets it for an album it knows
    /// without a picture (`Tests/Fixtures/musicbrainz_proxy.py`, as
    /// `https_proxy`): the stock script looks every new album's art up there
    /// and dies on anything else, no route or an album MusicBrainz does not
    /// know (the README says so). Its log, and the server's environment.
    static func musicBrainzKnowingTheAlbum() throws -> (process: BackgroundProcess, log: String, environment: [String: String]) {
        let certificates = try TestCertificates.make()
        let site = try certificates.certificate(forHosts: ["musicbrainz.org", "coverartarchive.org"])
        let directory = ScratchFiles.makeDirectory("musicbrainz")
        let process = try BackgroundProcess.start(
            "/usr/bin/python3", [InterludeBinary.packageRoot + "/Tests/Fixtures/musicbrainz_proxy.py", "--cert", site.certificate,
                                 "--key", site.key, "--port-file", directory + "/port", "--log", directory + "/requests.log"],
            stdout: .discard, stderr: .file(directory + "/stderr.log"))
        var port: String?
        _ = Remote.waitUntil(10) {
            port = try? String(contentsOfFile: directory + "/port", encoding: .utf8)
            return port != nil
        }
        let proxy = "http://127.0.0.1:\(try #require(port, "the proxy did not start"))"
        return (process, directory + "/requests.log",
                ["https_proxy": proxy, "http_proxy": proxy, "SSL_CERT_FILE": certificates.trustedCA])
    }

    /// The stream's metadata and playback status as snapserver's JSON-RPC has them.
    static func properties(_ server: SnapcastServer) -> (title: String?, artist: [String], album: String?, duration: Double?,
                                                           status: String?) {
        let properties = (try? server.stream())?["properties"] as? [String: Any]
        let metadata = properties?["metadata"] as? [String: Any]
        return (metadata?["title"] as? String, metadata?["artist"] as? [String] ?? [], metadata?["album"] as? String,
                (metadata?["duration"] as? NSNumber)?.doubleValue, properties?["playbackStatus"] as? String)
    }

    @Test func snapcastClientsSeeTheTitlesAndTheirControlsReachThePlayerThroughTheStockMetaMPDScript() throws {
        let files = try Self.taggedQueue()
        let port = try LoopbackHTTP.freePort()
        let musicBrainz = try Self.musicBrainzKnowingTheAlbum()
        defer { musicBrainz.process.stop() }
        let server = try SnapcastServer.start(rate: Self.rate, controlScript: try Self.metaMPD(port: port),
                                              environment: musicBrainz.environment)
        let room = try server.startClient("kitchen")
        defer { room.stop() }
        let started = try Self.startPlayer(files, server: server, config: "mpd = 127.0.0.1:\(port)\n")
        let player = started.process
        defer { _ = player.stop() }
        func control(_ command: String, _ params: [String: Any]? = nil) throws {
            var arguments: [String: Any] = ["id": SnapcastServer.streamName, "command": command]
            if let params { arguments["params"] = params }
            let reply = try server.rpc("Stream.Control", arguments)
            #expect(reply["error"] == nil, "Stream.Control \(command): \(reply)")
        }
        func waitForProperties(_ seconds: Double, _ condition: (Self.PropertiesSeen) -> Bool) -> Bool {
            Remote.waitUntil(seconds) { condition(Self.properties(server)) }
        }

        // What plays, as every Snapcast client shows it: title, artist, album, length, state.
        #expect(waitForProperties(15) { $0.title == "Song a" && $0.status == "playing" },
                "\(Self.properties(server)); \(server.logTail())")
        let first = Self.properties(server)
        #expect(first.artist == ["Artist a"] && first.album == "Rooms", "\(first)")
        #expect(abs((first.duration ?? 0) - 20) < 0.5, "\(first)")
        // The script asked MusicBrainz for the album, and the archive for its picture, and lives on.
        #expect(Remote.waitUntil(5) {
            ((try? String(contentsOfFile: musicBrainz.log, encoding: .utf8)) ?? "").contains("coverartarchive.org:443 GET /release/")
        }, "no art lookup seen: \(server.logTail())")

        // next: the player moves on, and the title follows within 2 s of the track change.
        let before = player.eventsSoFar().named("trackStarted").count
        try control("next")
        let changed = player.waitForEvent(timeout: 5) { $0.event == "trackStarted" && $0.path == files[1] }
        #expect(changed != nil, "next did not reach the player: \(player.eventsSoFar().events.suffix(5))")
        let changeSeen = monotonicSeconds()
        #expect(waitForProperties(2) { $0.title == "Song b" }, "\(Self.properties(server))")
        #expect(monotonicSeconds() - changeSeen <= 2)
        #expect(player.eventsSoFar().named("trackStarted").count > before)

        // pause and play change the player's state, and the stream's says so.
        try control("pause")
        #expect(player.waitForEvent(named: "paused", timeout: 5) != nil, "pause did not reach the player")
        #expect(waitForProperties(5) { $0.status == "paused" }, "\(Self.properties(server))")
        try control("play")
        #expect(player.waitForEvent(named: "resumed", timeout: 5) != nil, "play did not reach the player")
        #expect(waitForProperties(5) { $0.status == "playing" }, "\(Self.properties(server))")

        // previous and a seek reach it too.
        try control("previous")
        #expect(player.waitForEvent(timeout: 5) { $0.event == "trackStarted" && $0.path == files[0] && $0.t > changed!.t } != nil,
                "previous did not reach the player")
        try control("setPosition", ["position": 12.0])
        #expect(player.waitForEvent(timeout: 5) { $0.event == "jump" && abs(($0.number("offset") ?? 0) - 12) < 0.5 } != nil,
                "the seek did not reach the player: \(player.eventsSoFar().events.suffix(5))")
    }

    typealias PropertiesSeen = (title: String?, artist: [String], album: String?, duration: Double?, status: String?)

    @Test func anAlarmNamingOneRoomSoundsThereAloneTheOthersPauseWithTheMusicAndAllAreBackAfter() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 14, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 192))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(mp3))
        let server = try SnapcastServer.start(rate: Self.rate)
        let clients = try Self.rooms.map { try server.startClient($0) }
        let volumesBefore = try server.clients().map { ($0.id, $0.percent, $0.muted) }
        let player = try Self.startPlayer([mp3], server: server,
                                          extra: ["--alarm-in", "4", "--alarm-ring", "3", "--alarm-rooms", "bedroom"])
        let finished = player.process.waitForEvent(named: "finished", timeout: 40)
        usleep(300_000)
        for client in clients { client.stop() }
        let events = player.process.eventsSoFar()
        _ = player.process.stop()
        #expect(finished != nil, "the player did not finish: \(events.events.suffix(5))")
        #expect(events.named("error").isEmpty, "\(events.named("error"))")
        let paused = try #require(events.named("paused").first?.number("position"))
        #expect(events.named("resumed").first?.number("position") == paused)
        let stop = Int((paused * Double(Self.rate)).rounded())
        let fade = Self.rate * 30 / 1000
        let gap = Self.rate * 400 / 1000

        for client in clients {
            let capture = client.captured()
            // Every room: the music exactly up to its fade, and exactly from the stop sample after the alarm.
            let heard = try Self.musicAroundTheStop(capture, source: source, stop: stop, fade: fade, client: client)
            let (musicEnd, returned) = (heard.musicEnd, heard.returned)
            // Between the two: the alarm in the bedroom alone; silence elsewhere.
            let between = capture.frames((musicEnd + gap / 2)..<(returned - gap / 2))
            if client.name == "bedroom" {
                #expect(SignalAnalysis.rms(between) > 0.05, "the bedroom did not hear its alarm")
            } else {
                let loudest = between.samples.map { abs(Int($0)) }.max() ?? 0
                #expect(loudest == 0, "\(client.name) heard something while the bedroom's alarm rang (peak \(loudest))")
            }
        }
        // Every room on the player's stream again, at its own volume.
        let after = try server.clients()
        #expect(after.allSatisfy { $0.streamID == SnapcastServer.streamName }, "\(after)")
        #expect(after.map { ($0.id, $0.percent, $0.muted) }.elementsEqual(volumesBefore) { $0 == $1 }, "\(after) vs \(volumesBefore)")
    }
}
