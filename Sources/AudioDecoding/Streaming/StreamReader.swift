import CFFmpeg
import CInterludeShims
import InterludeCore
import Streams
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a stream's reader thread hands the main loop, in the order it happened.
enum StreamMessage {
    /// The connection is open and its audio stream found: the codec's
    /// parameters (a copy, the receiver's to free) and the station's
    /// `icy-*` headers as FFmpeg kept them (empty when it sent none);
    /// `finite`: a resource of known length (a file served over HTTP, with
    /// its length), whose end is the entry's end, where a station's is a drop;
    /// `timing`: how the packets' timestamps read as seconds, and whether the
    /// reader went to the start it was asked for.
    case opened(parameters: UnsafeMutablePointer<AVCodecParameters>, headers: [UInt8], container: String, finite: Bool,
                timing: StreamTiming)
    /// One packet of the audio stream (the receiver's to free), and the
    /// frame of the connection's time-shift timeline it starts at
    /// (`TimeShiftFeed`: output frames counted from the connection's first packet).
    case packet(UnsafeMutablePointer<AVPacket>, startFrame: Int)
    /// The answer to the decoder's seek request `generation`
    /// (`StreamChannel.requestSeek`): the packets from here on start at
    /// `startFrame`, a little before `resumeAt` (the codec's pre-roll), the
    /// frame the request landed on (clamped to what the buffer holds).
    case rewound(generation: Int, startFrame: Int, resumeAt: Int)
    /// A new title from the station: an ICY block's `StreamTitle`, as FFmpeg
    /// split the block out, or the artist and title of an Ogg stream's
    /// comment header (each chain's) or of an HLS station's timed ID3 tag
    /// (`StreamTags`); and the time-shift frame it arrived at (the live edge
    /// then; nil for a resource of known length, which has no time-shift
    /// timeline).
    case title(String, frame: Int?)
    /// The station's own name in its stream, where its headers may give
    /// none: an Ogg stream's ORGANIZATION comment or a timed ID3 tag's TRSN
    /// frame (`StreamTags.stationName`). Posted when it is new.
    case stationName(String)
    /// The connection could not be opened, or a read failed: FFmpeg's words.
    case failed(String)
    /// The server ended the stream.
    case ended
}

/// The audio stream's clock, as the reader found it: a packet's timestamp
/// `pts` is `(pts - startPTS) * timeBase` seconds into the resource.
struct StreamTiming {
    var timeBase: Double
    var startPTS: Int64
    /// The container's length in seconds (finite resources only).
    var duration: Double?
    /// The reader was asked to start later than the resource's start and
    /// sought there (an HTTP range request): the first packet is at or before it.
    var sought: Bool
}

/// Between one reader thread and the main loop: a bounded queue of
/// `StreamMessage`s under a lock, an eventfd that the loop polls (written
/// when the queue was empty, so a loop that keeps up is woken once per
/// batch), and the stop flag FFmpeg's interrupt callback reads.
///
/// `@unchecked Sendable`: `messages` and `queuedBytes` are touched only with
/// `lock` held; the rest is immutable or atomic. The lock is held for an
/// append or a swap, never across a network call, so the main loop's `take`
/// waits for no more than that.
final class StreamChannel: @unchecked Sendable {
    /// The loop polls it; a reader posting after the loop let go writes to a
    /// descriptor that is still this channel's (closed in `deinit`).
    let wake: Int32
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let room: UnsafeMutablePointer<pthread_cond_t>
    private var messages: [StreamMessage] = []
    private var queuedBytes = 0
    private let stopping = Atomic<Bool>(false)
    /// The decoder's seek not yet served by the reader: its generation and
    /// the time-shift frame wanted (`Int.max`: the live edge). Under `lock`.
    private var seekRequest: (generation: Int, frame: Int)?
    private var seekGeneration = 0
    /// Lines for the listener from the reader (the buffer dropped audio, its
    /// file failed), under `lock`; `noteWake` is written when one is added,
    /// so the loop hears of it while paused, when it polls no `wake`.
    private var notes: [String] = []
    let noteWake: Int32

    /// What the reader's time-shift buffer holds, in the connection's frames
    /// (published after each packet): the oldest frame and the live edge;
    /// `isTimeShifting` false when it keeps nothing (`time-shift = off`).
    let oldestFrame = Atomic<Int>(0)
    let liveFrame = Atomic<Int>(0)
    let isTimeShifting = Atomic<Bool>(false)
    /// The frame the listener hears now (the resume point while paused), in
    /// the connection's frames: set by the decoder each loop turn, read by
    /// the reader so the buffer can say when the limit drops it.
    let heardFrame = Atomic<Int>(0)

    /// Packets wait here while the decoder takes none (paused: the ring is
    /// full): 1 MiB, 65 s of a 128 kbit/s station, after which the reader
    /// stops reading and TCP holds the server back.
    static let maximumQueuedBytes = 1 << 20

    init() throws(SystemCallError) {
        wake = try SystemCall.eventDescriptor()
        do { noteWake = try SystemCall.eventDescriptor() } catch {
            close(wake)
            throw error
        }
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        room = .allocate(capacity: 1)
        room.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(room, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for message in messages { Self.free(message) }
        pthread_cond_destroy(room)
        room.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
        close(wake)
        close(noteWake)
    }

    /// Ends the reader: FFmpeg's next interrupt check (between its 100 ms
    /// socket polls) makes the call under way return, and a wait for room ends.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        pthread_mutex_lock(lock)
        pthread_cond_broadcast(room)
        pthread_mutex_unlock(lock)
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Whether a packet of `bytes` would be queued now without waiting.
    func hasRoom(for bytes: Int) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return queuedBytes + bytes <= Self.maximumQueuedBytes
    }

    /// Asks the reader to send the packets again from time-shift frame
    /// `frame` (`Int.max`: from the live edge); the answer is a `.rewound`
    /// message with the generation returned here, and every message before
    /// it is stale. A newer request replaces one not yet served.
    func requestSeek(toFrame frame: Int) -> Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        seekGeneration += 1
        seekRequest = (seekGeneration, frame)
        return seekGeneration
    }

    /// The reader's side of `requestSeek`.
    func takeSeekRequest() -> (generation: Int, frame: Int)? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        defer { seekRequest = nil }
        return seekRequest
    }

    /// A line for the listener, told at the loop's next turn even while paused.
    func note(_ line: String) {
        pthread_mutex_lock(lock)
        notes.append(line)
        pthread_mutex_unlock(lock)
        var one: UInt64 = 1
        _ = write(noteWake, &one, 8)
    }

    func takeNotes() -> [String] {
        var counter: UInt64 = 0
        _ = read(noteWake, &counter, 8)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        defer { notes.removeAll() }
        return notes
    }

    /// Queues `message` (a packet waits while the queue is full); false, with
    /// the message freed, once the channel is stopping.
    @discardableResult
    func post(_ message: StreamMessage) -> Bool {
        var bytes = 0
        if case .packet(let packet, _) = message { bytes = Int(max(0, packet.pointee.size)) }
        pthread_mutex_lock(lock)
        while bytes > 0 && queuedBytes + bytes > Self.maximumQueuedBytes && !isStopping {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            deadline.tv_nsec += 100_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(room, lock, &deadline)
        }
        guard !isStopping else {
            pthread_mutex_unlock(lock)
            Self.free(message)
            return false
        }
        let wasEmpty = messages.isEmpty
        messages.append(message)
        queuedBytes += bytes
        pthread_mutex_unlock(lock)
        if wasEmpty {
            var one: UInt64 = 1
            _ = write(wake, &one, 8)
        }
        return true
    }

    /// Everything queued, oldest first (the caller frees what it takes).
    func take() -> [StreamMessage] {
        var counter: UInt64 = 0
        _ = read(wake, &counter, 8)
        pthread_mutex_lock(lock)
        let taken = messages
        messages.removeAll(keepingCapacity: true)
        queuedBytes = 0
        pthread_cond_broadcast(room)
        pthread_mutex_unlock(lock)
        return taken
    }

    static func free(_ message: StreamMessage) {
        switch message {
        case .opened(let parameters, _, _, _, _):
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            interlude_avcodec_parameters_free(&owned)
        case .packet(let packet, _):
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            interlude_av_packet_free(&owned)
        case .title, .stationName, .failed, .ended, .rewound:
            break
        }
    }
}

/// A stream's network side, on a thread of its own (design.md 2: no network
/// read on the main loop or the real-time writer): opens the URL with
/// libavformat (`StreamOpenOptions`, the interrupt callback on the channel's
/// stop flag), finds the audio stream, then reads packets and hands them
/// over until the server ends, a read fails, or the channel is stopped.
enum StreamReader {
    /// Starts the thread; the reason when it could not be started.
    /// `startSeconds`: where a finite, seekable resource (an episode served
    /// over HTTP) is read from, sought once its stream is found (FFmpeg's
    /// http protocol asks for the bytes from there with a range request).
    static func start(url: String, channel: StreamChannel, timeShift: TimeShiftSettings, rate: Int,
                      startSeconds: Double = 0) -> String? {
        let failure = BackgroundThread.start {
            _ = interlude_name_this_thread("interlude-stream")
            interlude_ffmpeg_note_errors()
            run(url: url, channel: channel, timeShift: timeShift, rate: rate, startSeconds: startSeconds)
        }
        return failure.map { "cannot start the stream's reader thread (\($0.message))" }
    }

    private static func run(url: String, channel: StreamChannel, timeShift: TimeShiftSettings, rate: Int, startSeconds: Double) {
        guard let allocated = interlude_avformat_alloc_context() else {
            channel.post(.failed("out of memory"))
            return
        }
        // FFmpeg's interrupt callback and every request after the first (HLS's) go
        // through the watch: the bounds on what the server can make this thread do.
        let watch = StreamWatch(url: url, channel: channel, limits: StreamLimits.inUse)
        defer { withExtendedLifetime(watch) {} }
        watch.watch(allocated)
        watch.awaitingAudio()
        func failed(_ status: Int32) { if !channel.isStopping { channel.post(.failed(watch.verdict ?? failure(status))) } }
        let certificates = getenv("SSL_CERT_FILE").map { String(cString: $0) }
        let values = StreamOpenOptions.values(certificateFile: certificates)
        func dictionary(_ values: [(key: String, value: String)]) -> OpaquePointer? {
            var options: OpaquePointer?
            for option in values { _ = interlude_av_dict_set(&options, option.key, option.value, 0) }
            return options
        }
        // The connection first (what avformat_open_input would open), so that the
        // content type the server sent can set the format probe's cap.
        var connection: UnsafeMutablePointer<AVIOContext>?
        var ioOptions = dictionary(values)
        var status = watch.request(url) { interlude_avio_open_url(&connection, url, &allocated.pointee.interrupt_callback, &ioOptions) }
        interlude_av_dict_free(&ioOptions)
        guard status >= 0, let io = connection else {
            // Never opened: closing frees it.
            var context: UnsafeMutablePointer<AVFormatContext>? = allocated
            interlude_avformat_close_url(&context)
            failed(status)
            return
        }
        defer { interlude_avio_closep(&connection) }
        let contentType = String(decoding: option("mime_type", of: io), as: UTF8.self)
        let probeBytes = StreamOpenOptions.formatProbeBytes(contentType: contentType)
        var formatOptions = dictionary(values.map { $0.key == "formatprobesize" ? ($0.key, String(probeBytes)) : $0 })
        // Ours to close (`AVFMT_FLAG_CUSTOM_IO`, which avformat_open_input sets for a context with one).
        allocated.pointee.pb = io
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure FFmpeg frees the context and sets it to NULL.
        status = interlude_avformat_open_url(&context, url, &formatOptions)
        interlude_av_dict_free(&formatOptions)
        guard status >= 0, let container = context else {
            failed(status)
            return
        }
        // Before the connection's close (deferred earlier, so run later).
        defer { interlude_avformat_close_url(&context) }
        // As a file's set-up: the pages the open touched (every demuxer's
        // probe, the protocols' set-up, TLS) are given back at each step, so
        // they never all add up and do not stay (`interlude_ffmpeg_release_setup_pages`).
        interlude_ffmpeg_release_setup_pages(0)
        status = interlude_avformat_find_stream_info(container)
        interlude_ffmpeg_release_setup_pages(0)
        guard status >= 0 else {
            failed(status)
            return
        }
        let index = interlude_av_find_best_stream(container, AVMEDIA_TYPE_AUDIO)
        guard index >= 0, index < container.pointee.nb_streams, let stream = container.pointee.streams[Int(index)],
              let parameters = interlude_avcodec_parameters_alloc() else {
            channel.post(.failed(watch.verdict ?? "no audio stream in what the server sends"))
            return
        }
        _ = interlude_avcodec_parameters_copy(parameters, stream.pointee.codecpar)
        let name = container.pointee.iformat?.pointee.name.map { String(cString: $0) } ?? "stream"
        // A duration: the container's, or the demuxer's estimate from the length the
        // server sent (an MP3 file). A station, or a live HLS playlist, has none.
        let finite = container.pointee.duration != interlude_av_nopts_value() && container.pointee.duration > 0
        let base = stream.pointee.time_base
        let timeBase = base.num > 0 && base.den > 0 ? Double(base.num) / Double(base.den) : 0
        let startPTS = stream.pointee.start_time == interlude_av_nopts_value() ? 0 : stream.pointee.start_time
        // Microseconds (AV_TIME_BASE) up to a thousand hours: anything else is no length.
        let duration = finite && container.pointee.duration < 3_600_000_000_000 ? Double(container.pointee.duration) / 1_000_000 : nil
        var sought = false
        let seekable = container.pointee.pb.map { $0.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 } ?? false
        if finite, seekable, timeBase > 0, startSeconds > 0, startSeconds < (duration ?? 0) {
            let target = startPTS + Int64((startSeconds / timeBase).rounded(.down))
            // The last packet at or before the start (every MP3 frame is one).
            sought = interlude_avformat_seek_file(container, index, Int64.min, target, target, 0) >= 0
        }
        let timing = StreamTiming(timeBase: timeBase, startPTS: startPTS, duration: duration, sought: sought)
        // What the reader needs of the parameters, read before they are posted: from
        // then on they are the decoder's, which frees them once its codec is open.
        let frameSize = Int(max(0, parameters.pointee.frame_size))
        let sourceRate = Int(max(1, parameters.pointee.sample_rate))
        let unframedAAC = parameters.pointee.codec_id == AV_CODEC_ID_AAC && parameters.pointee.extradata_size == 0
        let sampleRate = Int(parameters.pointee.sample_rate), channels = Int(parameters.pointee.ch_layout.nb_channels)
        guard channel.post(.opened(parameters: parameters, headers: option("icy_metadata_headers", of: container),
                                   container: name, finite: finite, timing: timing)) else { return }
        guard let packet = interlude_av_packet_alloc() else { return }
        defer {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            interlude_av_packet_free(&owned)
        }
        // A station's packets go through its time-shift buffer; a resource of
        // known length (a file over HTTP) is read no faster than it plays.
        let streamBase = stream.pointee.time_base
        let feed = finite ? nil : PacketFrameCounter(timeBaseNumerator: Int(streamBase.num), timeBaseDenominator: Int(streamBase.den),
                                                     outputRate: rate, fallbackFrames: (frameSize > 0 ? frameSize : 1152) * rate / sourceRate)
            .map { TimeShiftFeed(channel: channel, settings: timeShift, rate: rate, counter: $0) }
        var lastBlock: [UInt8] = []
        var lastStationName: String?
        // The station's name from its stream, said once until it changes.
        func postStationName(_ name: String?) {
            guard let name, name != lastStationName else { return }
            lastStationName = name
            channel.post(.stationName(name))
        }
        // Every title, whatever carried it, at the live edge now (a station's time-shift frame; none for a file).
        func postTitle(_ title: String) {
            channel.post(.title(title, frame: feed == nil ? nil : channel.liveFrame.load(ordering: .relaxed)))
        }
        // HLS's timed metadata: ID3 tags in a stream of their own beside the audio, a station's titles.
        let timedID3 = finite ? nil : (0..<Int(container.pointee.nb_streams)).first {
            container.pointee.streams[$0]?.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_TIMED_ID3
        }
        // AAC in ADTS (no configuration beside the packets): false syncs never reach the buffer or the decoder.
        var adts = unframedAAC ? ADTSFrameCheck(sampleRate: sampleRate, channels: channels) : nil
        // The open's wait for audio goes on into the first reads: its packets come first.
        while !channel.isStopping {
            watch.awaitingAudio()
            status = interlude_av_read_frame(container, packet)
            guard status >= 0 else {
                feed?.drain()
                if status == interlude_averror_eof() && watch.verdict == nil {
                    if !channel.isStopping { channel.post(.ended) }
                } else {
                    failed(status)
                }
                return
            }
            if let timedID3, packet.pointee.stream_index == timedID3 {
                // Muxed ahead of the audio it names: its title from the live edge now.
                let tag = bytes(of: packet)
                postStationName(StreamTags.stationName(timedID3: tag))
                if let title = StreamTags.title(timedID3: tag) { postTitle(title) }
                interlude_av_packet_unref(packet)
                continue
            }
            guard packet.pointee.stream_index == index, isFrame(packet, &adts, channel: channel), let held = interlude_av_packet_alloc() else {
                interlude_av_packet_unref(packet)
                continue
            }
            watch.audioArrived()
            // A station's own tags (an Ogg chain's comment header) are read with
            // the chain's first packet, and are its title from that packet on.
            if feed != nil, let tags = streamTags(stream) {
                postStationName(tags.station)
                if let title = tags.title { postTitle(title) }
            }
            // The read packet is left empty, to be read into again.
            interlude_av_packet_move_ref(held, packet)
            if let feed {
                guard feed.received(held) else { return }
            } else {
                guard channel.post(.packet(held, startFrame: 0)) else { return }
            }
            // FFmpeg keeps the last block it split out of the interleaved stream;
            // a new one is a new title (or the same title sent again, skipped).
            let block = option("icy_metadata_packet", of: container)
            if !block.isEmpty && block != lastBlock {
                lastBlock = block
                if let title = ICYMetadata.parse(block).title { postTitle(title) }
            }
        }
    }

    /// The title and the station's name in tags the demuxer has just read
    /// into `stream` (an Ogg stream's comment header: the first, and each
    /// new chain's), or nil when it read none.
    /// The tags are taken out of the stream once read: FFmpeg adds a new
    /// chain's to what the stream holds (Opus: "Title One;Title Two"), and
    /// an empty stream's next tags are that chain's alone.
    private static func streamTags(_ stream: UnsafeMutablePointer<AVStream>) -> (title: String?, station: String?)? {
        guard stream.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED != 0 else { return nil }
        stream.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        defer { interlude_av_dict_free(&stream.pointee.metadata) }
        func value(_ key: String) -> [UInt8]? {
            guard let entry = interlude_av_dict_get(stream.pointee.metadata, key, nil, 0), let text = entry.pointee.value else { return nil }
            // One byte past the limit tells StreamTags where a cut falls; no more of a long value is copied.
            let count = strnlen(text, StreamTags.maximumValueBytes + 1)
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count))
        }
        return (StreamTags.title(artist: value("artist"), title: value("title")),
                StreamTags.stationName(organization: value("organization")))
    }

    /// The packet's bytes, copied (none when FFmpeg gave none).
    private static func bytes(of packet: UnsafeMutablePointer<AVPacket>) -> [UInt8] {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }

    /// Whether `packet` is a frame of the stream: always, but for AAC in ADTS
    /// (`ADTSFrameCheck`), where a false sync where the connection began is
    /// dropped unsaid, and one after the first frame is noted.
    private static func isFrame(_ packet: UnsafeMutablePointer<AVPacket>, _ check: inout ADTSFrameCheck?, channel: StreamChannel) -> Bool {
        guard check != nil else { return true }
        let size = Int(max(0, packet.pointee.size))
        let header = UnsafeRawBufferPointer(start: packet.pointee.data, count: packet.pointee.data == nil ? 0 : min(size, 7))
        switch check!.judge(header, packetSize: size) {
        case .frame: return true
        case .falseSync(beforeFirst: true): return false
        case .falseSync(beforeFirst: false):
            channel.note("skipped \(size) bytes that are not a frame of the station's AAC stream (a false sync)")
            return false
        }
    }

    /// An option of the HTTP context under the container's I/O, as bytes (FFmpeg's string, copied).
    private static func option(_ name: String, of container: UnsafeMutablePointer<AVFormatContext>) -> [UInt8] {
        guard let io = container.pointee.pb else { return [] }
        return option(name, of: io)
    }

    /// An option of the HTTP context under `io`, as bytes (FFmpeg's string, copied).
    private static func option(_ name: String, of io: UnsafeMutablePointer<AVIOContext>) -> [UInt8] {
        var value: UnsafeMutablePointer<UInt8>?
        guard interlude_av_opt_get(UnsafeMutableRawPointer(io), name, AV_OPT_SEARCH_CHILDREN, &value) >= 0,
              let text = value else { return [] }
        let bytes = Array(UnsafeBufferPointer(start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))))
        interlude_av_freep(&value)
        return bytes
    }

    /// What the player says of a failed call: FFmpeg's sentence for `status`,
    /// after the line it logged when that is a bare "input/output error" (a
    /// certificate that does not verify, a host name that does not resolve).
    private static func failure(_ status: Int32) -> String {
        let code = describe(status)
        var buffer = [CChar](repeating: 0, count: 256)
        let length = interlude_ffmpeg_noted_error(&buffer, buffer.count)
        guard status == -EIO, length > 0 else { return code }
        let noted = String(decoding: buffer.prefix(min(length, buffer.count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(noted) (\(code))"
    }

    /// FFmpeg's sentence for `status`, its first letter lowered to follow "URL: ".
    static func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard interlude_av_strerror(status, &buffer, buffer.count) >= 0 else { return "error \(status)" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let first = text.first else { return "error \(status)" }
        return first.lowercased() + text.dropFirst()
    }
}
