import InterludeCore

/// The snapserver stream the player feeds, as the user names it after
/// `--device snapcast:`: the same words as snapserver's own `source` line, so
/// the line can be copied from `snapserver.conf` (`pipe:///tmp/snapfifo?
/// name=Interlude&sampleformat=48000:16:2`), or the pipe's path alone.
///
/// The source is snapserver's **pipe** (a FIFO), not its TCP source:
/// - what the pipe holds unread is known at any moment (`FIONREAD`), so the
///   player paces itself on it and knows which frame the rooms hear (frames
///   written, less the pipe's content, less the server's `buffer`); a TCP
///   socket's buffers on both ends are sized by the kernel (seconds on
///   loopback) and what the server has not read yet is not visible;
/// - a server that is not there is told at once and without blocking: opening
///   a FIFO for writing without a reader fails (`ENXIO`), a write after the
///   reader left fails (`EPIPE`);
/// - snapserver makes the FIFO itself (`mode=create`), as MPD's and Mopidy's
///   set-ups do. The cost: the server runs on the player's machine (its
///   clients anywhere).
public struct SnapcastStream: Sendable, Equatable {
    /// The FIFO snapserver reads.
    public var path: String
    /// The stream's sample format, snapserver's `sampleformat` (16-bit only:
    /// the engine's encoding).
    public var rate: Int
    public var channels: Int
    /// snapserver's `buffer` (its `[stream]` setting, 1000 ms unless changed):
    /// how long after the server reads a frame the rooms play it.
    public var bufferMilliseconds: Int
    /// How much the player keeps in the pipe ahead of the server's reads: the
    /// server reads a chunk every `chunk_ms` (20 ms) and fills what is
    /// missing with silence, so the pipe must never run dry between the
    /// player's turns. A pause takes it back, so it delays no pause; it
    /// delays a change that is no pause (a volume step, the end of an
    /// alarm's voice) and costs memory.
    public var leadMilliseconds: Int
    /// The stream's name in the server (`name=`, its id in JSON-RPC); snapserver's own default is `default`.
    public var name: String = "default"
    /// Where the server's JSON-RPC answers (`control=HOST:PORT`, its `[tcp]`
    /// section: 127.0.0.1:1705 unless changed), for alarms that name rooms.
    public var controlHost: String = "127.0.0.1"
    public var controlPort: Int = 1705

    public static let rateRange = CountRange(8000...192_000, unit: "frames a second")
    public static let channelRange = CountRange(1...8, unit: "channels")
    public static let bufferRange = CountRange(20...10_000, unit: "milliseconds")
    public static let leadRange = CountRange(20...1000, unit: "milliseconds")
    public static let chunkRange = CountRange(10...1000, unit: "milliseconds")
    /// snapserver's defaults: `sampleformat = 48000:16:2`, `buffer = 1000`, `chunk_ms = 20`.
    public static let defaultRate = 48000
    public static let defaultChannels = 2
    public static let defaultBufferMilliseconds = 1000
    public static let defaultChunkMilliseconds = 20
    /// The longest path taken (a FIFO's path is a file name: PATH_MAX).
    static let pathLimit = 4096

    /// Keys of snapserver's source line that are the server's business, taken and ignored.
    static let serverKeys: Set<String> = ["mode", "codec", "dryout_ms", "controlscript", "controlscriptparams",
                                          "send_to_muted", "idle_threshold", "silence_threshold_percent"]

    public init(path: String, rate: Int = defaultRate, channels: Int = defaultChannels,
                bufferMilliseconds: Int = defaultBufferMilliseconds, leadMilliseconds: Int? = nil,
                chunkMilliseconds: Int = defaultChunkMilliseconds) {
        self.path = path
        self.rate = rate
        self.channels = channels
        self.bufferMilliseconds = bufferMilliseconds
        self.leadMilliseconds = leadMilliseconds ?? Self.lead(forChunk: chunkMilliseconds)
    }

    /// Ten chunks, at least 200 ms: the writer tops the pipe up when half of
    /// it is left, so a writer 100 ms late (a loaded machine, no real-time
    /// priority) or a server catching up on late reads never finds it dry.
    static func lead(forChunk chunk: Int) -> Int { max(200, 10 * chunk) }

    /// Why a stream's name is refused: one line naming the part.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// `PATH`, `pipe://PATH` (`pipe:///tmp/snapfifo`), each with an optional
    /// `?key=value&...`: `sampleformat=RATE:16:CHANNELS`, `buffer=MS` (the
    /// server's), `lead=MS`, `chunk_ms=MS` (the server's, for the lead's
    /// default), and the server's own keys (`name`, `mode`, `codec`, ...), ignored.
    public static func parse(_ text: String) throws(ParseError) -> SnapcastStream {
        guard text.utf8.count <= pathLimit + 1024 else { throw ParseError(message: "the stream's name is too long") }
        var rest = Substring(text)
        if rest.hasPrefix("tcp://") {
            throw ParseError(message: "\(text): a TCP source is not fed (the pipe is: pipe:///PATH, see the README's Snapcast section)")
        }
        if rest.hasPrefix("pipe://") { rest = rest.dropFirst("pipe://".count) }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        guard path.hasPrefix("/"), path.utf8.count <= pathLimit, !path.utf8.contains(0) else {
            throw ParseError(message: "\(text): the pipe must be an absolute path (pipe:///tmp/snapfifo)")
        }
        var stream = SnapcastStream(path: path)
        var lead: Int?
        var chunk = defaultChunkMilliseconds
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = String(keyValue[0])
                let value = keyValue.count == 2 ? String(keyValue[1]) : ""
                switch key {
                case "sampleformat":
                    (stream.rate, stream.channels) = try sampleFormat(value, in: text)
                case "buffer":
                    stream.bufferMilliseconds = try number(value, key: key, range: bufferRange, in: text)
                case "lead":
                    lead = try number(value, key: key, range: leadRange, in: text)
                case "chunk_ms":
                    chunk = try number(value, key: key, range: chunkRange, in: text)
                case "name":
                    guard !value.isEmpty, value.utf8.count <= 256 else {
                        throw ParseError(message: "\(text): name '\(value)' is not a stream's name (1-256 bytes)")
                    }
                    stream.name = value
                case "control":
                    (stream.controlHost, stream.controlPort) = try control(value, in: text)
                default:
                    guard serverKeys.contains(key) else {
                        throw ParseError(message: "\(text): unknown key '\(key)' (sampleformat, buffer, lead, chunk_ms, name, control)")
                    }
                }
            }
        }
        stream.leadMilliseconds = lead ?? Self.lead(forChunk: chunk)
        return stream
    }

    /// `RATE:16:CHANNELS`; `*` (snapserver's "any") is refused, a FIFO carries no format.
    static func sampleFormat(_ value: String, in text: String) throws(ParseError) -> (rate: Int, channels: Int) {
        let fields = value.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let rate = rateRange.parse(String(fields[0])),
              let channels = channelRange.parse(String(fields[2])) else {
            throw ParseError(message: "\(text): sampleformat '\(value)' is not RATE:16:CHANNELS (48000:16:2)")
        }
        guard fields[1] == "16" else {
            throw ParseError(message: "\(text): sampleformat '\(value)': only 16-bit samples are fed (RATE:16:CHANNELS)")
        }
        return (rate, channels)
    }

    /// `IPV4:PORT` or `localhost:PORT`: where the server's JSON-RPC listens.
    static func control(_ value: String, in text: String) throws(ParseError) -> (host: String, port: Int) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        let octets = parts.first?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        let hostIsAddress = octets.count == 4 && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
        guard parts.count == 2, hostIsAddress || parts[0] == "localhost",
              let port = CountRange(1...65535).parse(String(parts[1])) else {
            throw ParseError(message: "\(text): control '\(value)' is not IPV4:PORT (127.0.0.1:1705)")
        }
        return (parts[0] == "localhost" ? "127.0.0.1" : String(parts[0]), port)
    }

    static func number(_ value: String, key: String, range: CountRange, in text: String) throws(ParseError) -> Int {
        guard let number = range.parse(value) else {
            throw ParseError(message: "\(text): \(key) '\(value)' is not \(range.accepts)")
        }
        return number
    }

    /// snapserver's source line for this stream, as the README shows it.
    public var sourceLine: String {
        "source = pipe://\(path)?name=\(name)&sampleformat=\(rate):16:\(channels)"
    }
}
