import RemoteControl
import LoopIO
import Glibc
@testable import Interlude
import InterludeCore
import Testing

/// The line server's defences over real Unix sockets in this process, with a
/// small echo protocol in place of the player, each run with the control
/// socket's rules and with MPD's: the loop's turns are driven by hand (a poll
/// that does not wait, then `service`), so each step is exact.
struct LineServerTests {
    enum Served: String, CaseIterable, CustomTestStringConvertible {
        case control, mpd

        var rules: LineServerRules { self == .control ? ControlSocket.rules : MPDServer.rules }
        var testDescription: String { rawValue }
    }

    /// Answers `echo LINE`, or for `bulk N` N bytes and a newline; keeps what the server told it.
    final class Echo: LineProtocol {
        struct Session {
            var number: Int
            var holding = false
            var evictable = true
        }

        weak var server: LineServer<Echo>?
        private var accepted = 0
        var answered: [String] = []
        var evicted: [Int] = []
        var dropped: [Int] = []
        var everyoneEvictable = true

        func newSession() -> Session {
            accepted += 1
            return Session(number: accepted, evictable: everyoneEvictable)
        }

        func answer(_ line: [UInt8], from client: LineClient<Session>, context: Void) {
            let text = String(decoding: line, as: UTF8.self)
            answered.append(text)
            if text.hasPrefix("bulk "), let count = Int(text.dropFirst(5)) {
                server?.reply([UInt8](repeating: UInt8(ascii: "b"), count: count) + [0x0A], to: client)
            } else {
                server?.reply(Array("echo \(text)\n".utf8), to: client)
            }
        }

        func holdsLines(of client: LineClient<Session>) -> Bool { client.session.holding }
        func mayEvict(_ client: LineClient<Session>) -> Bool { client.session.evictable }
        func evicting(_ client: LineClient<Session>) { evicted.append(client.session.number) }
        func droppedForUnreadOutput(_ client: LineClient<Session>) { dropped.append(client.session.number) }
    }

    /// A server listening in a scratch directory, and its loop's turns.
    final class Harness {
        let directory: String
        let path: String
        let echo = Echo()
        let server: LineServer<Echo>
        let rules: LineServerRules

        init(_ rules: LineServerRules, owner: uid_t = getuid()) throws {
            var template = Array("/tmp/line-server-XXXXXX".utf8CString)
            directory = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
            path = directory + "/socket"
            self.rules = rules
            server = LineServer(rules: rules, handler: echo, owner: owner)
            echo.server = server
            server.listen(on: try UnixSocket.listen(at: path), checksPeer: true)
        }

        deinit {
            server.shutDown()
            unlink(path)
            rmdir(directory)
        }

        /// One turn: what the server asks for is polled without waiting, and
        /// what is ready serviced. Returns what was ready (empty: the loop would sleep).
        @discardableResult
        func turn() -> [(fd: Int32, events: Int16)] {
            var requests: [pollfd] = []
            server.addPollRequests { requests.append(pollfd(fd: $0, events: $1, revents: 0)) }
            _ = poll(&requests, nfds_t(requests.count), 0)
            let ready = requests.filter { $0.revents != 0 }.map { (fd: $0.fd, events: $0.revents) }
            server.service(ready: ready, context: ())
            return ready
        }

        func turns(_ count: Int) {
            for _ in 0..<count { turn() }
        }

        /// A client, accepted and greeted (MPD's greeting read).
        func client() throws -> Peer {
            let peer = try Peer(path)
            turn()
            if let greeting = rules.greeting { #expect(peer.read() == greeting) }
            return peer
        }

        /// The server's side of `peer`, by the order of acceptance (`number`).
        func serverSide(_ number: Int) -> LineClient<Echo.Session>? {
            server.clients.first { $0.session.number == number && !$0.closed }
        }
    }

    /// The test's end of a connection, non-blocking.
    final class Peer {
        let fd: Int32

        init(_ path: String) throws { fd = try UnixSocket.connect(to: path, timeoutMilliseconds: 1000) }
        deinit { close(fd) }

        /// Sends what the socket takes now; the bytes taken.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Int {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { break }
                sent += count
            }
            return sent
        }

        func send(_ line: String) -> Int { send(Array((line + "\n").utf8)) }

        private(set) var ended = false

        /// What the socket holds now; `ended` once the server closed its end and all was read.
        func read() -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { ended = true }
                guard count > 0 else { return bytes }
                bytes += chunk[..<count]
            }
        }

        func readText() -> String { String(decoding: read(), as: UTF8.self) }
    }

    @Test("a client that sends, half-closes and never reads is polled for writing only, so the loop sleeps; it is answered to the end and closed", arguments: Served.allCases)
    func halfClosedClientLetsTheLoopSleep(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let peer = try harness.client()
        let pending = try #require(harness.serverSide(1))
        // Requests of 4 KB replies, one a turn, until the kernel takes no more:
        // then a reply waits in the server, less than the read pause, which alone would not stop the reads.
        var requests = 0
        while pending.pendingOutputBytes == 0 && requests < 1000 {
            #expect(peer.send("bulk 4095") > 0)
            requests += 1
            harness.turn()
        }
        #expect(pending.pendingOutputBytes > 0 && pending.pendingOutputBytes <= under.rules.readPauseBytes)
        #expect(peer.send("bulk 4095") > 0)
        requests += 1
        shutdown(peer.fd, Int32(SHUT_WR))
        harness.turns(3)
        // The EOF stays readable: polled for input, every wait would end at once.
        #expect(harness.turn().isEmpty, "the loop would not sleep")
        var received = 0
        for _ in 0..<1000 where !peer.ended {
            received += peer.read().count
            harness.turn()
        }
        #expect(received == requests * 4096)
        #expect(peer.ended)
        #expect(harness.server.clients.isEmpty)
    }

    @Test("events for a client that never reads are posted until the output limit; then it is dropped, its protocol told once, and another client is answered", arguments: Served.allCases)
    func clientThatNeverReadsIsDropped(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let stuck = try harness.client()
        let other = try harness.client()
        let client = try #require(harness.serverSide(1))
        let event = [UInt8](repeating: UInt8(ascii: "e"), count: 1023) + [0x0A]
        var posted = 0
        while !client.closed && posted < 4 * under.rules.outputLimit.bytes {
            harness.server.post(event, to: client)
            posted += event.count
            harness.turn()
        }
        #expect(client.closed)
        // What the kernel took before the limit: its buffers, a few hundred KB at most.
        #expect(posted > under.rules.outputLimit.bytes && posted < under.rules.outputLimit.bytes + (1 << 20), "\(posted)")
        #expect(harness.echo.dropped == [1])
        harness.turn()
        #expect(other.send("still there") > 0)
        harness.turn()
        #expect(other.readText() == "echo still there\n")
        var left = 0
        for _ in 0..<1000 where !stuck.ended { left += stuck.read().count }
        #expect(stuck.ended && left < posted)
    }

    @Test("a reply past the output limit is queued whole on the control socket and closes an MPD client", arguments: Served.allCases)
    func replyPastTheOutputLimit(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let peer = try harness.client()
        let size = under.rules.outputLimit.bytes + 1
        #expect(peer.send("bulk \(size)") > 0)
        var received = 0
        for _ in 0..<1000 where !peer.ended {
            harness.turn()
            received += peer.read().count
        }
        switch under.rules.outputLimit {
        case .beyondReplies:
            #expect(received == size + 1)
            #expect(!peer.ended && harness.echo.dropped.isEmpty)
        case .everything:
            #expect(received == 0 && peer.ended)
            #expect(harness.echo.dropped == [1])
        }
    }

    @Test("a line of the limit is answered; one byte more without its newline closes the client, with the protocol's last reply if it has one", arguments: Served.allCases)
    func endlessLineClosesTheClient(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let limit = under.rules.maximumLineBytes
        let fits = try harness.client()
        #expect(fits.send([UInt8](repeating: UInt8(ascii: "a"), count: limit) + [0x0A]) == limit + 1)
        var answer: [UInt8] = []
        for _ in 0..<20 {
            harness.turn()
            answer += fits.read()
        }
        #expect(answer == Array("echo ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: limit) + [0x0A])

        let endless = try harness.client()
        #expect(endless.send([UInt8](repeating: UInt8(ascii: "a"), count: limit + 1)) == limit + 1)
        var last: [UInt8] = []
        // The end is seen once every copy of the server's descriptor is closed: a test
        // beside this one that forks holds one copy until its child has closed it.
        for _ in 0..<10_000 where !endless.ended {
            if harness.turn().isEmpty { usleep(1000) }
            last += endless.read()
        }
        #expect(endless.ended)
        #expect(last == under.rules.overlongLineReply ?? [])
        #expect(harness.server.clients.count == 1)
        #expect(fits.send("next") > 0)
        harness.turn()
        #expect(fits.readText() == "echo next\n")
    }

    @Test("a client that sends without pause and never reads is read only while few replies wait: the rest waits in the kernel, and another client is answered each turn", arguments: Served.allCases)
    func floodIsHeldAtTheReadPause(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let flood = try harness.client()
        let other = try harness.client()
        let request = Array("bulk 99\n".utf8)
        var sent = 0
        var unsent: ArraySlice<UInt8> = []
        // Requests until the socket takes no more; one cut there is finished by the next call.
        func sendAll() {
            while true {
                if unsent.isEmpty {
                    unsent = request[...]
                    sent += 1
                }
                unsent = unsent.dropFirst(flood.send(Array(unsent)))
                guard unsent.isEmpty else { return }
            }
        }
        for round in 0..<100 {
            sendAll()
            harness.turn()
            let client = try #require(harness.serverSide(1))
            // Answering stops at the pause: one reply more at most.
            #expect(client.pendingOutputBytes <= under.rules.readPauseBytes + 100)
            #expect(other.send("ping \(round)") > 0)
            harness.turn()
            #expect(other.readText() == "echo ping \(round)\n")
        }
        let answered = harness.echo.answered.filter { $0.hasPrefix("bulk") }.count
        // Held, not dropped: the requests past the pause wait unread.
        #expect(answered < sent)
        #expect(harness.server.clients.count == 2 && harness.echo.dropped.isEmpty)
        // Once it reads, every request is answered.
        var received = 0
        for _ in 0..<10_000 where received < sent * 100 {
            if !unsent.isEmpty { unsent = unsent.dropFirst(flood.send(Array(unsent))) }
            received += flood.read().count
            harness.turn()
        }
        #expect(received == sent * 100)
    }

    @Test("with every place taken a new client is refused (MPD) or the idlest evictable client makes room, said to the protocol (control)", arguments: Served.allCases)
    func moreClientsThanTheCap(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let cap = under.rules.maximumConnections
        var peers: [Peer] = []
        // The listen backlog is 64: connect no faster than the server accepts.
        for _ in 0..<cap { peers.append(try harness.client()) }
        #expect(harness.server.clients.count == cap)
        // All but the first have said something since.
        for peer in peers.dropFirst() { #expect(peer.send("here") > 0) }
        harness.turns(2)
        for peer in peers.dropFirst() { #expect(peer.readText() == "echo here\n") }

        let extra = try Peer(harness.path)
        harness.turn()
        #expect(harness.server.clients.count == cap)
        switch under.rules.whenFull {
        case .refuse(let line):
            #expect(extra.read() == line ?? [])
            #expect(extra.ended)
            #expect(peers[0].send("first") > 0)
            harness.turn()
            #expect(peers[0].readText() == "echo first\n")
        case .evictIdlest:
            #expect(harness.echo.evicted == [1])
            _ = peers[0].read()
            #expect(peers[0].ended)
            #expect(extra.send("new") > 0)
            harness.turn()
            #expect(extra.readText() == "echo new\n")
        }
    }

    @Test("with every place taken by clients that may not be evicted, the control socket refuses a new one with its line", arguments: [Served.control])
    func nobodyToEvict(_ under: Served) throws {
        let harness = try Harness(under.rules)
        harness.echo.everyoneEvictable = false
        var peers: [Peer] = []
        for _ in 0..<under.rules.maximumConnections { peers.append(try harness.client()) }
        let extra = try Peer(harness.path)
        harness.turn()
        guard case .evictIdlest(let line) = under.rules.whenFull else { throw Refused.notEvicting }
        #expect(extra.read() == line ?? [])
        #expect(extra.ended)
        #expect(harness.echo.evicted.isEmpty && harness.server.clients.count == peers.count)
    }

    enum Refused: Error { case notEvicting }

    @Test("no more than 16 connections are taken a turn", arguments: Served.allCases)
    func acceptIsBoundedPerTurn(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let peers = try (0..<40).map { _ in try Peer(harness.path) }
        harness.turn()
        #expect(harness.server.clients.count == 16)
        harness.turns(2)
        #expect(harness.server.clients.count == peers.count)
    }

    @Test("another user's client (SO_PEERCRED) is closed, after the protocol's refusal if it has one", arguments: Served.allCases)
    func anotherUsersClientIsRefused(_ under: Served) throws {
        let harness = try Harness(under.rules, owner: getuid() &+ 1)
        let stranger = try Peer(harness.path)
        harness.turn()
        #expect(stranger.read() == under.rules.peerRefusal ?? [])
        #expect(stranger.ended)
        #expect(harness.server.clients.isEmpty && harness.echo.answered.isEmpty)
    }

    @Test("lines wait unread while the protocol holds them, and are answered in order once it lets go", arguments: Served.allCases)
    func heldLinesWait(_ under: Served) throws {
        let harness = try Harness(under.rules)
        let peer = try harness.client()
        let client = try #require(harness.serverSide(1))
        client.session.holding = true
        #expect(peer.send("one") > 0 && peer.send("two") > 0)
        harness.turns(3)
        #expect(harness.echo.answered.isEmpty && peer.read().isEmpty)
        client.session.holding = false
        harness.server.answerHeldLines(of: client, context: ())
        harness.turn()
        #expect(peer.readText() == "echo one\necho two\n")
    }
}
