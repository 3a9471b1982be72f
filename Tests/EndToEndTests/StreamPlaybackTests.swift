import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Stations, headless: `interlude play URL` opens a station
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

    /// MP3 and AAC mounts carry ICY titles; an Ogg mount's titles are
    /// comment headers in the stream itself, which Icecast's admin call does
    /// not write for Opus: that mount is checked for its sound and name here,
    /// and for its titles below, from a source that sends them.
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
        try Self.quitHavingPlayedTheStation(player, recorder: recorder)
    }

    /// Quits the player, which must exit 0 having played the station's tones
    /// (well above silence in the capture) with no error or underrun.
    static func quitHavingPlayedTheStation(_ player: Player, recorder: Recorder) throws {
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let heard = try recorder.stop()
        // Tones at the source's level: well above silence for seconds of the capture.
        let loud = SignalAnalysis.rms(heard)
        #expect(SignalAnalysis.dBFS(loud) > -30, "capture level \(SignalAnalysis.dBFS(loud)) dBFS over \(heard.frameCount) frames")
        let problems = player.process.eventsSoFar().named("error") + player.process.eventsSoFar().named("underrun")
        #expect(problems.isEmpty, "\(problems)")
    }
}

extension StreamPlaybackTests {
    /// An Ogg station changes its title by starting a new chain of the stream,
    /// whose comment header names the song (ices, liquidsoap and oggfwd all
    /// send their playlist so). Here `oggfwd` sends three songs as three
    /// chains of 8 s, each with its ARTIST and TITLE; the player, connected
    /// during the first, reports each as the station's title in turn, plays
    /// through the chains' joins without an error, and says the last title
    /// in the socket's status.
    @Test("an Ogg station's titles are its chains' comment headers, in turn (Opus and Vorbis, sent by oggfwd)",
          arguments: [Fixtures.Codec.opus, .vorbis])
    func anOggStationsTitlesAreItsChainsTags(codec: Fixtures.Codec) throws {
        let songs = [(artist: "First Artist", title: "First Title"), (artist: "Second", title: "été à Zürich"),
                     (artist: "Third Artist", title: "Third Title")]
        let expected = songs.map { "\($0.artist) - \($0.title)" }
        let ogg = try Fixtures.chainedOgg(codec, songs: songs, seconds: 8)
        let server = try IcecastServer.start()
        defer { server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let mount = "radio.\(codec.fileExtension)"
        try server.startOggSource(mount: mount, ogg: ogg, name: "Interlude Ogg Radio")
        let url = server.url(mount)
        let player = try Player([url, "--device", "pulse"], sink: sink)
        #expect(Self.waitForEvent(player, "streamConnected", "url", url), "\(player.process.eventsSoFar().events)")
        let connected = player.process.eventsSoFar().named("streamConnected").first
        #expect(connected?.fields["station"]?.description == "Interlude Ogg Radio", "\(String(describing: connected))")
        #expect(Self.waitForEvent(player, "streamTitle", "title", expected[2], timeout: 40), "\(player.process.eventsSoFar().events)")
        let titles = player.process.eventsSoFar().named("streamTitle").compactMap { $0.fields["title"]?.description }
        #expect(titles == expected, "\(titles)")
        let status = try player.remote(["status"])
        #expect(status.succeeded && status.stdoutText.contains(expected[2]), "\(status.summary)")
        try Self.quitHavingPlayedTheStation(player, recorder: recorder)
    }
}

/// A station's first connection, headless: HTTPS verified
/// against the CA store (`SSL_CERT_FILE` as measured), and each fault told in
/// one line naming the URL. A single station that cannot be opened ends the
/// run with status 1, as a file that cannot be decoded does and as mpv does
/// ("Failed to open URL", exit 2): a headless run has nothing else to play,
/// and a script sees the failure in the status. Retries are for a station
/// that played and dropped (`StreamReconnector`), not for one never reached.
@Suite(.serialized) struct StreamFaultTests {
    /// A 3-second MP3 (a 440 Hz tone) in a folder a `StreamFileServer` serves.
    static func servedTone() throws -> String {
        let folder = ScratchFiles.makeDirectory("stream-files")
        try FileManager.default.copyItem(atPath: Fixtures.mp3(.tone(frequency: 440), seconds: 3), toPath: "\(folder)/tone.mp3")
        return folder
    }

    struct Run {
        var process: ProcessResult
        var events: EventLog
    }

    static func errors(_ result: InterludeBinary.PlayResult) -> [String] { result.events.named("error").compactMap(\.message) }
    static func errors(_ result: Run) -> [String] { result.events.named("error").compactMap(\.message) }

    /// `interlude play URL` on `sink`, its name look-ups kept on the machine (`LoopbackResolver`).
    static func play(_ url: String, sink: NullSink, environment extra: [String: String] = [:]) throws -> Run {
        let (program, arguments) = LoopbackResolver.command(InterludeBinary.path(), ["play", url, "--device", "pulse", "--events", "json"])
        let result = try ProcessRunner.run(program, arguments, environment: sink.environment.merging(extra) { _, new in new }, timeout: 60)
        return Run(process: result, events: EventLog(stdout: result.stdoutText))
    }

    @Test("http_proxy carries a station's request (a name only the proxy can reach), and no_proxy bypasses it")
    func httpProxyIsHonoured() throws {
        let server = try StreamFileServer.start(root: try Self.servedTone())
        defer { server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let url = "http://station.invalid/tone.mp3"
        let proxy = ["http_proxy": "http://127.0.0.1:\(server.port)"]
        let proxied = try Self.play(url, sink: sink, environment: proxy)
        #expect(proxied.process.succeeded, "\(proxied.process.summary)")
        #expect(proxied.events.named("streamConnected").count == 1, "\(proxied.events.events)")
        #expect(server.log.contains("proxied http://station.invalid:80/tone.mp3"), "\(server.log)")
        let bypassed = try Self.play(url, sink: sink, environment: proxy.merging(["no_proxy": "station.invalid"]) { _, new in new })
        #expect(bypassed.process.exitStatus == 1)
        #expect(Self.errors(bypassed).first?.lowercased().contains("resolve") == true, "\(Self.errors(bypassed))")
    }

    @Test("an HTTPS file from a server the test CA signed plays to its end through the null sink (SSL_CERT_FILE)")
    func httpsWithTheTestCAPlays() throws {
        let certificates = try TestCertificates.make()
        let server = try StreamFileServer.start(root: try Self.servedTone(), certificate: certificates.trusted)
        defer { server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let url = server.url("tone.mp3")
        let result = try InterludeBinary.play([url], output: .pulse(sink), environment: certificates.environment, timeout: 60)
        #expect(result.process.succeeded, "\(result.process.summary)")
        #expect(result.events.named("streamConnected").count == 1, "\(result.events.events)")
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        // The end of the file is the entry's end, not a drop to reconnect after.
        #expect(result.events.named("finished").count == 1, "\(result.events.events)")
        let heard = try recorder.stop()
        #expect(SignalAnalysis.dBFS(SignalAnalysis.rms(heard)) > -30, "capture of \(heard.frameCount) frames")
    }

    @Test("a certificate the store does not trust is refused in one line naming the URL, with no fall-back to plain HTTP")
    func anUntrustedCertificateIsRefused() throws {
        let certificates = try TestCertificates.make()
        let server = try StreamFileServer.start(root: try Self.servedTone(), certificate: certificates.untrusted)
        defer { server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let url = server.url("tone.mp3")
        let result = try InterludeBinary.play([url], output: .pulse(sink), environment: certificates.environment, timeout: 60)
        #expect(result.process.exitStatus == 1, "\(result.process.summary)")
        let errors = Self.errors(result)
        #expect(errors.count == 1 && errors[0].hasPrefix(url + ": ") && errors[0].lowercased().contains("certificate"), "\(errors)")
        #expect(result.events.named("streamConnected").isEmpty)
        // Nothing was served: the handshake failed before any request.
        #expect(!server.log.contains("GET /tone.mp3"), "\(server.log)")
    }

    @Test("a 404, a refused connection and a name that does not resolve each give one line naming the URL, and the run ends with status 1")
    func faultsAtTheFirstConnectionAreToldInOneLine() throws {
        let server = try StreamFileServer.start(root: try Self.servedTone())
        defer { server.stop() }
        let closed = try LoopbackHTTP.freePort()
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let cases = [(server.url("status/404"), "404"),
                     ("http://127.0.0.1:\(closed)/radio.mp3", "refused"),
                     ("http://station.invalid/radio.mp3", "resolve")]
        for (url, words) in cases {
            let result = try Self.play(url, sink: sink)
            #expect(result.process.exitStatus == 1, "\(url): \(result.process.summary)")
            let errors = Self.errors(result)
            #expect(errors.count == 1 && errors[0].hasPrefix(url + ": ") && errors[0].lowercased().contains(words),
                    "\(url): \(errors)")
        }
    }

    @Test("while the station's server accepts and sends nothing, the socket answers status; the stall ends in one line")
    func theLoopAnswersTheSocketWhileTheServerStalls() throws {
        let server = try StreamFileServer.start(root: try Self.servedTone())
        defer { server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let url = server.silentURL("radio.mp3")
        let player = try PulseOutputTests.Player([url, "--device", "pulse"], sink: sink)
        #expect(player.waitFor("trackStarted"), "\(player.process.eventsSoFar().events)")
        let status = try player.remote(["status"])
        // Answered while the server still holds the connection open and has said nothing.
        let stillStalled = player.process.isRunning && player.process.eventsSoFar().named("error").isEmpty
            && player.process.eventsSoFar().named("streamConnected").isEmpty
        #expect(status.succeeded, "\(status.summary)")
        #expect(stillStalled, "\(player.process.eventsSoFar().events)")
        // The request's deadline (`stream-timeout`, 15 s: connecting and the headers) ends the open: one line, and the run ends.
        let result = player.process.wait(timeout: 30)
        #expect(result.exitStatus == 1, "\(result.summary)")
        let events = EventLog(stdout: result.stdoutText)
        let errors = events.named("error").compactMap(\.message)
        #expect(errors.count == 1 && errors[0].hasPrefix(url + ": ") && errors[0].contains("no answer within 15 s"), "\(events.events)")
    }
}

/// A station that drops while playing is retried with
/// backoff on the loop's clock, said in a line a try, and plays again once
/// its server is back; the socket answers meanwhile.
@Suite(.serialized) struct StreamReconnectTests {
    @Test("Icecast killed mid-play: 'reconnecting to NAME, attempt N', the socket answers, and the station plays again once restarted")
    func aDroppedStationIsRetriedAndPlaysAgain() throws {
        let server = try IcecastServer.start()
        let wav = try Fixtures.wav(.tone(frequency: 440), seconds: 20)
        try server.startSource(mount: "radio.mp3", wav: wav, format: .mp3, name: "Interlude Test Radio")
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let url = server.url("radio.mp3")
        let player = try PulseOutputTests.Player([url, "--device", "pulse"], sink: sink)
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        let port = server.port
        server.stop()
        let retrying = player.process.waitForEvent(timeout: 30) {
            $0.event == "error" && ($0.message ?? "").hasPrefix("reconnecting to Interlude Test Radio, attempt ")
        }
        #expect(retrying != nil, "\(player.process.eventsSoFar().events)")
        let dropped = player.process.eventsSoFar().named("error").compactMap(\.message).filter { $0.hasPrefix(url + ": ") }
        #expect(dropped.count == 1, "\(player.process.eventsSoFar().events)")
        let status = try player.remote(["status"])
        #expect(status.succeeded, "\(status.summary)")
        let again = try IcecastServer.start(port: port)
        defer { again.stop() }
        try again.startSource(mount: "radio.mp3", wav: wav, format: .mp3, name: "Interlude Test Radio")
        #expect(player.waitFor("streamConnected", moreThan: 1, timeout: 60), "\(player.process.eventsSoFar().events)")
        #expect(player.process.isRunning)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }
}

/// Stations from other sources: live HLS, and the socket's requests.
@Suite(.serialized) struct StreamSourceTests {
    @Test("a live HLS playlist written by ffmpeg -f hls plays through the null sink")
    func liveHLSPlays() throws {
        let live = try LiveHLS.start(wav: Fixtures.wav(.tone(frequency: 440), seconds: 20))
        defer { live.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try PulseOutputTests.Player([live.playlistURL, "--device", "pulse"], sink: sink)
        let connected = player.process.waitForEvent(timeout: 30) { $0.event == "streamConnected" }
        #expect(connected?.fields["codec"]?.description == "aac", "\(player.process.eventsSoFar().events)")
        // Past several segments of the window.
        usleep(4_000_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let heard = try recorder.stop()
        #expect(SignalAnalysis.dBFS(SignalAnalysis.rms(heard)) > -30, "capture of \(heard.frameCount) frames")
        let errors = EventLog(stdout: result.stdoutText).named("error")
        #expect(errors.isEmpty, "\(errors)")
    }

    /// HLS's timed metadata: ID3 tags in a stream of their own in the MPEG-TS
    /// segments, as Apple's spec has packagers write them (the title at its
    /// change, and again at each segment's start). The player, connected
    /// during the first title, reports each of the three once, in turn.
    @Test("a live HLS station's timed ID3 tags are its titles, in turn, each once")
    func liveHLSTimedID3TitlesAreItsTitles() throws {
        let titles = [(seconds: 0.0, artist: "First Artist", title: "First Title"), (seconds: 5.0, artist: "Second", title: "été à Zürich"),
                      (seconds: 9.0, artist: "Third Artist", title: "Third Title")]
        let expected = titles.map { "\($0.artist) - \($0.title)" }
        let live = try LiveHLS.startWithTimedID3(wav: Fixtures.wav(.tone(frequency: 440), seconds: 16), titles: titles)
        defer { live.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try PulseOutputTests.Player([live.playlistURL, "--device", "pulse"], sink: sink)
        #expect(StreamPlaybackTests.waitForEvent(player, "streamTitle", "title", expected[2], timeout: 40),
                "\(player.process.eventsSoFar().events)")
        let heard = player.process.eventsSoFar().named("streamTitle").compactMap { $0.fields["title"]?.description }
        #expect(heard == expected, "\(heard)")
        try StreamPlaybackTests.quitHavingPlayedTheStation(player, recorder: recorder)
    }

    @Test("the socket's play-files and queue-add take a station's URL as they take a path")
    func theSocketPlaysAndQueuesAStation() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: .mp3)
        let music = try Fixtures.mp3(.tone(frequency: 660), seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try PulseOutputTests.Player([music, "--device", "pulse"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        let url = server.url("radio.mp3")
        let queued = try player.remote(["queue-add", url])
        #expect(queued.succeeded, "\(queued.summary)")
        let list = try player.remote(["queue-list"])
        #expect(list.stdoutText.contains(url), "\(list.summary)")
        let played = try player.remote(["play-files", url])
        #expect(played.succeeded, "\(played.summary)")
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        // A station seeks within its time-shift buffer: back, by what it has kept; not past
        // the live edge, nor further back than it holds, each refused in words.
        let ahead = try player.remote(["seek", "+10"])
        #expect(!ahead.succeeded && ahead.stderrText.contains("live"), "\(ahead.summary)")
        let beyond = try player.remote(["seek", "-3600"])
        #expect(!beyond.succeeded && beyond.stderrText.contains("time-shift buffer holds"), "\(beyond.summary)")
        #expect(try TimeShiftTests.hear(player, seconds: 3))
        let back = try player.remote(["seek", "-2"])
        #expect(back.succeeded, "\(back.summary)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }
}

/// Pausing a station: the reader keeps receiving into its bounded queue and
/// the resume continues from the frame where the listener stopped hearing
/// (the decoder serves the frames the pause flushed from the ring again),
/// not from "now".
@Suite(.serialized) struct StreamPauseTests {
    @Test("a 2-second pause of a station resumes where the listener stopped hearing, not 2 seconds later")
    func aPausedStationResumesWhereItStopped() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        let source = try Fixtures.wav(.sweep, seconds: 30)
        try server.startSource(mount: "radio.mp3", wav: source, format: .mp3)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try PulseOutputTests.Player([server.url("radio.mp3"), "--device", "pulse"], sink: sink)
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        usleep(3_000_000)
        player.type("pause")
        #expect(player.waitFor("paused"))
        usleep(2_000_000)
        player.type("play")
        #expect(player.waitFor("resumed"))
        usleep(2_000_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        #expect(EventLog(stdout: result.stdoutText).named("streamConnected").count == 1, "no reconnection")

        let heard = try recorder.stop()
        let rate = heard.sampleRate
        let pause = try #require(SignalAnalysis.longestSilentRun(heard, threshold: 16))
        #expect(pause.count > rate, "the pause's silence: \(pause.count) frames")
        // Windows clear of the pause's fades (30 ms each).
        let window = rate * 3 / 10, margin = rate / 20
        let before = pause.lowerBound - margin - window, after = pause.upperBound + margin
        try #require(before > 0 && after + window <= heard.frameCount)
        let reference = try WAVFile.read(source)
        let placeBefore = -SignalAnalysis.align(reference: reference, signal: heard.frames(before..<before + window)).lag
        let placeAfter = -SignalAnalysis.align(reference: reference, signal: heard.frames(after..<after + window)).lag
        // Resumed exactly: the source ran on by what was heard between the windows, the pause's silence not counted.
        let heardBetween = after - before - pause.count
        let ranOn = placeAfter - placeBefore
        #expect(abs(ranOn - heardBetween) < rate / 10,
                "the source ran on \(ranOn) frames between the windows, \(heardBetween) were heard (pause \(pause.count))")
    }
}

extension StreamSourceTests {
    @Test("a PLS playlist naming a station plays it: interlude play stations.pls")
    func aPLSPlaylistPlaysItsStation() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: .mp3)
        let folder = ScratchFiles.makeDirectory("pls")
        let playlist = "\(folder)/stations.pls"
        try Data("[playlist]\nFile1=\(server.url("radio.mp3"))\nTitle1=Test\nLength1=-1\nNumberOfEntries=1\nVersion=2\n".utf8)
            .write(to: URL(fileURLWithPath: playlist))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try PulseOutputTests.Player([playlist, "--device", "pulse"], sink: sink)
        let connected = player.process.waitForEvent(timeout: 20) { $0.event == "streamConnected" }
        #expect(connected?.fields["url"]?.description == server.url("radio.mp3"), "\(player.process.eventsSoFar().events)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }
}

extension StreamPlaybackTests {
    @Test("the on-event hook runs on a station's title change, the title and the station's name in its environment")
    func theHookRunsOnATitleChange() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: .mp3,
                               name: "Interlude Test Radio")
        try server.setTitle("First Artist - First Title", mount: "radio.mp3")
        let directory = ScratchFiles.makeDirectory("stream-hook")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "on-event = echo \"$INTERLUDE_EVENT|$INTERLUDE_TITLE|$INTERLUDE_ALBUM\" >> \(directory)/hook.log\n"
            .write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try Player([server.url("radio.mp3"), "--device", "pulse"], sink: sink,
                                environment: ["XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state"])
        #expect(Self.waitForEvent(player, "streamTitle", "title", "First Artist - First Title"), "\(player.process.eventsSoFar().events)")
        try server.setTitle("Second Title", mount: "radio.mp3")
        #expect(Self.waitForEvent(player, "streamTitle", "title", "Second Title"), "\(player.process.eventsSoFar().events)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
        let log = (try? String(contentsOfFile: directory + "/hook.log", encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n").map(String.init)
        #expect(lines.contains("streamTitle|First Artist - First Title|Interlude Test Radio"), "\(log)")
        #expect(lines.contains("streamTitle|Second Title|Interlude Test Radio"), "\(log)")
    }
}

extension StreamSourceTests {
    @Test("MPRIS OpenUri with a station's URL plays it, and playerctl's title follows the station's title changes",
          .enabled(if: MprisTests.available))
    func mprisOpensAStationAndShowsItsTitle() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: .mp3)
        try server.setTitle("First Artist - First Title", mount: "radio.mp3")
        let mpris = MprisTests()
        let bus = try MprisTests.SessionBus()
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let music = try Fixtures.mp3(.tone(frequency: 660), seconds: 30)
        let player = try PulseOutputTests.Player([music, "--device", "pulse"], sink: sink,
                                                 environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        _ = try mpris.waitForName(bus)
        let url = server.url("radio.mp3")
        try mpris.playerctl(bus, ["-p", "interlude", "open", url]).check()
        #expect(player.waitFor("streamConnected", timeout: 20), "\(player.process.eventsSoFar().events)")
        var title = ""
        #expect(try Remote.waitUntil(15) {
            title = try mpris.output(bus, ["-p", "interlude", "metadata", "title"])
            return title == "First Artist - First Title"
        }, "playerctl's title: \(title)")
        #expect(try mpris.output(bus, ["-p", "interlude", "metadata", "xesam:url"]) == url)
        try server.setTitle("Second Title", mount: "radio.mp3")
        #expect(try Remote.waitUntil(15) {
            title = try mpris.output(bus, ["-p", "interlude", "metadata", "title"])
            return title == "Second Title"
        }, "playerctl's title: \(title)")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }
}

extension StreamReconnectTests {
    @Test("a station that comes back in another format (MP3, then AAC on the same mount) plays on in it")
    func aStationWhoseFormatChangedPlaysOn() throws {
        let server = try IcecastServer.start()
        let wav = try Fixtures.wav(.tone(frequency: 440), seconds: 20)
        try server.startSource(mount: "radio", wav: wav, format: .mp3)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let player = try PulseOutputTests.Player([server.url("radio"), "--device", "pulse"], sink: sink)
        let first = player.process.waitForEvent(timeout: 20) { $0.event == "streamConnected" }
        #expect(first?.fields["codec"]?.description == "mp3", "\(player.process.eventsSoFar().events)")
        let port = server.port
        server.stop()
        let again = try IcecastServer.start(port: port)
        defer { again.stop() }
        try again.startSource(mount: "radio", wav: wav, format: .aac)
        let second = player.process.waitForEvent(timeout: 60) { $0.event == "streamConnected" && $0.fields["codec"]?.description == "aac" }
        #expect(second != nil, "\(player.process.eventsSoFar().events)")
        // Seconds of it play in the output's format, converted.
        let recorder = try sink.startRecorder()
        usleep(2_000_000)
        let heard = try recorder.stop()
        #expect(SignalAnalysis.dBFS(SignalAnalysis.rms(heard)) > -30, "capture of \(heard.frameCount) frames")
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        #expect(result.succeeded, "\(result.summary)")
    }
}

/// The full-screen player on a station: `interlude URL` plays it and the
/// screen shows the station's title as the now-playing title.
@Suite(.serialized) struct StreamScreenTests {
    @Test("interlude URL shows the station's title, and a changed title replaces it on the screen")
    func theScreenShowsTheStationsTitle() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), format: .mp3)
        try server.setTitle("First Artist - First Title", mount: "radio.mp3")
        let session = try TUISession(columns: 120, rows: 30, arguments: [server.url("radio.mp3")])
        let first = session.waitFor("First Artist - First Title", timeout: 20)
        #expect(first.met, "\(first.screen)")
        try server.setTitle("Second Title", mount: "radio.mp3")
        let second = session.waitFor("Second Title", timeout: 20)
        #expect(second.met, "\(second.screen)")
        try session.press("q")
    }
}
