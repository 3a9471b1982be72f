import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A station's server cannot hold the player: headers sent without end (many
/// `icy-*` lines, one endless line, lines trickled) end the connection in
/// one line naming the URL, within the deadline; a live HLS stream whose key
/// is refused, or whose segments are all missing, ends in one line naming
/// the URL that failed after a bounded number of requests, as does a server
/// that closes every connection at once. The player,
/// playing a file when the station is asked for over the socket, answers
/// the socket's every request meanwhile.
@Suite(.serialized) struct StationBoundsTests {
    /// What the player did with one station asked for over its socket.
    struct Outcome {
        /// The player's lines (`error` events) that name `url`.
        var lines: [String]
        /// Status requests answered before that line came, and any that went unanswered meanwhile.
        var answered: Int
        var unanswered: Int
        /// From the request to the line, in seconds.
        var seconds: Double
        /// The player's resident set before the station, and the most seen until its line.
        var baselineKilobytes: Int
        var peakKilobytes: Int
        var events: [InterludeEvent]
    }

    /// Plays a minute of tone, asks for `url` over the control socket
    /// (`play-files`), and asks for status every 50 ms until a line names the
    /// URL (or `timeout` passes); then quits.
    static func ask(for url: String, config: String? = nil, timeout: Double = 60) throws -> Outcome {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        var environment: [String: String] = [:]
        if let config {
            let folder = ScratchFiles.makeDirectory("station-config")
            try FileManager.default.createDirectory(atPath: folder + "/interlude", withIntermediateDirectories: true)
            try config.write(toFile: folder + "/interlude/config", atomically: true, encoding: .utf8)
            environment["XDG_CONFIG_HOME"] = folder
        }
        let player = try PulseOutputTests.Player([music, "--device", "pulse"], sink: sink, environment: environment)
        #expect(player.waitFor("trackStarted"), "\(player.process.eventsSoFar().events)")
        #expect(Remote.waitForPlayer(player.runtime))
        let connection = try RawControlConnection(player.runtime + "/interlude/control")
        let baseline = Remote.residentKilobytes(player.process.pid)
        var peak = baseline
        let asked = monotonicSeconds()
        let reply = connection.request(#"{"id":0,"command":"play-files","args":["\#(url)"]}"#)
        #expect(reply?["ok"] as? Bool == true, "\(String(describing: reply))")
        func lines() -> [String] {
            player.process.eventsSoFar().named("error").compactMap(\.message).filter { $0.hasPrefix(url + ": ") }
        }
        var answered = 0, unanswered = 0
        var told: Double?
        var id = 1
        while monotonicSeconds() - asked < timeout {
            if !lines().isEmpty {
                told = monotonicSeconds()
                break
            }
            peak = max(peak, Remote.residentKilobytes(player.process.pid))
            let status = connection.request(#"{"id":\#(id),"command":"status"}"#)
            id += 1
            if status?["ok"] as? Bool == true {
                answered += 1
            } else if lines().isEmpty {
                unanswered += 1
            }
            usleep(50_000)
        }
        let outcome = Outcome(lines: lines(), answered: answered, unanswered: unanswered,
                              seconds: (told ?? monotonicSeconds()) - asked, baselineKilobytes: baseline, peakKilobytes: peak,
                              events: player.process.eventsSoFar().events)
        player.type("quit")
        _ = player.process.wait(timeout: 10)
        return outcome
    }

    static func server() throws -> StreamFileServer {
        let folder = ScratchFiles.makeDirectory("station-files")
        try FileManager.default.copyItem(atPath: Fixtures.mp3(.tone(frequency: 440), seconds: 3), toPath: "\(folder)/tone.mp3")
        return try StreamFileServer.start(root: folder)
    }

    @Test("a station whose headers never end (icy-* lines, or one endless line) ends in one line naming the URL, well within the deadline, the socket answering throughout",
          arguments: ["endless-headers", "endless-header-line"])
    func endlessHeadersEndInOneLine(path: String) throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("\(path)/tone.mp3")
        let outcome = try Self.ask(for: url)
        #expect(outcome.lines.count == 1 && outcome.lines.allSatisfy { $0.contains("the server's headers do not end") },
                "\(outcome.events)")
        // The default deadline (stream-timeout, 15 s) is not what ended it: the work its headers cost did.
        #expect(outcome.seconds < 15, "\(outcome.seconds) s")
        #expect(outcome.answered >= 1 && outcome.unanswered == 0, "answered \(outcome.answered), unanswered \(outcome.unanswered)")
        // FFmpeg appends every icy-* line to one string: what it gathered is bounded too.
        #expect(outcome.peakKilobytes - outcome.baselineKilobytes < 50 * 1024,
                "\(outcome.baselineKilobytes) KB before, \(outcome.peakKilobytes) KB at most")
    }

    @Test("a station that trickles header lines without end is cut at stream-timeout's deadline, in one line naming the URL")
    func trickledHeadersEndAtTheDeadline() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("slow-headers/tone.mp3")
        let outcome = try Self.ask(for: url, config: "stream-timeout = 3s\n")
        #expect(outcome.lines.count == 1 && outcome.lines.allSatisfy { $0.contains("no answer within 3 s") }, "\(outcome.events)")
        #expect(outcome.seconds < 15, "\(outcome.seconds) s")
        #expect(outcome.answered >= 1 && outcome.unanswered == 0, "answered \(outcome.answered), unanswered \(outcome.unanswered)")
    }

    /// The requests the server logged ("GET /PATH HTTP/1.1").
    static func requests(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"GET ") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " })
        }
    }

    @Test("a live HLS stream whose key is refused ends in one line naming the key's URL after a bounded number of requests")
    func aRefusedKeyEndsTheStream() throws {
        let live = try LiveHLS.start(wav: Fixtures.wav(.tone(frequency: 440), seconds: 20), keyURI: "/status/403")
        defer { live.stop() }
        let outcome = try Self.ask(for: live.playlistURL)
        #expect(outcome.lines.count == 1 && outcome.lines.allSatisfy {
            $0.contains(live.server.url("status/403") + " could not be fetched") && $0.contains("403")
        }, "\(outcome.events)")
        #expect(outcome.answered >= 1 && outcome.unanswered == 0, "answered \(outcome.answered), unanswered \(outcome.unanswered)")
        // The playlist, the key, and no more than eight requests after it: none since the line.
        let seen = Self.requests(live.server.log)
        #expect(seen.count <= 10 && seen.filter { $0 == "/status/403" }.count == 1, "\(seen)")
        usleep(2_000_000)
        #expect(Self.requests(live.server.log).count == seen.count, "\(Self.requests(live.server.log))")
    }

    @Test("a live HLS playlist whose segments are all missing ends in one line naming a segment after a bounded number of requests")
    func missingSegmentsEndTheStream() throws {
        let folder = ScratchFiles.makeDirectory("hls-missing")
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
            + (0..<6).map { "#EXTINF:1.0,\ngone\($0).ts\n" }.joined()
        try playlist.write(toFile: "\(folder)/live.m3u8", atomically: true, encoding: .utf8)
        let server = try StreamFileServer.start(root: folder)
        defer { server.stop() }
        let outcome = try Self.ask(for: server.url("live.m3u8"))
        #expect(outcome.lines.count == 1 && outcome.lines.allSatisfy {
            $0.contains(server.url("gone")) && $0.contains("could not be fetched") && $0.contains("404")
        }, "\(outcome.events)")
        #expect(outcome.answered >= 1 && outcome.unanswered == 0, "answered \(outcome.answered), unanswered \(outcome.unanswered)")
        let seen = Self.requests(server.log)
        #expect(seen.count <= 11, "\(seen)")
        usleep(2_000_000)
        #expect(Self.requests(server.log).count == seen.count, "\(Self.requests(server.log))")
    }

    @Test("a station whose server closes each connection after a few bytes ends in one line after a bounded number of requests")
    func aServerThatClosesAtOnceIsNotReopenedForEver() throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url("close-early/tone.mp3")
        let outcome = try Self.ask(for: url)
        #expect(outcome.lines.count == 1 && outcome.lines.allSatisfy { $0.contains("the server ends each connection at once") },
                "\(outcome.events)")
        #expect(outcome.answered >= 1 && outcome.unanswered == 0, "answered \(outcome.answered), unanswered \(outcome.unanswered)")
        // FFmpeg reopened it 1,500 times a second; now the first request and five reopenings at most.
        let seen = Self.requests(server.log)
        #expect(seen.count <= 6, "\(seen.count) requests")
        usleep(2_000_000)
        #expect(Self.requests(server.log).count == seen.count)
    }
}
