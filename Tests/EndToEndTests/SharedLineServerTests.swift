import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The control socket and the MPD socket are served by one line server: the
/// same hostile clients (half-closed, never reading, an endless line, a flood,
/// one more than the cap) against each socket of the real binary hold by each
/// protocol's own rule, cost the player no CPU, leave other clients answered,
/// and the player keeps serving. Raw connections; a paused player.
@Suite(.serialized) struct SharedLineServerTests {
    enum Served: String, CaseIterable, CustomTestStringConvertible {
        case control, mpd

        var testDescription: String { self == .control ? "the control socket" : "the MPD socket" }

        func socket(_ player: Player) -> String { player.runtime + (self == .control ? "/interlude/control" : "/interlude/mpd") }

        /// A client, greeted when the protocol greets.
        func connect(_ player: Player) throws -> RawControlConnection {
            let client = try RawControlConnection(socket(player))
            if self == .mpd {
                let greeting = client.readLine()
                #expect(greeting == "OK MPD 0.23.5")
            }
            return client
        }

        /// A `status` request, numbered for the control socket.
        func status(_ id: Int = 1) -> String { self == .control ? #"{"id":\#(id),"command":"status"}"# : "status" }

        /// The reply to `status`, whole (a line of JSON; MPD's lines up to `OK`), or nil when the connection ended.
        func readStatus(_ client: RawControlConnection) -> [UInt8]? {
            switch self {
            case .control: client.readLine().map { Array(($0 + "\n").utf8) }
            case .mpd: client.readMPDReply()
            }
        }

        /// A new client is answered, and `interlude remote status` too.
        func answers(_ player: Player) throws -> Bool {
            let client = try connect(player)
            client.send(status())
            let reply = readStatus(client).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let answered = self == .control ? reply.contains(#""ok":true"#) : reply.hasSuffix("\nOK\n")
            let remote = try Remote.run(player.runtime, ["status"])
            return answered && remote.exitStatus == 0
        }
    }

    /// `interlude play` of a 30 s sweep with both sockets (the MPD one is on by
    /// default) and `--events json`, its own empty config; paused once both answer.
    struct Player {
        let runtime: String
        let process: BackgroundProcess
        let events: String

        init() throws {
            runtime = try Remote.makeRuntimeDirectory()
            let config = ScratchFiles.makeDirectory("line-server-config")
            let mp3 = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
            events = runtime + "/events.jsonl"
            var environment = try PulseServer.shared().makeSink().environment
            environment["XDG_RUNTIME_DIR"] = runtime
            environment["XDG_CONFIG_HOME"] = config
            environment["XDG_STATE_HOME"] = config + "/state"
            environment["XDG_CACHE_HOME"] = config + "/cache"
            environment["XDG_DATA_HOME"] = config + "/data"
            process = try BackgroundProcess.start(InterludeBinary.path(), ["play", mp3, "--device", "pulse", "--events", "json"],
                                                  environment: environment, stdout: .file(events))
            guard Remote.waitForPlayer(runtime) else { throw ProcessError.notReady("no player at \(runtime)") }
            try Remote.run(runtime, ["pause"]).check()
            let mpd = runtime + "/interlude/mpd"
            guard try Remote.waitUntil(15, { try Remote.status(runtime)["state"] as? String == "paused" }),
                  Remote.waitUntil(15, { (try? RawControlConnection(mpd))?.readLine() != nil }) else {
                throw ProcessError.notReady("the player at \(runtime) did not pause, or its MPD socket did not answer")
            }
        }

        var pid: pid_t { process.pid }

        var eventLines: [String] {
            ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// Bytes that wait unread in the socket `inode` (`ss`'s Recv-Q), nil when it is not listed.
    static func unreadBytes(inode: UInt64) -> Int? {
        guard let listing = try? ProcessRunner.run("ss", ["-x", "-a", "-H"]), listing.succeeded else { return nil }
        for line in listing.stdoutText.split(separator: "\n") {
            // Netid State Recv-Q Send-Q Local-Address Port Peer-Address Port: a socket's port is its inode.
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 6, UInt64(fields[fields.count - 3]) == inode else { continue }
            return Int(fields[2])
        }
        return nil
    }

    /// The player's end of `client`, once it is accepted.
    static func acceptedEnd(_ client: RawControlConnection, pid: pid_t) throws -> UInt64 {
        let end = try #require(Remote.playerEnd(of: client))
        #expect(Remote.waitUntil { Remote.holdsSocket(pid, inode: end) }, "the player's end: \(end)")
        return end
    }

    @Test("a client that sends many requests, half-closes and never reads costs the player no CPU; others are answered; its connection goes when it leaves",
          arguments: Served.allCases)
    func halfClosedClient(_ served: Served) throws {
        let player = try Player()
        var end: UInt64 = 0
        do {
            let client = try served.connect(player)
            end = try Self.acceptedEnd(client, pid: player.pid)
            // Replies of about 1 MB, several times what the kernel's buffers hold.
            let probe = try served.connect(player)
            probe.send(served.status())
            let size = try #require(served.readStatus(probe)).count
            let count = (1 << 20) / size + 1
            let requests = (0..<count).map { served.status($0) + "\n" }.joined()
            #expect(client.send(Array(requests.utf8)))
            shutdown(client.fd, Int32(SHUT_WR))
            usleep(300_000)
            // A loop that polls a readable EOF takes all the CPU the scheduler gives it
            // (0.75 s over 3 s under load, a whole core alone); a paused player 0.02 s.
            let busy = HostileClientTests.cpuOver(player.pid, seconds: 3)
            #expect(busy < 0.3, "CPU over 3 s with the half-closed client: \(busy) s")
            #expect(try served.answers(player))
            #expect(Remote.holdsSocket(player.pid, inode: end), "its replies still wait for it")
        }
        // It has left: the player closes its side too.
        #expect(Remote.waitUntil { !Remote.holdsSocket(player.pid, inode: end) }, "the player still holds socket:[\(end)]")
        #expect(try served.answers(player))
        _ = player.process.stop()
    }

    @Test("a client that never reads is dropped once its output passes the protocol's limit (events for the control socket, one reply for MPD); others are answered",
          arguments: Served.allCases)
    func clientThatNeverReads(_ served: Served) throws {
        let player = try Player()
        let stuck = try served.connect(player)
        let other = try served.connect(player)
        switch served {
        case .control:
            // Each volume change is an event line of about 60 bytes for the subscriber: 1 MB is about 17,000.
            #expect(stuck.request(#"{"id":1,"command":"subscribe"}"#)?["ok"] as? Bool == true)
            let stuckEnd = try Self.acceptedEnd(stuck, pid: player.pid)
            var sent = 0
            while !player.eventLines.contains(where: { $0.contains("dropped a subscriber") }) && sent < 60_000 {
                let batch = (0..<500).map { #"{"id":\#(sent + $0),"command":"volume","args":[0.\#(($0 % 9) + 1)]}"# + "\n" }.joined()
                #expect(other.send(Array(batch.utf8)))
                sent += 500
                for _ in 0..<500 { guard other.readLine() != nil else { sent = .max; break } }
            }
            #expect(player.eventLines.filter { $0.contains("dropped a subscriber") }.count == 1)
            #expect(Remote.waitUntil { !Remote.holdsSocket(player.pid, inode: stuckEnd) }, "the player still holds socket:[\(stuckEnd)]")
        case .mpd:
            // A queue of 1,001 whose `playlistinfo` asked in one command list more times than 4 MB holds.
            let file = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
            let paths = "[" + Array(repeating: "\"\(file)\"", count: 100).joined(separator: ",") + "]"
            let control = try Served.control.connect(player)
            for batch in 0..<10 {
                #expect(control.request(#"{"id":\#(batch),"command":"queue-add","args":\#(paths)}"#)?["ok"] as? Bool == true)
            }
            other.send("playlistinfo")
            let size = try #require(other.readMPDReply()).count
            let stuckEnd = try Self.acceptedEnd(stuck, pid: player.pid)
            let list = ["command_list_begin"] + Array(repeating: "playlistinfo", count: (4 << 20) / size + 1) + ["command_list_end"]
            #expect(stuck.send(Array(list.map { $0 + "\n" }.joined().utf8)))
            #expect(Remote.waitUntil { !Remote.holdsSocket(player.pid, inode: stuckEnd) }, "the player still holds socket:[\(stuckEnd)]")
            #expect(stuck.readLine() == nil, "closed without a reply")
        }
        other.send(served.status())
        #expect(served.readStatus(other) != nil)
        #expect(try served.answers(player))
        _ = player.process.stop()
    }

    @Test("a line one byte past the protocol's limit without its newline closes the client (after one line of JSON on the control socket); others are answered",
          arguments: Served.allCases)
    func endlessLine(_ served: Served) throws {
        let player = try Player()
        let endless = try served.connect(player)
        let end = try Self.acceptedEnd(endless, pid: player.pid)
        // The limits each protocol documents: 64 KB for the control socket, MPD's 8191.
        let limit = served == .control ? 64 * 1024 : 8191
        #expect(endless.send([UInt8](repeating: UInt8(ascii: "a"), count: limit + 1)))
        if served == .control {
            let reply = endless.readLine() ?? ""
            #expect(reply.contains(#""ok":false"#) && reply.contains("longer than 65536 bytes"), "\(reply)")
        }
        #expect(endless.readLine() == nil, "closed")
        #expect(Remote.waitUntil { !Remote.holdsSocket(player.pid, inode: end) }, "the player still holds socket:[\(end)]")
        #expect(try served.answers(player))
        _ = player.process.stop()
    }

    @Test("a client that sends requests as fast as it can and never reads is read no further once its replies wait: its requests wait in the kernel, the player idles, others are answered, and it gets every reply once it reads",
          arguments: Served.allCases)
    func flood(_ served: Served) throws {
        let player = try Player()
        let flood = try served.connect(player)
        let end = try Self.acceptedEnd(flood, pid: player.pid)
        var sent = 0
        var unsent: ArraySlice<UInt8> = []
        /// Sends what the socket takes now, without waiting (the descriptor's reads still wait).
        func sendUnsent() -> Bool {
            let taken = unsent.withUnsafeBytes { Glibc.send(flood.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            guard taken > 0 else { return false }
            unsent = unsent.dropFirst(taken)
            return true
        }
        // As fast as the socket takes them, for two seconds; a request cut when it is full is finished later.
        let until = monotonicSeconds() + 2
        while monotonicSeconds() < until {
            if unsent.isEmpty {
                unsent = Array((served.status(sent) + "\n").utf8)[...]
                sent += 1
            }
            if !sendUnsent() { usleep(1000) }
        }
        usleep(300_000)
        // The player stopped reading: the rest of the requests wait in its socket, not in its memory.
        let unread = Self.unreadBytes(inode: end) ?? 0
        #expect(unread > 0, "bytes unread in the player's socket")
        let busy = HostileClientTests.cpuOver(player.pid, seconds: 3)
        #expect(busy < 0.3, "CPU over 3 s with the flood waiting: \(busy) s")
        #expect(Self.unreadBytes(inode: end) == unread, "still unread 3 s later")
        #expect(try served.answers(player))
        // Held, not dropped: once it reads, its replies come, in order.
        let first = served.readStatus(flood).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(served == .control ? first.contains(#""id":0,"#) : first.hasSuffix("\nOK\n"), "\(first.prefix(200))")
        var replies = 1
        while replies < sent {
            if !unsent.isEmpty && !sendUnsent() && replies == sent - 1 {
                // Every other reply is read, so the player reads again at its next turn: the cut
                // request's rest goes once its socket takes it (sent too early it found the
                // socket still full, and the wait for a reply to half a request timed out).
                let deadline = monotonicSeconds() + 10
                while !unsent.isEmpty && monotonicSeconds() < deadline { if !sendUnsent() { usleep(1000) } }
            }
            guard served.readStatus(flood) != nil else { break }
            replies += 1
        }
        #expect(replies == sent)
        _ = player.process.stop()
    }

    @Test("one client more than the cap: the control socket's 65th is answered in place of the idlest (said once), MPD's 101st is closed at once; the others are answered",
          arguments: Served.allCases)
    func oneMoreThanTheCap(_ served: Served) throws {
        let player = try Player()
        let cap = served == .control ? 64 : 100
        let socketsBefore = Self.socketInodes(player.pid)
        var clients: [RawControlConnection] = []
        for _ in 0..<cap { clients.append(try served.connect(player)) }
        do {
            // Each has been accepted once a later one is answered (connections are taken in order).
            let last = try #require(clients.last)
            last.send(served.status())
            #expect(served.readStatus(last) != nil)
        }
        // The player's ends of these clients: every socket it has taken since they came.
        let theirEnds = Self.socketInodes(player.pid).subtracting(socketsBefore)
        #expect(theirEnds.count >= cap, "the player holds \(theirEnds.count) new sockets for \(cap) clients")
        let extra = try RawControlConnection(served.socket(player))
        switch served {
        case .control:
            extra.send(served.status(7))
            let reply = extra.readLine() ?? ""
            #expect(reply.contains(#""id":7"#) && reply.contains(#""ok":true"#), "\(reply)")
            // The first, which has sent nothing, made room.
            #expect(clients[0].readLine() == nil, "the idlest is closed")
            #expect(player.eventLines.filter { $0.contains("idle longest") }.count == 1)
        case .mpd:
            #expect(extra.readLine() == nil, "the 101st is closed at once, as MPD closes one past max_connections")
            clients[0].send(served.status())
            #expect(served.readStatus(clients[0]) != nil)
        }
        clients[1].send(served.status())
        #expect(served.readStatus(clients[1]) != nil)
        clients.removeAll()
        // The player sees each departure on a later turn: until it has closed their
        // ends, a new client would be one past the cap again (MPD's is closed at once).
        #expect(Remote.waitUntil { Self.socketInodes(player.pid).isDisjoint(with: theirEnds) },
                "the player still holds \(Self.socketInodes(player.pid).intersection(theirEnds).count) of the departed clients' sockets")
        #expect(try served.answers(player))
        _ = player.process.stop()
    }

    /// The sockets `pid` holds open now, by inode (its descriptors linked to `socket:[INODE]`).
    static func socketInodes(_ pid: pid_t) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(names.compactMap { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)).flatMap { $0.hasPrefix("socket:") ? $0 : nil }
        })
    }
}
