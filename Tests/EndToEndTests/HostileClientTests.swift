import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// No client of the control socket can hurt the player:
/// half-closed, slow, idle (64 of them), a huge reply, a subscriber that never
/// reads; and `interlude remote` says so when the player does not answer.
/// The real binary through a PulseAudio null sink, raw connections.
@Suite(.serialized) struct HostileClientTests {
    typealias Player = RemoteControlTests.Player

    /// The player's CPU time so far (user + system), from /proc/PID/stat.
    static func cpuSeconds(_ pid: pid_t) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return -1 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's ")": state is field 3 of the line, utime 14 and stime 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// CPU the player uses over `seconds` of wall time.
    static func cpuOver(_ pid: pid_t, seconds: Double) -> Double {
        let before = cpuSeconds(pid)
        usleep(UInt32(seconds * 1_000_000))
        return cpuSeconds(pid) - before
    }

    @Test("a client that sends a thousand requests, half-closes and never reads its replies costs the player no CPU; its connection goes when it leaves")
    func halfClosedClientWithRepliesPendingDoesNotSpin() throws {
        let player = try Player()
        #expect(Remote.waitForPlayer(player.runtime))
        try Remote.run(player.runtime, ["pause"]).check()
        #expect(try Remote.waitUntil { try Remote.status(player.runtime)["state"] as? String == "paused" })
        let pid = player.process.pid
        // Paused, the player wakes a few times a second at most; a loop that polls a
        // readable EOF takes all the CPU the scheduler gives it. Over 3 s a paused
        // player measured 0.02 s (0.03 s with this client); the spinning one 0.75 s
        // on a machine with about ten busy processes per core (a whole core when
        // alone). 0.3 s is a tenth of a core: fifteen times the idle player.
        let idle = Self.cpuOver(pid, seconds: 3)
        var playerEnd: UInt64?

        do {
            let client = try RawControlConnection(player.socket)
            playerEnd = Remote.playerEnd(of: client)
            // Accepted: the player holds its end (it may close it before the client leaves, once its replies overflow).
            #expect(Remote.waitUntil { playerEnd.map { Remote.holdsSocket(pid, inode: $0) } == true },
                    "the player's end: \(String(describing: playerEnd))")
            // About 0.6 MB of replies: more than the kernel's socket buffer holds.
            let requests = (0..<1000).map { #"{"id":\#($0),"command":"status"}"# + "\n" }.joined()
            #expect(client.send(Array(requests.utf8)))
            shutdown(client.fd, Int32(SHUT_WR))
            usleep(300_000)
            let busy = Self.cpuOver(pid, seconds: 3)
            #expect(busy < 0.3, "CPU over 3 s with the half-closed client: \(busy) s (idle: \(idle) s)")
            #expect(try Remote.run(player.runtime, ["status"]).exitStatus == 0)
        }
        // It has left (closed at the end of the block): the player closes its side too.
        let end = try #require(playerEnd)
        #expect(Remote.waitUntil { !Remote.holdsSocket(pid, inode: end) }, "the player still holds socket:[\(end)]")
    }

    @Test("64 idle clients: a 65th gets its answer, an alarm rings and is reported to a subscriber, and the eviction is said once")
    func sixtyFourIdleClientsLeaveRoomForAnother() throws {
        let player = try Player()
        #expect(Remote.waitForPlayer(player.runtime))
        var idle: [RawControlConnection] = []
        for _ in 0..<64 { idle.append(try RawControlConnection(player.socket)) }
        // Each has been accepted once a later request is answered (connections are taken in order).
        let subscriber = try RawControlConnection(player.socket)
        let subscribed = subscriber.request(#"{"id":1,"command":"subscribe"}"#)
        #expect(subscribed?["ok"] as? Bool == true, "\(String(describing: subscribed))")
        let status = try Remote.run(player.runtime, ["status"])
        #expect(status.exitStatus == 0 && status.stdoutText.hasPrefix("playing"), "\(status.summary)")
        #expect(try Remote.run(player.runtime, ["alarm", "in", "1s"]).exitStatus == 0)
        let names = subscriber.eventNames(until: "alarmRinging")
        #expect(names.contains("alarmRinging"), "\(names)")
        let evictions = player.eventLines.filter { $0.contains("idle longest") }
        #expect(evictions.count == 1, "\(evictions)")
        withExtendedLifetime(idle) {}
    }

    @Test("a 10,000-entry queue is listed whole, while other clients are answered")
    func tenThousandEntryQueueIsListedWhole() throws {
        let player = try Player()
        #expect(Remote.waitForPlayer(player.runtime))
        let file = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let connection = try RawControlConnection(player.socket)
        let paths = "[" + Array(repeating: "\"\(file)\"", count: 100).joined(separator: ",") + "]"
        for batch in 0..<100 {
            let added = connection.request(#"{"id":\#(batch),"command":"queue-add","args":\#(paths)}"#)
            #expect(added?["ok"] as? Bool == true, "\(String(describing: added))")
        }
        let listed = try Remote.run(player.runtime, ["queue", "list"], timeout: 60)
        #expect(listed.exitStatus == 0, "\(listed.stderrText)")
        #expect(listed.stdoutText.split(separator: "\n").count == 10_001)
        let json = try Remote.run(player.runtime, ["queue", "list", "--json"], timeout: 60)
        let entries = try JSONSerialization.jsonObject(with: json.stdout) as? [Any]
        #expect(entries?.count == 10_001)
        #expect(try Remote.run(player.runtime, ["status"]).exitStatus == 0)
    }

    @Test("a subscriber that never reads is dropped with one line once 1 MB of events waits for it, and its descriptor is closed; a slow writer is answered")
    func subscriberThatNeverReadsIsDropped() throws {
        let player = try Player()
        #expect(Remote.waitForPlayer(player.runtime))
        let pid = player.process.pid
        let stuck = try RawControlConnection(player.socket)
        #expect(stuck.request(#"{"id":1,"command":"subscribe"}"#)?["ok"] as? Bool == true)
        let stuckEnd = try #require(Remote.playerEnd(of: stuck))
        #expect(Remote.holdsSocket(pid, inode: stuckEnd))
        // Each volume change is an event line of about 60 bytes for the subscriber.
        let flood = try RawControlConnection(player.socket)
        let floodEnd = try #require(Remote.playerEnd(of: flood))
        var sent = 0
        while !player.eventLines.contains(where: { $0.contains("dropped a subscriber") }) && sent < 60_000 {
            let batch = (0..<500).map { #"{"id":\#(sent + $0),"command":"volume","args":[0.\#(($0 % 9) + 1)]}"# + "\n" }.joined()
            #expect(flood.send(Array(batch.utf8)))
            sent += 500
            for _ in 0..<500 { guard flood.readLine() != nil else { sent = .max; break } }
        }
        #expect(player.eventLines.filter { $0.contains("dropped a subscriber") }.count == 1)
        // The subscriber's socket is closed by the player; the flood's, still open, is kept.
        #expect(Remote.waitUntil { !Remote.holdsSocket(pid, inode: stuckEnd) }, "the player still holds socket:[\(stuckEnd)]")
        #expect(Remote.holdsSocket(pid, inode: floodEnd))

        // A request written a byte at a time is answered once whole.
        let slow = try RawControlConnection(player.socket)
        for byte in Array(#"{"id":7,"command":"status"}"#.utf8) + [0x0A] {
            #expect(slow.send([byte]))
            usleep(20_000)
        }
        let answer = slow.readLine().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(answer?["id"] as? Int == 7 && answer?["ok"] as? Bool == true, "\(String(describing: answer))")
    }

    @Test("interlude remote against a stopped player (SIGSTOP) says in one line that it did not answer, exit 3")
    func remoteSaysWhenThePlayerDoesNotAnswer() throws {
        let player = try Player()
        #expect(Remote.waitForPlayer(player.runtime))
        kill(player.process.pid, SIGSTOP)
        defer { kill(player.process.pid, SIGCONT) }
        let result = try Remote.run(player.runtime, ["status"], timeout: 30)
        #expect(result.exitStatus == 3, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("did not answer"), "\(result.stderrText)")
        kill(player.process.pid, SIGCONT)
        #expect(try Remote.run(player.runtime, ["status"]).exitStatus == 0)
    }
}

extension RemoteControlTests.Player {
    /// The `--events json` lines so far.
    var eventLines: [String] {
        ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
