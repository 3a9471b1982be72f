import InterludeCore
import PlayerModel
import Rooms
#if canImport(Glibc)
import Glibc
#endif

/// The player's side of Snapcast's JSON-RPC, while it feeds a Snapcast
/// stream: an alarm that names rooms (`--rooms`) rings in those, and the
/// other rooms on the stream pause with the music and stay silent while it
/// rings (`RoomAlarm` decides what and when; this carries it out).
///
/// One TCP connection to the server's control port (`control=` in the
/// device's name, 127.0.0.1:1705 unless told), opened when such an alarm
/// rings and kept: non-blocking, its connect, writes and reads in the main
/// loop's `poll`; a line longer than `lineLimit` ends the connection. The
/// server's answers and notifications are read; only `Server.GetStatus`'s
/// reply is used.
public final class SnapcastRooms: LoopSource {
    /// A status of 256 rooms is about 200 KB: more is not a reply we use.
    static let lineLimit = 4 << 20
    let stream: SnapcastStream
    let fade: Duration
    private var alarm: RoomAlarm?
    private var fd: Int32 = -1
    private var connected = false
    private var output: [UInt8] = []
    private var input: [UInt8] = []
    private var nextID = 1
    private var statusID: Int?
    /// Alarms that began ringing since the last turn, to be looked up in the snapshot.
    private var rang: [Int] = []
    private var ended = false
    private var events: PlayerEventStream

    public init(stream: SnapcastStream, fade: Duration, events: PlayerEventStream) {
        self.stream = stream
        self.fade = fade
        self.events = events
        events.subscribe { [weak self] timed in
            guard let self else { return }
            switch timed.event {
            case .alarmRinging(let ids): rang += ids.map { $0.rawValue }
            case .alarmJoined(let id): rang.append(id.rawValue)
            case .alarmEnded: ended = true
            default: break
            }
        }
    }

    deinit { closeConnection() }

    public var pollRequests: [LoopPollRequest] {
        guard fd >= 0 else { return [] }
        let wantsOut = !connected || !output.isEmpty
        return [LoopPollRequest(fd: fd, events: LoopPollRequest.readable | (wantsOut ? LoopPollRequest.writable : 0))]
    }

    public func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        let alarm = self.alarm ?? makeAlarm(clock: core.clock)
        if !rang.isEmpty {
            let ids = Set(rang)
            rang = []
            let rooms = core.snapshot(.full).alarms.filter { ids.contains($0.id) }.flatMap(\.rooms)
            if !rooms.isEmpty { alarm.alarmBegan(naming: rooms) }
        }
        if ended {
            ended = false
            alarm.alarmEnded()
        }
        guard fd >= 0, let event = ready.first(where: { $0.fd == fd })?.events else { return }
        if !connected && event & (LoopPollRequest.writable | 0x008 | 0x010) != 0 { finishConnect() }
        if connected && event & LoopPollRequest.writable != 0 { flush() }
        if fd >= 0 && event & (LoopPollRequest.readable | 0x010) != 0 { read() }
    }

    /// Gives silenced rooms their volume back before the player leaves (written at once, as far as the socket takes it).
    public func shutDown() {
        alarm?.restoreNow()
        if connected { flush() }
        closeConnection()
    }

    private func makeAlarm(clock: any Clock) -> RoomAlarm {
        let latency = Duration.milliseconds(stream.leadMilliseconds + stream.bufferMilliseconds)
        let alarm = RoomAlarm(clock: clock, latency: latency, pauseLatency: .milliseconds(stream.bufferMilliseconds),
                              fade: fade, streamID: stream.name)
        alarm.send = { [unowned self] in send($0) }
        alarm.report = { [unowned self] in events.error($0) }
        self.alarm = alarm
        return alarm
    }

    private var endpoint: String { "\(stream.controlHost):\(stream.controlPort)" }

    // MARK: Requests

    private func send(_ request: RoomAlarm.Request) {
        let id = nextID
        nextID += 1
        let quote = JSONWriter().quoted
        let line: String
        switch request {
        case .status:
            statusID = id
            line = #"{"id":\#(id),"jsonrpc":"2.0","method":"Server.GetStatus"}"#
        case .setVolume(let client, let percent, let muted):
            line = #"{"id":\#(id),"jsonrpc":"2.0","method":"Client.SetVolume","params":{"id":\#(quote(client)),"#
                + #""volume":{"muted":\#(muted),"percent":\#(percent)}}}"#
        }
        output += Array((line + "\n").utf8)
        if fd < 0 { connect() } else if connected { flush() }
    }

    // MARK: The connection

    private func connect() {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: stream.controlPort)).bigEndian
        guard inet_pton(AF_INET, stream.controlHost, &address.sin_addr) == 1 else { return fail("bad address") }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return fail(String(cString: strerror(errno))) }
        fd = socket
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result == 0 {
            connected = true
            flush()
        } else if errno != EINPROGRESS {
            fail(String(cString: strerror(errno)))
        }
    }

    private func finishConnect() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
            return fail(String(cString: strerror(error != 0 ? error : errno)).lowercased())
        }
        connected = true
        flush()
    }

    private func flush() {
        while !output.isEmpty {
            let sent = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent > 0 {
                output.removeFirst(sent)
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                return
            } else {
                return fail(String(cString: strerror(errno)).lowercased())
            }
        }
    }

    private func read() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while fd >= 0 {
            let count = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                input += chunk[..<count]
                takeLines()
                guard input.count <= Self.lineLimit else { return fail("a reply longer than \(Self.lineLimit) bytes") }
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                return
            } else {
                return fail(count == 0 ? "the server closed the connection" : String(cString: strerror(errno)).lowercased())
            }
        }
    }

    private func takeLines() {
        while let newline = input.firstIndex(of: 0x0A) {
            let line = Array(input[..<newline])
            input.removeSubrange(...newline)
            guard let statusID, let reply = try? JSONParser.parse(line), reply["id"]?.integerValue == Int64(statusID) else {
                continue
            }
            self.statusID = nil
            do throws(SnapcastReplyError) {
                alarm?.statusArrived(try SnapcastRoom.rooms(inStatusReply: reply))
            } catch {
                alarm?.failed("\(endpoint): \(error.message)")
            }
        }
    }

    private func fail(_ reason: String) {
        closeConnection()
        output = []
        if statusID != nil {
            statusID = nil
            alarm?.failed("\(endpoint): \(reason)")
        }
    }

    private func closeConnection() {
        if fd >= 0 { close(fd) }
        fd = -1
        connected = false
        input = []
    }
}
