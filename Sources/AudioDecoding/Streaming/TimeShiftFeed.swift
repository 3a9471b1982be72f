import CFFmpeg
import InterludeCore
import Streams
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the player's config asks of a station's time-shift buffer
/// (`time-shift`, `time-shift-memory`): set once at start-up, read by each
/// reader thread as it starts.
public struct TimeShiftSettings: Sendable, Equatable {
    /// How much the buffer holds; nil: none (`time-shift = off`).
    public var limit: Duration?
    public var memoryBudgetBytes: Int
    /// Where its file is made (`$XDG_CACHE_HOME/interlude`).
    public var folder: String

    /// 30 minutes, 4 MiB of it in memory (about 4 min of a 128 kbit/s station).
    public static let defaultLimit = Duration.seconds(1800)
    public static let defaultMemoryBudgetBytes = 4 << 20

    public init(limit: Duration?, memoryBudgetBytes: Int, folder: String) {
        self.limit = limit
        self.memoryBudgetBytes = memoryBudgetBytes
        self.folder = folder
    }

    public static func standard(environment: [String: String]) -> TimeShiftSettings {
        TimeShiftSettings(limit: defaultLimit, memoryBudgetBytes: defaultMemoryBudgetBytes,
                          folder: TimeShiftFile.folder(environment: environment))
    }
}

/// The reader thread's side of a station's time-shift:
/// every packet received goes into a `TimeShiftBuffer` (memory, then its
/// `TimeShiftFile`, written here and never on the main loop), labelled with
/// the output frames it decodes to (`PacketFrameCounter`), and the packets
/// are handed to the decoder from a cursor into it, as far as the channel
/// has room. Playing live, the cursor is the live edge and each packet goes
/// on at once; paused, the channel fills, the cursor waits, and reception
/// goes on into the buffer; the resume takes the packets from the cursor, in
/// order, where the decoder stopped taking them. A seek (`requestSeek`: back
/// within the buffer, to live, or to the oldest frame held when the pause
/// outlasted the limit) moves the cursor to the chunk a pre-roll before the
/// frame asked for, answered by a `.rewound` message.
///
/// Without a buffer (`time-shift = off`) a packet the full channel cannot
/// take is dropped, and every seek goes to the live edge.
final class TimeShiftFeed {
    private let channel: StreamChannel
    private var buffer: TimeShiftBuffer?
    private var counter: PacketFrameCounter
    /// The next frame to hand over; the live edge when there is no buffer.
    private var cursor = 0
    private let prerollFrames: Int
    /// The heard frame when the limit last moved it (one line per pause, not per packet).
    private var toldDropAt: Int?

    /// The codec's pre-roll before a resume point: a fresh decoder's first
    /// frames (MP3's bit reservoir and overlap, AAC's and Opus's windows)
    /// are dropped with the rest before the frame asked for. 200 ms.
    static func preroll(rate: Int) -> Int { rate / 5 }

    init(channel: StreamChannel, settings: TimeShiftSettings, rate: Int, counter: PacketFrameCounter) {
        self.channel = channel
        self.counter = counter
        prerollFrames = Self.preroll(rate: rate)
        guard let limit = settings.limit else { return }
        let spill: any TimeShiftSpill
        do { spill = try TimeShiftFile(folder: settings.folder) } catch {
            channel.note("the time-shift buffer keeps everything in memory: \(error.description)")
            spill = MemoryTimeShiftSpill()
        }
        buffer = TimeShiftBuffer(limit: limit, sampleRate: rate, memoryBudgetBytes: settings.memoryBudgetBytes, spill: spill)
        channel.isTimeShifting.store(buffer != nil, ordering: .relaxed)
    }

    /// A packet received from the station (this takes it); false once the channel stops.
    func received(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        let frames = counter.frames(forDuration: packet.pointee.duration)
        guard buffer != nil else {
            let start = cursor
            cursor += frames
            channel.liveFrame.store(cursor, ordering: .relaxed)
            channel.oldestFrame.store(cursor, ordering: .relaxed)
            serveSeek()
            if channel.hasRoom(for: Int(max(0, packet.pointee.size))) {
                return channel.post(.packet(packet, startFrame: start))
            }
            StreamChannel.free(.packet(packet, startFrame: start))
            return !channel.isStopping
        }
        let size = Int(max(0, packet.pointee.size))
        let bytes = size > 0 ? [UInt8](UnsafeBufferPointer(start: packet.pointee.data, count: size)) : []
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        interlude_av_packet_free(&owned)
        guard !bytes.isEmpty else { return true }
        let heard = channel.heardFrame.load(ordering: .relaxed)
        // Mutated in place (`buffer!`): a copy would copy its whole index on every packet.
        buffer!.seek(to: heard)
        do {
            if case .resumePointMoved = try buffer!.append(bytes, frames: frames), toldDropAt != heard {
                toldDropAt = heard
                let held = buffer!
                channel.note("the time-shift buffer is full (\(clockText(Double(held.limitFrames) / Double(held.sampleRate))) "
                             + "held): its oldest audio is dropped, and the resume point moves on with it")
            }
        } catch {
            stop(because: error)
            return true
        }
        channel.liveFrame.store(buffer!.liveFrame, ordering: .relaxed)
        channel.oldestFrame.store(buffer!.oldestFrame, ordering: .relaxed)
        serveSeek()
        return handOver()
    }

    /// The file failed (a full disk): the station plays on live, with nothing kept.
    private func stop(because error: TimeShiftBufferError) {
        channel.note("time-shift stops: \(error.description)")
        cursor = buffer?.liveFrame ?? cursor
        buffer = nil
        channel.isTimeShifting.store(false, ordering: .relaxed)
    }

    /// At the connection's end: what is held past the cursor is handed over
    /// first, as the channel takes it (a seek may still come meanwhile), then
    /// the end.
    func drain() {
        while !channel.isStopping, let held = buffer, cursor < held.liveFrame {
            serveSeek()
            guard handOver() else { return }
            if let left = buffer, cursor < left.liveFrame { usleep(50_000) }
        }
    }

    private func serveSeek() {
        guard let request = channel.takeSeekRequest() else { return }
        guard let held = buffer else {
            channel.post(.rewound(generation: request.generation, startFrame: cursor, resumeAt: cursor))
            return
        }
        let target = min(max(request.frame, held.oldestFrame), held.liveFrame)
        var start = target
        if target < held.liveFrame, let chunk = try? held.chunk(containing: max(held.oldestFrame, target - prerollFrames)) {
            start = chunk.startFrame
        }
        cursor = start
        channel.post(.rewound(generation: request.generation, startFrame: start, resumeAt: target))
    }

    /// Hands over chunks from the cursor while the channel has room; false once it stops.
    private func handOver() -> Bool {
        guard let held = buffer else { return !channel.isStopping }
        cursor = max(cursor, held.oldestFrame)
        while cursor < held.liveFrame {
            let chunk: TimeShiftBuffer.Chunk?
            do { chunk = try held.chunk(containing: cursor) } catch {
                stop(because: error)
                return true
            }
            guard let chunk, channel.hasRoom(for: chunk.bytes.count) else { return !channel.isStopping }
            guard let packet = Self.packet(chunk.bytes) else { return !channel.isStopping }
            guard channel.post(.packet(packet, startFrame: chunk.startFrame)) else { return false }
            cursor = chunk.startFrame + chunk.frames
        }
        return true
    }

    /// A packet holding `bytes` (FFmpeg's padding zeroed), for the decoder.
    private static func packet(_ bytes: [UInt8]) -> UnsafeMutablePointer<AVPacket>? {
        guard let packet = interlude_av_packet_alloc() else { return nil }
        guard bytes.count <= Int(Int32.max), interlude_av_new_packet(packet, Int32(bytes.count)) == 0, let data = packet.pointee.data else {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            interlude_av_packet_free(&owned)
            return nil
        }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
        return packet
    }
}

extension TimeShiftSettings {
    private static let chosen = Mutex<TimeShiftSettings?>(nil)

    /// The settings every station opened from now on uses (the player's config, at start-up).
    public static func use(_ settings: TimeShiftSettings) { chosen.withLock { $0 = settings } }

    /// The chosen settings, else the defaults with the process's own `$XDG_CACHE_HOME`.
    static var inUse: TimeShiftSettings {
        if let settings = chosen.withLock({ $0 }) { return settings }
        var environment: [String: String] = [:]
        for key in ["HOME", "XDG_CACHE_HOME"] { if let value = getenv(key) { environment[key] = String(cString: value) } }
        return standard(environment: environment)
    }
}

/// Where a station's listener is against its live edge (`LiveStream.timeShift`).
public struct TimeShiftPosition: Equatable, Sendable {
    /// Frames from the heard frame to the live edge.
    public var behindLiveFrames: Int
    /// Frames held before the heard frame (how far a seek may go back).
    public var heldBeforeFrames: Int
    /// Whether a buffer is kept (false: `time-shift = off`, or its file failed).
    public var isKept: Bool
}
