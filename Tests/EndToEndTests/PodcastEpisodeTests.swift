import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Episodes played like books, streamed from the
/// loopback server (seeks by range requests) or from their download, their
/// place kept by the episode's identity across `kill -9`; downloads resumed
/// after a connection cut off mid-body.
@Suite(.serialized) struct PodcastEpisodeTests {
    /// A podcast of one 4-minute episode (a 440 Hz tone, mono MP3 at 64 kbps) served by a FeedServer.
    struct Show {
        let server: FeedServer
        let home: PodcastHome
        let stateHome = ScratchFiles.makeDirectory("episode-state")
        let id: String
        var environment: [String: String] { home.environment.merging(["XDG_STATE_HOME": stateHome]) { $1 } }

        /// `interlude podcast ARGS` over this show's data and state.
        func run(_ arguments: [String]) throws -> ProcessResult {
            try InterludeBinary.run(["podcast"] + arguments, environment: environment, timeout: 120)
        }

        func listJSON() throws -> [[String: Any]] {
            let result = try run(["list", "Resume Show", "--json"])
            guard result.succeeded else { return [] }
            return (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]) ?? []
        }

        /// `enclosure`: the media's path on the server (`drop/N/episode.mp3` cuts every answer after N bytes).
        static func make(seconds: Double = 240, enclosure: String = "episode.mp3") throws -> Show {
            let root = ScratchFiles.makeDirectory("episode-feed")
            let media = try Fixtures.mp3(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 1,
                                         encoding: .cbr(kbps: 64))
            try FileManager.default.copyItem(atPath: media, toPath: root + "/episode.mp3")
            let server = try FeedServer.start(root: root)
            let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>Resume Show</title>
            <item><title>The long one</title><guid isPermaLink="false">long-1</guid>
            <pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><itunes:duration>4:00</itunes:duration>
            <enclosure url="\(server.url(enclosure))" length="\(Self.size(root + "/episode.mp3"))" type="audio/mpeg"/></item>
            </channel></rss>

            """
            try feed.write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
            let home = PodcastHome()
            let id = try #require(try home.add(server.url("feed.xml")), "podcast add failed")
            return Show(server: server, home: home, id: id)
        }

        init(server: FeedServer, home: PodcastHome, id: String) {
            self.server = server
            self.home = home
            self.id = id
        }

        static func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }

        /// The episode's download (a file `podcasts/ID/*.mp3`), once there.
        var downloaded: String? {
            let folder = home.data + "/interlude/podcasts/" + id
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.first { $0.hasSuffix(".mp3") }.map { folder + "/" + $0 }
        }

        /// The episode's state file (the books' store), its `updated` set `secondsAgo` back.
        func backdateState(by secondsAgo: Double) throws {
            let folder = stateHome + "/interlude/books"
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            // Beside it, the podcast's speed (a state without a path).
            let states = try names.map { name -> (URL, [String: Any]) in
                let file = URL(fileURLWithPath: folder + "/" + name)
                return (file, try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]))
            }.filter { $0.1["path"] is String }
            try #require(states.count == 1, "\(names)")
            var (file, object) = states[0]
            object["updated"] = Int64((Date().timeIntervalSince1970 - secondsAgo) * 1000)
            try JSONSerialization.data(withJSONObject: object).write(to: file)
        }

        var mediaRequests: [(method: String, path: String, status: Int)] {
            server.requests.filter { $0.path.hasSuffix("episode.mp3") }
        }
    }

    /// A playing episode with a FIFO on its standard input (the books' listener over `podcast play`).
    static func listener(_ show: Show, sink: NullSink, _ extra: [String] = []) throws -> BookRealTimeTests.Listener {
        try BookRealTimeTests.Listener(["podcast", "play", "Resume Show", "1"], sink: sink, extra, environment: show.environment)
    }

    /// Acceptance 2: streamed, sought to 2:55 (a range request), paused by an
    /// alarm near 3:00, killed with `kill -9`; the download finishes meanwhile;
    /// reopened, the episode resumes at the paused place less smart rewind,
    /// from the file (no request for the media is made).
    @Test func aStreamedEpisodePausedByAnAlarmAndKilledResumesFromItsDownload() throws {
        let show = try Show.make()
        defer { show.server.stop() }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }

        let first = try Self.listener(show, sink: sink, ["--skip", "175", "--alarm-in", "8"])
        let opened = try #require(first.event("bookOpened", timeout: 20), "\(first.events.events)")
        #expect(opened.path == show.server.url("episode.mp3"), "\(opened)")
        #expect(opened.seconds("position") == 0)
        #expect(abs((opened.seconds("duration") ?? 0) - 240) < 1, "\(opened)")
        #expect(first.event("trackStarted", timeout: 20) != nil, "\(first.events.events)")
        first.type("skip-forward")
        let sought = try #require(first.event("bookSeek", timeout: 20), "\(first.events.events)")
        let soughtTo = try #require(sought.seconds("position"))
        #expect(soughtTo >= 175 && soughtTo < 180, "\(sought)")
        // The alarm pauses the spoken audio (not ducked), and the place is saved at once.
        #expect(first.event("alarmRinging", timeout: 30) != nil, "\(first.events.events)")
        let paused = try #require(first.event("paused", timeout: 10), "\(first.events.events)")
        let pausedAt = try #require(paused.seconds("position"))
        #expect(pausedAt > soughtTo + 2 && pausedAt < soughtTo + 10, "paused at \(pausedAt), sought to \(soughtTo)")
        let saved = try #require(first.event("positionSaved", timeout: 20, where: { ($0.seconds("position") ?? 0) >= pausedAt - 0.01 }),
                                 "\(first.events.events)")
        #expect(abs((saved.seconds("position") ?? 0) - pausedAt) < 0.01, "\(saved)")
        // The seek asked the server for the bytes from there.
        #expect(show.mediaRequests.contains { $0.status == 206 }, "\(show.mediaRequests)")

        // Downloaded while the alarm rings, then the player is killed.
        let download = try show.run(["download", "Resume Show", "1"])
        #expect(download.succeeded, "\(download.summary)")
        let file = try #require(show.downloaded, "no download in \(show.home.data)")
        first.player.send(SIGKILL)
        #expect(first.player.wait(timeout: 10).terminatingSignal == SIGKILL)
        let listed = try show.listJSON()
        #expect(listed.first?["download"] as? String == "downloaded", "\(listed)")
        #expect(abs((listed.first?["place"] as? Double ?? 0) - pausedAt) < 0.01, "\(listed)")

        // Ten minutes away, as the books' test has it: ease(600/3600) * 30 s = (1 - (5/6)^4) * 30 = 15.53 s back.
        try show.backdateState(by: 600)
        let fifth: Double = 5.0 / 6.0
        let expectedRewind: Double = (1 - fifth * fifth * fifth * fifth) * 30
        let requestsBefore = show.mediaRequests.count
        let second = try Self.listener(show, sink: sink)
        let reopened = try #require(second.event("bookOpened", timeout: 20), "\(second.events.events)")
        #expect(reopened.path == file, "\(reopened)")
        #expect(abs((reopened.seconds("saved") ?? 0) - pausedAt) < 0.01, "\(reopened)")
        let rewind = try #require(reopened.seconds("rewind"))
        #expect(abs(rewind - expectedRewind) < 0.05, "\(reopened)")
        #expect(abs((reopened.seconds("position") ?? 0) - (pausedAt - rewind)) < 0.01, "\(reopened)")
        let started = try #require(second.event("trackStarted", timeout: 20), "\(second.events.events)")
        #expect(started.path == file, "\(started)")
        // Heard from there: the next save is just after the resumed place, in the file.
        let heard = try #require(second.event("positionSaved", timeout: 20, where: { ($0.seconds("position") ?? 0) > pausedAt - rewind + 0.5 }),
                                 "\(second.events.events)")
        #expect((heard.seconds("position") ?? 0) < pausedAt - rewind + 5, "\(heard)")
        second.type("quit")
        #expect(second.player.wait(timeout: 10).exitStatus == 0)
        #expect(show.mediaRequests.count == requestsBefore, "the file, not the URL: \(show.mediaRequests)")
    }

    /// A download cut off mid-body keeps its part, says so in one line, and the
    /// next download asks for the rest with a range (206) until it is whole and
    /// equal to the served file.
    @Test func aDownloadCutOffMidBodyIsKeptAndResumedWithARange() throws {
        let show = try Show.make(seconds: 30, enclosure: "drop/100000/episode.mp3")
        defer { show.server.stop() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: show.server.root + "/episode.mp3"))
        var attempts = 0
        var lines: [String] = []
        while show.downloaded == nil && attempts < 10 {
            attempts += 1
            let run = try show.run(["download", "Resume Show"])
            if !run.succeeded {
                lines.append(run.stderrText)
                #expect(run.stderrText.split(separator: "\n").count == 1, "\(run.stderrText)")
                #expect(run.stderrText.contains("partial download is kept"), "\(run.stderrText)")
                let listed = try show.listJSON()
                #expect((listed.first?["download"] as? String)?.hasPrefix("downloading") == true, "\(listed)")
            }
        }
        let file = try #require(show.downloaded, "attempts: \(attempts), \(lines)")
        #expect(attempts == (whole.count + 99_999) / 100_000, "\(lines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == whole)
        let statuses = show.mediaRequests.map(\.status)
        #expect(statuses.first == 200 && statuses.dropFirst().allSatisfy { $0 == 206 }, "\(statuses)")
        let again = try show.run(["download", "Resume Show"])
        #expect(again.succeeded && again.stdoutText.contains("downloaded already"), "\(again.summary)")
    }

    /// A disk that fills during a download: one line naming the part and the
    /// system's words, the part kept; once there is room, the next download
    /// asks for the rest (206) and the file is whole.
    @Test(.enabled(if: DiskFaultTests.mountPermitted, "mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN)"))
    func aDiskThatFillsKeepsThePartAndTheDownloadResumesOnceThereIsRoom() throws {
        let show = try Show.make(seconds: 30)
        defer { show.server.stop() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: show.server.root + "/episode.mp3"))
        let disk = try DiskFaultTests.SmallDisk(size: "512k")
        defer { disk.unmount() }
        // The podcast's folder (its episodes, its downloads) on the small disk.
        let folder = show.home.data + "/interlude/podcasts/" + show.id
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: disk.path + "/" + name)
        }
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: disk.path)
        let filled = disk.fill()
        #expect(truncate(disk.path + "/fill", off_t(max(0, filled - 100_000))) == 0)

        let cut = try show.run(["download", "Resume Show"])
        #expect(cut.exitStatus == 1, "\(cut.summary)")
        #expect(cut.stderrText.split(separator: "\n").count == 1, "\(cut.stderrText)")
        #expect(cut.stderrText.contains("No space left on device") && cut.stderrText.contains(".part"), "\(cut.stderrText)")
        let part = try #require(try FileManager.default.contentsOfDirectory(atPath: disk.path).first { $0.hasSuffix(".part") })
        let kept = Show.size(disk.path + "/" + part)
        #expect(kept > 0 && kept < whole.count, "kept \(kept) of \(whole.count)")

        disk.makeRoom()
        let resumed = try show.run(["download", "Resume Show"])
        #expect(resumed.succeeded, "\(resumed.summary)")
        let file = try #require(show.downloaded)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == whole)
        #expect(show.mediaRequests.map(\.status) == [200, 206], "\(show.mediaRequests)")
    }

    /// Point 1 through the socket: `interlude remote podcast-play` (the
    /// command table's `podcast-play`) switches the full-screen player to the
    /// episode, streamed (its length the feed's: no request on the loop), and
    /// its place is kept under the episode's identity.
    @Test func theSocketPlaysAnEpisodeInTheFullScreenPlayer() throws {
        let show = try Show.make()
        defer { show.server.stop() }
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 60)
        let session = try TUISession(columns: 160, rows: 45, arguments: [library], environment: show.home.environment)
        #expect(session.waitFor("4 Alarms").met)
        let remote = try ProcessRunner.run(InterludeBinary.path(), ["remote", "podcast-play", "Resume Show", "1"],
                                           environment: ["XDG_RUNTIME_DIR": session.runtimeDirectory], timeout: 15)
        #expect(remote.succeeded, "\(remote.stderrText)")
        let playing = session.waitFor(20) { $0.contains("The long one") }
        #expect(playing.met, "\(playing.screen)")
        // Heard over HTTP: the server was asked for the media.
        let asked = session.waitFor(20) { _ in show.mediaRequests.contains { $0.status == 200 || $0.status == 206 } }
        #expect(asked.met, "\(show.mediaRequests)")
        let unknown = try ProcessRunner.run(InterludeBinary.path(), ["remote", "podcast-play", "No Such Show"],
                                            environment: ["XDG_RUNTIME_DIR": session.runtimeDirectory], timeout: 15)
        #expect(!unknown.succeeded && unknown.stderrText.contains("no podcast is called 'No Such Show'"), "\(unknown.summary)")
        // Its place is kept, by the episode's identity, while it plays.
        let environment = show.home.environment.merging(["XDG_STATE_HOME": "\(session.directory)/state"]) { $1 }
        func place() -> Double {
            guard let listed = try? InterludeBinary.run(["podcast", "list", "Resume Show", "--json"], environment: environment),
                  let episodes = try? JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]] else { return 0 }
            return episodes.first?["place"] as? Double ?? 0
        }
        let kept = session.waitFor(20) { _ in place() > 0.5 }
        #expect(kept.met, "no place saved")
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
        #expect(place() > 0.5)
    }

    /// Point 2: an episode's chapters from its Podcasting 2.0 chapters file
    /// (the downloaded file has none of its own); the speed it was played at
    /// is its podcast's for the next episode, never played.
    @Test func chaptersFromTheFeedsChaptersFileAndThePodcastsSpeed() throws {
        let root = ScratchFiles.makeDirectory("chapters-feed")
        let media = try Fixtures.mp3(.tone(frequency: 440), seconds: 20, sampleRate: 44100, channels: 1, encoding: .cbr(kbps: 64))
        try FileManager.default.copyItem(atPath: media, toPath: root + "/one.mp3")
        try FileManager.default.copyItem(atPath: media, toPath: root + "/two.mp3")
        let chapters = #"{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Opening"}, {"startTime": 8.5, "title": "Middle"}, {"startTime": 15, "title": "Close"}]}"#
        try chapters.write(toFile: root + "/one.json", atomically: true, encoding: .utf8)
        let server = try FeedServer.start(root: root)
        defer { server.stop() }
        let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Chaptered</title>
        <item><title>Two</title><guid>two</guid><pubDate>Tue, 02 Jan 2024 10:00:00 +0000</pubDate>
        <enclosure url="\(server.url("two.mp3"))" length="1" type="audio/mpeg"/></item>
        <item><title>One</title><guid>one</guid><pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate>
        <enclosure url="\(server.url("one.mp3"))" length="1" type="audio/mpeg"/>
        <podcast:chapters url="\(server.url("one.json"))" type="application/json+chapters"/></item>
        </channel></rss>

        """
        try feed.write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
        let home = PodcastHome()
        #expect(try home.add(server.url("feed.xml")) != nil)
        let environment = home.environment.merging(["XDG_STATE_HOME": ScratchFiles.makeDirectory("chapters-state")]) { $1 }
        #expect(try InterludeBinary.run(["podcast", "download", "Chaptered", "One"], environment: environment).succeeded)

        let first = try InterludeBinary.run(["podcast", "play", "Chaptered", "One", "--output", "null", "--speed", "1.5", "--events", "json"],
                                            environment: environment, timeout: 60)
        #expect(first.succeeded, "\(first.summary)")
        let opened = try #require(EventLog(stdout: first.stdoutText).named("bookOpened").first, "\(first.stdoutText)")
        #expect(opened.number("chapters") == 3, "\(opened)")
        #expect(opened.fields["chapterTitle"]?.description == "Opening", "\(opened)")
        #expect(opened.path?.hasSuffix(".mp3") == true && opened.path?.hasPrefix("/") == true, "from the download: \(opened)")

        let second = try InterludeBinary.run(["podcast", "play", "Chaptered", "Two", "--output", "null", "--events", "json"],
                                             environment: environment, timeout: 60)
        #expect(second.succeeded, "\(second.summary)")
        let next = try #require(EventLog(stdout: second.stdoutText).named("bookOpened").first, "\(second.stdoutText)")
        #expect(next.number("speed") == 1.5, "the podcast's speed: \(next)")
        #expect(next.number("chapters") == 1, "\(next)")
        #expect(next.path == server.url("two.mp3"), "streamed: \(next)")
    }
}
