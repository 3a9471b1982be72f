import BookFormat
import CFFmpeg
import InterludeCore
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// A station (an `http`/`https` URL, `StreamLocation`) as a `Decoder`: the
/// network on a `StreamReader` thread, the decoding here on the main loop
/// (libavcodec and libswresample over the packets handed over, in memory).
/// `read` never waits: with nothing arrived it says `.notYet`, and the loop
/// polls `wakeDescriptor` until something does.
///
/// The output format is fixed before the server has answered (so opening
/// never waits for the network): `target` when a queue plays already, else
/// CD format, 44.1 kHz stereo, as an empty queue's output opens; whatever
/// the station sends, and whatever a reconnection brings, is converted to it.
///
/// Seeks and the time-shift: the engine resumes by
/// seeking to the frame where the media stopped, behind what was decoded
/// into the ring. The last `historySeconds` handed out are kept and served
/// again from there, and the packets that follow come in order from the
/// reader's time-shift buffer (`TimeShiftFeed`), which kept receiving while
/// nothing was taken: the resume continues at the frame the listener
/// stopped hearing, however long the pause, within the buffer's limit.
/// A seek beyond the history (back within the buffer, to live, or to the
/// oldest frame when the pause outlasted the limit) asks the reader to send
/// the packets again from a chunk before the frame (`requestSeek`); they are
/// decoded by a fresh codec and the frames before it dropped. Positions stay
/// the listener's (frames handed out, with nothing skipped or repeated in
/// the count); `delta` maps them to the connection's time-shift frames.
/// Without a buffer (`time-shift = off`) every resume goes to the live edge,
/// said in one line.
///
/// A file served over HTTP (a podcast episode: `finite`, a length known, the
/// server taking ranges) seeks for real: a seek outside what was kept starts
/// a new reader at the target (`StreamReader.start(startSeconds:)`, a range
/// request), whose frames before the target are dropped as they are
/// decoded, by the first packet's timestamp, so the place is the frame
/// asked for. A dropped connection of such a file reconnects to where it was
/// heard up to, not to its start.
final class StreamDecoder: Decoder, LiveStream {
    let path: String
    let format: AudioFormat
    private(set) var sourceFormat: AudioFormat
    var url: String { path }

    private enum Phase: Equatable {
        /// A reader is connecting; `first`: the stream's first connection,
        /// whose failure is the track's (thrown), not a drop.
        case connecting(first: Bool)
        case playing
        /// Dropped: no reader runs until `reconnect`.
        case waiting
        /// Given up or closed: `read` ends.
        case over
    }

    private var phase = Phase.connecting(first: true)
    private var channel: StreamChannel?
    private var inbox: [StreamMessage] = []
    private var inboxNext = 0
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var converter: OpaquePointer?
    /// The decoder's frames the converter was made for: sample format, rate, channels.
    private var converterInput: (format: Int32, rate: Int32, channels: Int32)?
    private let frames: DecodedFrames
    private var failure: DecoderError?
    private var events: [StreamEvent] = []
    private var codecName = "audio"
    private var containerName = "stream"
    private var bitrateKbps = 0
    private(set) var stationName: String?
    /// The name came from the server's `icy-name`, which a name in the stream's tags does not replace.
    private var namedByHeaders = false
    /// The title of the audio heard (shown as it is heard, `showHeardTitle`).
    private(set) var title: String?
    /// The connection's titles by the time-shift frame they arrived at.
    private var titles = StationTitleTimeline()
    /// The time-shift frame heard last (`listenerHeard`); nil before the connection's first is.
    private var heardConnectionFrame: Int?
    /// How far the live edge is ahead of the frame heard while the station
    /// plays as it came (the server's burst on connect, 4 s at Icecast's 64
    /// KiB, and the output's latency): a listener who never pauses hears
    /// that far behind the edge all along, and is shown a title as it
    /// arrives; one paused for a minute is shown it a minute later. The
    /// most seen while the connection played, up to its first pause or
    /// seek (`lagSettled`): the burst may still be arriving at the first.
    private var connectionLag: Int?
    private var lagSettled = false
    private(set) var isAwaitingData = false
    /// The connection is to a resource of known length (`StreamMessage.opened`).
    private var isFinite = false

    /// Output frames handed out by `read` since the start (the position of the next live frame).
    private var handedOut = 0
    /// The last frames handed out (`historySeconds`, up to `handedOut`), for a resume's seek back.
    private var history: FrameHistory
    /// Where `read` serves from while it replays `history` (a resume); nil: live.
    private var replayAt: Int?
    /// What a resume seeks back over is what the output's ring held past the
    /// frame heard: 0.73 s at a 300 ms latency (`PulseOutput.mediaRingFrames`).
    /// A seek further back is served by the time-shift buffer's rewind, as
    /// exactly. Kept for 5 s it was 1 MB of a station's 20 MB (`make bench`'s
    /// limit).
    static let historySeconds = 2

    /// A position of `read` (frames handed out) minus the connection's
    /// time-shift frame it plays: set by each rewind and connection.
    private var delta = 0
    /// A seek sent to the reader and not yet answered: packets before its
    /// `.rewound` are stale; `target` is the position the answer plays at.
    private var pendingRewind: (generation: Int, target: Int)?
    /// Decoded frames before this time-shift frame are dropped (a rewind's pre-roll).
    private var dropUntil: Int?
    /// Where the next seek (the resume, or `restartMedia` at once) goes
    /// instead of the frame asked for: by a number of time-shift frames, or live.
    private enum Move: Equatable {
        case by(Int)
        case live
    }
    private var nextMove: Move?
    private var timeShiftLines: [String] = []
    /// The output frame the current connection starts at (0 at the resource's
    /// start; a seek's target, or where a dropped finite stream was).
    private var connectionStart = 0
    /// Output frames still to drop before the connection reaches
    /// `connectionStart`; nil until its first packet's timestamp says.
    private var dropFrames: Int?
    private var timing: StreamTiming?

    init(url: String, target: AudioFormat?) throws(DecoderError) {
        path = url
        format = target ?? AudioFormat(rate: 44100, channels: 2)
        sourceFormat = format
        frames = DecodedFrames(channels: format.channels)
        history = FrameHistory(channels: format.channels, capacityFrames: Self.historySeconds * format.rate)
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_ffmpeg_load(&message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw DecoderError(.library, path: url, detail: "cannot load FFmpeg's libraries: \(text)")
        }
        _ = Self.initialiseNetwork
        frame = interlude_av_frame_alloc()
        guard frame != nil else { throw DecoderError(.library, path: url, detail: "out of memory") }
        if let problem = connect() { throw DecoderError(.library, path: url, detail: problem) }
    }

    /// `Decoders.open` sends URLs here itself, by `StreamLocation`; no file's head names a stream.
    convenience init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError) {
        try self.init(url: path, target: target)
    }

    static func accepts(_ head: FileHead) -> Bool { false }

    /// TLS's global set-up, once a process, before the first reader thread.
    private static let initialiseNetwork: Void = { _ = interlude_avformat_network_init() }()

    /// FFmpeg's libraries loaded (under the loader's lock) and its network set up, for a
    /// reader started without a decoder (`StationNameReader`); false when they cannot load.
    static func loadLibraries() -> Bool {
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_ffmpeg_load(&message, message.count) == 0 else { return false }
        _ = initialiseNetwork
        return true
    }

    deinit { close() }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        phase = .over
        stopReader()
        if converter != nil { interlude_swr_free(&converter) }
        if codec != nil { interlude_avcodec_free_context(&codec) }
        if frame != nil { interlude_av_frame_free(&frame) }
    }

    // MARK: The connection

    /// Starts a reader on a new channel; the reason when none could start.
    private func connect() -> String? {
        let fresh: StreamChannel
        do { fresh = try StreamChannel() } catch { return "cannot make the stream's eventfd (\(error.description))" }
        let start = Double(connectionStart) / Double(format.rate)
        if let problem = StreamReader.start(url: path, channel: fresh, timeShift: TimeShiftSettings.inUse, rate: format.rate,
                                            startSeconds: start) {
            return problem
        }
        channel = fresh
        pendingRewind = nil
        dropUntil = nil
        return nil
    }

    private func stopReader() {
        channel?.stop()
        for message in inbox[inboxNext...] { StreamChannel.free(message) }
        inbox.removeAll()
        inboxNext = 0
        channel = nil
    }

    var wakeDescriptor: Int32 { channel?.wake ?? -1 }

    func takeStreamEvents() -> [StreamEvent] {
        defer { events.removeAll() }
        return events
    }

    func reconnect() {
        guard phase == .waiting else { return }
        stopReader()
        // A file goes on where it was heard up to; a station is live.
        if isFinite { restart(at: handedOut) }
        phase = .connecting(first: false)
        if let problem = connect() {
            phase = .waiting
            events.append(.attemptFailed(reason: problem))
        }
    }

    func giveUp() {
        stopReader()
        phase = .over
    }

    // MARK: Reading

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult {
        if let failure { throw failure }
        let capacity = buffer.count / format.bytesPerFrame
        guard capacity > 0, let base = buffer.baseAddress else { return .frames(0) }
        var filled = replay(into: base.assumingMemoryBound(to: Int16.self), capacity: capacity)
        if filled < capacity && phase != .over {
            let rest = UnsafeMutableRawBufferPointer(start: base + filled * format.bytesPerFrame,
                                                     count: (capacity - filled) * format.bytesPerFrame)
            let live: DecoderReadResult
            do {
                live = try frames.read(into: rest) { () throws(DecoderError) in try refill() }
            } catch {
                if filled > 0 { return .frames(filled) }
                throw error
            }
            if case .frames(let count) = live, count > 0 {
                keep(rest.baseAddress!.assumingMemoryBound(to: Int16.self), frames: count)
                filled += count
            }
        }
        isAwaitingData = filled == 0 && phase != .over
        if filled > 0 { return .frames(filled) }
        return phase == .over ? .end : .notYet
    }

    /// Serves kept frames from `replayAt` on, while it is behind the live position.
    private func replay(into output: UnsafeMutablePointer<Int16>, capacity: Int) -> Int {
        guard let from = replayAt else { return 0 }
        let count = min(capacity, handedOut - from)
        if count > 0 { history.copy(from: from, frames: count, into: output) }
        replayAt = from + count < handedOut ? from + count : nil
        return max(0, count)
    }

    /// Keeps what was just handed out, for a seek back; the oldest beyond the limit goes.
    private func keep(_ samples: UnsafeMutablePointer<Int16>, frames count: Int) {
        history.append(samples, frames: count)
        handedOut += count
    }

    /// Takes the reader's messages until a packet gave frames (true) or none is left (false).
    private func refill() throws(DecoderError) -> Bool {
        while true {
            if inboxNext >= inbox.count {
                inbox = channel?.take() ?? []
                inboxNext = 0
                if inbox.isEmpty { return false }
            }
            let message = inbox[inboxNext]
            inboxNext += 1
            switch message {
            case .opened(let parameters, let headers, let container, let finite, let timing):
                isFinite = finite
                // A connection's time-shift frames start at 0 with its first packet.
                delta = handedOut
                titles.removeAll()
                heardConnectionFrame = nil
                connectionLag = nil
                lagSettled = false
                self.timing = timing
                // A station is live wherever it was asked to start; a file not sought is read through to the start.
                dropFrames = finite && connectionStart > 0 ? nil : 0
                defer { StreamChannel.free(message) }
                try open(parameters, container: container)
                if channel == nil { return false }
                let station = ICYHeaders.parse(headers)
                if let name = station.name, !name.isEmpty {
                    stationName = name
                    namedByHeaders = true
                }
            case .stationName(let name):
                if !namedByHeaders { stationName = name }
            case .packet(let packet, let start):
                defer { StreamChannel.free(message) }
                // Sent before the reader served the seek under way: not to be heard.
                if pendingRewind != nil { continue }
                if try decode(packet, startFrame: start) { return true }
            case .rewound(let generation, _, let resumeAt):
                guard let pending = pendingRewind, pending.generation == generation else { continue }
                pendingRewind = nil
                // A seek moves the frame heard against the edge: the lag is what it was.
                lagSettled = connectionLag != nil
                // A fresh start: no overlap or resampler delay carried over from before the jump.
                if let codec { interlude_avcodec_flush_buffers(codec) }
                if converter != nil { interlude_swr_free(&converter) }
                converterInput = nil
                dropUntil = resumeAt
                delta = pending.target - resumeAt
            case .title(let title, let frame):
                if let frame {
                    titles.arrived(title, atFrame: frame)
                    showHeardTitle()
                } else {
                    show(title)
                }
            case .failed(let reason):
                try connectionEnded(reason)
                return false
            case .ended where isFinite:
                // A file served over HTTP has played to its end: so has the entry.
                stopReader()
                phase = .over
                return false
            case .ended:
                try connectionEnded("the server ended the stream")
                return false
            }
        }
    }

    /// This connection is over: at the stream's first connection the
    /// track's failure (thrown), after it a drop the player reconnects after.
    private func connectionEnded(_ reason: String) throws(DecoderError) {
        stopReader()
        switch phase {
        case .connecting(first: true):
            phase = .over
            let error = DecoderError(.library, path: path, detail: reason)
            failure = error
            throw error
        case .connecting(first: false):
            phase = .waiting
            events.append(.attemptFailed(reason: reason))
        case .playing:
            phase = .waiting
            events.append(.dropped(reason: reason))
        case .waiting, .over:
            break
        }
    }

    /// A codec for the connection's stream (a reconnection may bring another).
    private func open(_ parameters: UnsafeMutablePointer<AVCodecParameters>, container: String) throws(DecoderError) {
        if codec != nil { interlude_avcodec_free_context(&codec) }
        let id = parameters.pointee.codec_id
        codecName = String(cString: interlude_avcodec_get_name(id))
        containerName = container
        bitrateKbps = Int(clamping: max(0, parameters.pointee.bit_rate) / 1000)
        guard let decoder = interlude_avcodec_find_decoder(id), let context = interlude_avcodec_alloc_context3(decoder) else {
            return try connectionEnded("no decoder for its \(codecName) audio")
        }
        codec = context
        var status = interlude_avcodec_parameters_to_context(context, parameters)
        if status >= 0 { status = interlude_avcodec_open2(context, decoder, nil) }
        if status < 0 { try connectionEnded("cannot decode its \(codecName) audio: \(StreamReader.describe(status))") }
    }

    /// Decodes one packet (at time-shift frame `startFrame`) into `frames`,
    /// dropping what lies before `dropUntil`; true when it gave frames.
    private func decode(_ packet: UnsafeMutablePointer<AVPacket>, startFrame: Int) throws(DecoderError) -> Bool {
        let before = frames.samples.count
        _ = try decode(packet)
        let channels = format.channels
        let produced = (frames.samples.count - before) / channels
        let until = dropUntil ?? startFrame
        let dropped = min(produced, max(0, until - startFrame))
        if dropped > 0 { frames.samples.removeSubrange(before..<(before + dropped * channels)) }
        if produced > dropped {
            dropUntil = nil
            // The packet's first kept frame is handed out after what waits before it: the
            // mapping follows the packets' labels, so a packet that decoded to less than
            // its label (the stream's first, missing the bit reservoir; a damaged one)
            // moves no later seek.
            delta = handedOut + frames.bufferedFrames - (produced - dropped) - (startFrame + dropped)
        }
        return frames.bufferedFrames > 0
    }

    /// Decodes one packet into `frames`; true when it gave frames.
    private func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws(DecoderError) -> Bool {
        guard let codec, let frame else { return false }
        if dropFrames == nil {
            // The connection's first packet: where it is, so what comes before the start is dropped.
            var at = 0
            if let timing, timing.sought, packet.pointee.pts != interlude_av_nopts_value() {
                let seconds = Double(packet.pointee.pts &- timing.startPTS) * timing.timeBase
                if seconds.isFinite, seconds > 0, seconds < 3_600_000 { at = Int((seconds * Double(format.rate)).rounded()) }
            }
            dropFrames = max(0, connectionStart - at)
        }
        let sent = interlude_avcodec_send_packet(codec, packet)
        if sent < 0 && sent != interlude_averror_eagain() {
            // A damaged packet: noted, and the stream goes on with the next.
            frames.noteDamage(StreamReader.describe(sent), atSourceFrame: handedOut, rate: format.rate)
            return false
        }
        var gave = false
        while true {
            let status = interlude_avcodec_receive_frame(codec, frame)
            guard status >= 0 else { break }
            defer { interlude_av_frame_unref(frame) }
            try convert(frame)
            gave = gave || frames.bufferedFrames > 0
        }
        if gave, case .connecting = phase {
            // The set-up's last step, as a file's: its pages given back once more.
            interlude_ffmpeg_release_setup_pages(1)
            phase = .playing
            events.append(.connected(station: stationName, codec: codecName))
        }
        return gave
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(DecoderError) {
        let input = (format: frame.pointee.format, rate: frame.pointee.sample_rate,
                     channels: frame.pointee.ch_layout.nb_channels)
        guard input.rate > 0, input.rate <= 768_000, input.channels > 0, input.channels <= 64,
              frame.pointee.nb_samples > 0 else { return }
        if let made = converterInput, made != input, converter != nil { interlude_swr_free(&converter) }
        if converter == nil {
            guard let made = try makeConverter(for: frame) else { return }
            converter = made
            converterInput = input
            sourceFormat = AudioFormat(rate: Int(input.rate), channels: Int(input.channels))
        }
        let channels = format.channels
        let count = Int(frame.pointee.nb_samples)
        let room = Int(interlude_swr_get_delay(converter, Int64(format.rate))) + count * format.rate / Int(input.rate) + 64
        let start = frames.samples.count
        frames.samples.append(contentsOf: repeatElement(0, count: room * channels))
        let produced = frames.samples.withUnsafeMutableBytes { bytes -> Int32 in
            let output = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start * AudioFormat.bytesPerSample
            // The frame's planes as libswresample takes them, planar or packed alike.
            let planes = UnsafeMutableRawPointer(frame.pointee.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            return interlude_swr_convert(converter, output, Int32(room), planes, Int32(count))
        }
        guard produced >= 0 else {
            frames.samples.removeSubrange(start...)
            return try connectionEnded("converting failed: \(StreamReader.describe(produced))")
        }
        frames.samples.removeSubrange((start + Int(produced) * channels)...)
        if let drop = dropFrames, drop > 0 {
            let dropped = min(drop, Int(produced))
            frames.samples.removeSubrange(start..<(start + dropped * channels))
            dropFrames = drop - dropped
        }
    }

    private func makeConverter(for frame: UnsafeMutablePointer<AVFrame>) throws(DecoderError) -> OpaquePointer? {
        var error: Int32 = 0
        guard let made = FFmpegDecoder.converter(to: format, from: frame, channels: Int(frame.pointee.ch_layout.nb_channels),
                                                 error: &error)
        else {
            try connectionEnded("cannot convert to \(format): \(StreamReader.describe(error))")
            return nil
        }
        return made
    }

    // MARK: Position

    /// A file over HTTP (or a stream not yet answered, which may be one) goes
    /// anywhere: within what was kept, else a new connection from the target.
    /// A station: back within what was kept (a resume), or to where it is,
    /// never ahead; a pending move (`moveResumePoint`, `moveToLive`) goes
    /// where it says instead, as the time-shift buffer allows.
    func seek(toFrame target: Int) throws(DecoderError) {
        guard isFinite || (timing == nil && phase != .over) else { return try seekStation(toFrame: target) }
        let live = handedOut
        if target <= live && target >= history.start {
            replayAt = target == live ? nil : target
            nextMove = nil
            return
        }
        if let length = lengthInFrames, target > length {
            throw DecoderError(.library, path: path, detail: "cannot seek to \(clockText(format.seconds(forFrames: target))), past its end")
        }
        nextMove = nil
        stopReader()
        restart(at: max(0, target))
        if case .connecting(first: true) = phase {} else { phase = .connecting(first: false) }
        if let problem = connect() {
            phase = .over
            let error = DecoderError(.library, path: path, detail: problem)
            failure = error
            throw error
        }
    }

    /// A station's seek: the resume, a move within its time-shift buffer, or live.
    private func seekStation(toFrame target: Int) throws(DecoderError) {
        let live = handedOut
        guard target <= live else {
            throw DecoderError(.library, path: path, detail: "a live stream cannot skip ahead")
        }
        let move = nextMove
        nextMove = nil
        // A file over HTTP, or a station waiting to reconnect: what was kept, no further.
        guard let channel, phase != .over, !isFinite else {
            replayAt = target == live ? nil : max(history.start, target)
            return
        }
        guard channel.isTimeShifting.load(ordering: .relaxed) else {
            if move == nil && target == live {
                replayAt = nil
                return
            }
            if move == nil { timeShiftLines.append("time-shift is off: \(path) resumes live") }
            rewind(toTimeShiftFrame: .max, position: target)
            return
        }
        var wanted = target - delta
        switch move {
        case .by(let frames): wanted += frames
        case .live: wanted = .max
        case nil: break
        }
        let oldest = channel.oldestFrame.load(ordering: .relaxed)
        if move == nil, pendingRewind == nil, dropUntil == nil, target >= history.start, wanted >= oldest {
            // The resume: what was handed out, then the packets queued after it, in order.
            replayAt = target == live ? nil : target
            return
        }
        if move == nil, wanted < oldest {
            let held = channel.liveFrame.load(ordering: .relaxed) - oldest
            timeShiftLines.append("the time-shift buffer holds \(clock(held)): its oldest \(clock(oldest - wanted)) went, "
                                  + "so \(path) resumes \(clock(oldest - wanted)) later than where it stopped")
        }
        rewind(toTimeShiftFrame: wanted, position: target)
    }

    private func clock(_ frames: Int) -> String { clockText(Double(max(0, frames)) / Double(format.rate)) }

    /// Asks the reader for the packets from time-shift frame `frame` on, to be
    /// handed out from position `position`; what was decoded after it is dropped.
    private func rewind(toTimeShiftFrame frame: Int, position: Int) {
        guard let channel else { return }
        pendingRewind = (channel.requestSeek(toFrame: frame), position)
        frames.removeAll()
        replayAt = nil
        dropUntil = nil
        history.truncate(to: position)
        handedOut = position
        isAwaitingData = true
    }

    // MARK: Time-shift

    var noteDescriptor: Int32 { channel?.noteWake ?? -1 }

    func timeShift(heardFrame: Int) -> TimeShiftPosition? {
        guard let channel, !isFinite else { return nil }
        let live = channel.liveFrame.load(ordering: .relaxed)
        var heard = heardFrame - delta
        switch nextMove {
        case .by(let frames): heard += frames
        case .live: heard = live
        case nil: break
        }
        let oldest = channel.oldestFrame.load(ordering: .relaxed)
        let kept = channel.isTimeShifting.load(ordering: .relaxed)
        // A resume point the limit dropped resumes at the oldest frame held.
        if kept { heard = max(heard, oldest) }
        return TimeShiftPosition(behindLiveFrames: max(0, live - heard), heldBeforeFrames: max(0, heard - oldest),
                                 isKept: kept)
    }

    func listenerHeard(frame: Int, playing: Bool) {
        // A rewind not yet answered keeps the frame it left from.
        guard let channel, pendingRewind == nil else { return }
        channel.heardFrame.store(frame - delta, ordering: .relaxed)
        let heard = frame - delta
        // Frames before 0 are the last connection's, still playing out.
        guard heard >= 0 else { return }
        heardConnectionFrame = heard
        if !lagSettled {
            if playing {
                connectionLag = max(connectionLag ?? 0, channel.liveFrame.load(ordering: .relaxed) - heard)
            } else if connectionLag != nil {
                lagSettled = true
            }
        }
        showHeardTitle()
    }

    /// The title of the time-shift frame heard, when it is not the one shown:
    /// a title that arrived while the station was paused shows when its audio
    /// plays, as far behind its arrival as the station is behind where a
    /// listener who never paused would be (`connectionLag`).
    private func showHeardTitle() {
        guard let heard = heardConnectionFrame, let lag = connectionLag,
              let title = titles.title(atFrame: heard + lag) else { return }
        // The titles of audio the buffer no longer holds are not wanted again.
        titles.forget(before: min(heard, channel?.oldestFrame.load(ordering: .relaxed) ?? heard) + lag)
        show(title)
    }

    private func show(_ title: String) {
        guard title != self.title else { return }
        self.title = title
        events.append(.title(title))
    }

    func moveResumePoint(by frames: Int, heardFrame: Int) -> String? {
        guard let position = timeShift(heardFrame: heardFrame), position.isKept else {
            return "\(path) keeps no time-shift buffer (time-shift = off): it plays live, and cannot seek"
        }
        if frames < 0 && -frames > position.heldBeforeFrames {
            return "the time-shift buffer holds \(clock(position.heldBeforeFrames)) before this point of \(path): "
                + "it cannot go \(clock(-frames)) back"
        }
        if frames > 0 && frames > position.behindLiveFrames {
            return "\(path) is \(position.behindLiveFrames == 0 ? "live" : "\(clock(position.behindLiveFrames)) behind live"): "
                + "it cannot go \(clock(frames)) ahead"
        }
        if case .by(let earlier) = nextMove { nextMove = .by(earlier + frames) } else if nextMove == nil { nextMove = .by(frames) }
        return nil
    }

    func moveToLive() { nextMove = .live }

    func takeTimeShiftLines() -> [String] {
        var lines = channel?.takeNotes() ?? []
        lines += timeShiftLines
        timeShiftLines.removeAll()
        return lines
    }

    /// What was decoded is dropped: the next connection starts at output frame `frame`.
    private func restart(at frame: Int) {
        frames.removeAll()
        if converter != nil { interlude_swr_free(&converter) }
        converterInput = nil
        history.reset(at: frame)
        handedOut = frame
        replayAt = nil
        connectionStart = frame
        dropFrames = nil
    }

    /// The container's length, for a file over HTTP (an estimate: the length
    /// of an MP3 without a header is its size at its bitrate).
    var lengthInFrames: Int? {
        guard isFinite, let seconds = timing?.duration else { return nil }
        return Int(seconds * Double(format.rate))
    }
    var lengthIsExact: Bool { false }
    func scan() throws(DecoderError) {}
    var gaplessTrim: GaplessTrim? { nil }
    var streamInfo: StreamInfo {
        StreamInfo(codec: .other(container: containerName, codec: codecName), bitrateKbps: bitrateKbps, bitrateMode: .constant)
    }
    var tags: AudioTags { AudioTags() }
    func takeDamage() -> [String] { frames.takeDamage() }
}
