import BookFormat
import CFFmpeg
import CInterludeShims
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The `Decoder` of everything that is not MPEG audio (AAC and ALAC in
/// MP4/M4A/M4B, Ogg Vorbis, Opus, WAV, and FLACs that need resampling or
/// mixing down: the others are `FLACDecoder`'s; and, by FFmpeg's probe, what
/// no other decoder claims: WavPack, Monkey's Audio, Musepack, TTA, DSD, AIFF,
/// WMA, the best audio stream of a video) over FFmpeg's libraries: the only
/// file of the project that imports `CFFmpeg`. Its decode is sample for sample
/// that of the `ffmpeg` program (`ffmpeg -i FILE -f s16le`), the oracle of its
/// tests: the same demuxer and decoder, and the same libswresample conversion
/// to s16 with the library's defaults (no dither), which is what `ffmpeg`
/// inserts for `-f s16le`.
///
/// Gapless: libavformat turns the MP4 edit list (and `iTunSMPB`'s priming),
/// Opus pre-skip and the Ogg end granule into "skip samples" on the packets,
/// and libavcodec drops them from the frames (and moves the frames' timestamps
/// past them), so the frames read are the stream's own length.
///
/// iTunes' `iTunSMPB` comment (priming, remainder, sample count) is half
/// applied by libavformat: it skips the priming where no edit list says
/// otherwise, but decodes the last frame whole, remainder and all (820 frames
/// of padding at the end of a 3-second file). `read` stops at the count it
/// declares (`declaredLength`), so such an album joins without a gap.
///
/// The libraries are loaded with `dlopen` by the first `init` (see
/// `interlude_ffmpeg.h`): a process that only ever opens MP3s maps none of them.
final class FFmpegDecoder: Decoder {
    let path: String
    let format: AudioFormat
    let sourceFormat: AudioFormat
    private let target: AudioFormat?

    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// From the decoder's sample format, layout and rate to `format`; made
    /// again after a seek, so nothing of the old position's resampler state leaks.
    private var converter: OpaquePointer?
    private let streamIndex: Int32
    private let timeBase: AVRational
    private let codecID: AVCodecID
    private var closed = false

    /// Decoded frames not yet handed out, and the damage met.
    private let frames: DecodedFrames
    /// The source frame (after the gapless trim) the next decoded frame starts at.
    private var sourcePosition = 0
    /// The source timestamp of the first frame a decode from the start gives,
    /// in source frames: position 0.
    private var origin = 0
    /// The decoder has been sent the end of the stream; then the converter's tail.
    private var draining = false
    private var converterFlushed = false
    private var exactLength: Int?
    /// Read at the opening (see `tags`).
    private var fileTags = AudioTags()
    /// An MP4's `iTunSMPB` comment: priming, remainder and sample count.
    private var iTunSMPB: (priming: Int, remainder: Int, samples: Int)?

    /// What the container says at its start: MP4 (`ftyp` box), FLAC (after an
    /// ID3v2 tag some taggers put before it), Ogg, RIFF WAVE, and the other
    /// containers of the MP4 family. MPEG audio has no magic number of its own
    /// and goes to libmpg123, which is asked after this; what neither takes
    /// comes to `init` with no container named, and FFmpeg's probe decides.
    static func accepts(_ head: FileHead) -> Bool {
        Container.sniff(head.bytes) != nil
    }

    enum Container: String {
        case mp4 = "MP4"
        case flac = "FLAC"
        case ogg = "Ogg"
        case wav = "WAV"
        case adts = "ADTS"

        /// libavformat's name for the demuxer of this container.
        var demuxer: String {
            switch self {
            case .mp4: "mov"
            case .flac: "flac"
            case .ogg: "ogg"
            case .wav: "wav"
            case .adts: "aac"
            }
        }

        static func sniff(_ bytes: [UInt8]) -> Container? {
            func matches(_ text: String, at offset: Int) -> Bool {
                let magic = Array(text.utf8)
                return bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
            }
            if matches("OggS", at: 0) { return .ogg }
            if matches("fLaC", at: 0) { return .flac }
            if matches("RIFF", at: 0) && matches("WAVE", at: 8) { return .wav }
            if matches("ftyp", at: 4) { return .mp4 }
            // Raw AAC in ADTS frames: a 12-bit sync like MPEG audio's, but layer bits 00,
            // which MPEG audio never uses.
            if bytes.count >= 2, bytes[0] == 0xff, bytes[1] & 0xf6 == 0xf0 { return .adts }
            // A FLAC file behind an ID3v2 tag: the tag's size is four 7-bit bytes.
            if matches("ID3", at: 0), bytes.count >= 10 {
                let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) }
                let footer = bytes[5] & 0x10 != 0 ? 10 : 0
                if matches("fLaC", at: 10 + size + footer) { return .flac }
            }
            return nil
        }
    }

    /// Whether FFmpeg's libraries are loaded in this process (`Decoders.warm`).
    static var isLibraryLoaded: Bool { interlude_ffmpeg_loaded() != 0 }

    init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError) {
        self.path = path
        self.target = target
        var message = [CChar](repeating: 0, count: 512)
        guard interlude_ffmpeg_load(&message, message.count) == 0 else {
            throw DecoderError(.library, path: path,
                               detail: "cannot load FFmpeg's libraries: \(Self.text(message))")
        }
        var container: UnsafeMutablePointer<AVFormatContext>?
        // The demuxer of the container the file's magic number names: probing
        // every demuxer instead cost 2 MB resident (see `interlude_ffmpeg.h`).
        let demuxer = Container.sniff(head.bytes)?.demuxer
        // The descriptor the check opened, not the name again (a FIFO by now would block).
        let descriptor: Int32
        do { descriptor = try AudioPathCheck.open(path) } catch {
            throw DecoderError(.unreadable, path: path, detail: "cannot open: \(error.reason.lowercased())")
        }
        var status = interlude_avformat_open_input(&container, descriptor, demuxer)
        if demuxer == nil, status < 0 {
            throw DecoderError(.unrecognised, path: path, detail: "no format recognised (\(Self.describe(status)))")
        }
        guard status >= 0, let container else {
            if MP4Boxes.lacksMovie(path: path) {
                throw DecoderError(.notMPEGAudio, path: path,
                                   detail: "incomplete MP4 file: its index (the moov atom) is missing, so it was probably cut short")
            }
            throw DecoderError(.notMPEGAudio, path: path, detail: "cannot open: \(Self.describe(status))")
        }
        // From here on `close()` (through deinit) releases what is set.
        self.container = container
        if demuxer == nil, let doubt = Self.probeDoubt(container) {
            interlude_avformat_close_input(&self.container)
            throw DecoderError(.unrecognised, path: path, detail: doubt)
        }
        // The process's first set-up gives back what each step touched (see
        // `interlude_ffmpeg_release_setup_pages`); later ones return at once.
        interlude_ffmpeg_release_setup_pages(0)
        status = interlude_avformat_find_stream_info(container)
        interlude_ffmpeg_release_setup_pages(0)
        let containerName = Self.containerName(container)
        guard status >= 0 else {
            interlude_avformat_close_input(&self.container)
            throw DecoderError(.notMPEGAudio, path: path,
                               detail: "damaged \(containerName) file (\(Self.describe(status)))")
        }
        let index = interlude_av_find_best_stream(container, AVMEDIA_TYPE_AUDIO)
        guard index >= 0, let stream = container.pointee.streams[Int(index)], let parameters = stream.pointee.codecpar else {
            let video = interlude_av_find_best_stream(container, AVMEDIA_TYPE_VIDEO) >= 0
            interlude_avformat_close_input(&self.container)
            throw DecoderError(.notMPEGAudio, path: path,
                               detail: video ? "a video file with no audio stream (\(containerName))" : "no audio in this \(containerName) file")
        }
        streamIndex = index
        timeBase = stream.pointee.time_base
        codecID = parameters.pointee.codec_id
        let codecName = String(cString: interlude_avcodec_get_name(codecID))
        guard interlude_avcodec_find_decoder(codecID) != nil else {
            interlude_avformat_close_input(&self.container)
            throw DecoderError(.notMPEGAudio, path: path, detail: "no decoder for its \(codecName) audio")
        }
        status = Self.openCodec(parameters, timeBase: timeBase, into: &codec)
        guard status >= 0, let context = codec else {
            Self.release(container: &self.container, codec: &codec, packet: &packet, frame: &frame, converter: &converter)
            throw DecoderError(.library, path: path, detail: "cannot decode its \(codecName) audio: \(Self.describe(status))")
        }
        packet = interlude_av_packet_alloc()
        frame = interlude_av_frame_alloc()
        let rate = Int(context.pointee.sample_rate)
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard rate > 0, channels > 0, packet != nil, frame != nil else {
            Self.release(container: &self.container, codec: &codec, packet: &packet, frame: &frame, converter: &converter)
            throw DecoderError(.notMPEGAudio, path: path, detail: "its \(codecName) audio has no sample rate or channels")
        }
        sourceFormat = AudioFormat(rate: rate, channels: channels)
        iTunSMPB = Self.iTunSMPB(in: container)
        // More than two channels are mixed down to stereo: the pipeline (libsonic,
        // ALSA's default device, the WAV sink's comparisons) is mono or stereo.
        format = target ?? AudioFormat(rate: rate, channels: min(channels, 2))
        frames = DecodedFrames(channels: format.channels)

        // Decode up to the first frame, so a file whose audio cannot be decoded
        // is refused here, and position 0 is the first frame's timestamp.
        do throws(DecoderError) {
            guard try decodeNextFrame(), let first = frame else {
                throw DecoderError(.notMPEGAudio, path: path, detail: "no decodable \(codecName) audio in this \(containerName) file")
            }
            if let start = sourceFrame(of: first) { origin = start }
            try convert(first)
            sourcePosition = Int(first.pointee.nb_samples)
            fileTags = readTags(head: head)
            interlude_ffmpeg_release_setup_pages(1)
        } catch {
            close()
            throw error
        }
    }

    /// Why a format FFmpeg's probe chose is not trusted: a score below
    /// `AVPROBE_SCORE_RETRY` (25 of 100: a guess from a few bytes, which the
    /// probe settles for only at its largest buffer), or MPEG audio, which
    /// then started nowhere near the file's start (`MPEGAudioStart` refused
    /// it: the probe finds syncs deep in other data, as libmpg123 did). nil
    /// where it is trusted.
    private static func probeDoubt(_ container: UnsafeMutablePointer<AVFormatContext>) -> String? {
        let name = container.pointee.iformat?.pointee.name.map { String(cString: $0) } ?? ""
        if name == "mp3" { return "no MPEG audio at its start" }
        if container.pointee.probe_score < 25 { return "no format recognised with confidence (FFmpeg's guess: \(name))" }
        return nil
    }

    /// A codec context for the stream, opened; replaces `context`'s. A seek
    /// opens a new one rather than flushing the old: libavcodec's AAC decoder
    /// keeps its last window shape across a flush, so the first frames after
    /// it differ from a fresh decoder's (448 samples of silence where a decode
    /// from the start has sound).
    private static func openCodec(_ parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational,
                                  into context: inout UnsafeMutablePointer<AVCodecContext>?) -> Int32 {
        if context != nil { interlude_avcodec_free_context(&context) }
        guard let decoder = interlude_avcodec_find_decoder(parameters.pointee.codec_id),
              let fresh = interlude_avcodec_alloc_context3(decoder) else { return interlude_averror_invaliddata() }
        context = fresh
        var status = interlude_avcodec_parameters_to_context(fresh, parameters)
        // The packets' time base: libavcodec then moves a frame's timestamp past
        // the samples it trims, which is how positions stay exact at the start.
        fresh.pointee.pkt_timebase = timeBase
        // A damaged frame is found by its checksum and refused, not decoded to noise.
        fresh.pointee.err_recognition |= AV_EF_CRCCHECK
        if status >= 0 { status = interlude_avcodec_open2(fresh, decoder, nil) }
        return status
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Self.release(container: &container, codec: &codec, packet: &packet, frame: &frame, converter: &converter)
    }

    private static func release(container: inout UnsafeMutablePointer<AVFormatContext>?,
                                codec: inout UnsafeMutablePointer<AVCodecContext>?,
                                packet: inout UnsafeMutablePointer<AVPacket>?, frame: inout UnsafeMutablePointer<AVFrame>?,
                                converter: inout OpaquePointer?) {
        if converter != nil { interlude_swr_free(&converter) }
        if frame != nil { interlude_av_frame_free(&frame) }
        if packet != nil { interlude_av_packet_free(&packet) }
        if codec != nil { interlude_avcodec_free_context(&codec) }
        if container != nil { interlude_avformat_close_input(&container) }
    }

    // MARK: Reading

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult {
        var limit: Int?
        if let declaredLength {
            limit = declaredLength - position
            guard limit! > 0 else { return .end }
        }
        return try frames.read(into: buffer, limit: limit) { () throws(DecoderError) in try refill() }
    }

    /// Decodes and converts the next frame into `frames`; false at the end,
    /// once the converter's tail has been handed out too.
    private func refill() throws(DecoderError) -> Bool {
        frames.removeAll()
        if try decodeNextFrame(), let frame {
            if let start = sourceFrame(of: frame) {
                // A damaged frame was skipped: its time is kept as silence.
                if gapAfterDamage {
                    frames.appendSilence(from: sourcePosition, to: start, sourceRate: sourceFormat.rate, outputRate: format.rate)
                }
                sourcePosition = start
            }
            gapAfterDamage = false
            try convert(frame)
            sourcePosition += Int(frame.pointee.nb_samples)
            return true
        }
        guard !converterFlushed else { return false }
        converterFlushed = true
        try convert(nil)
        return frames.bufferedFrames > 0
    }

    /// The next decoded frame into `frame`; false at the end of the stream.
    /// Packets the codec refuses as damaged are skipped and noted.
    private func decodeNextFrame() throws(DecoderError) -> Bool {
        guard let container, let codec, let packet, let frame else { return false }
        while true {
            interlude_av_frame_unref(frame)
            let received = interlude_avcodec_receive_frame(codec, frame)
            if received >= 0 { return true }
            if received == interlude_averror_eof() { return false }
            if received != interlude_averror_eagain() {
                // A frame that failed to decode: skipped, as `ffmpeg` skips it.
                noteDamage(received)
                continue
            }
            if draining { return false }
            let status = interlude_av_read_frame(container, packet)
            if status < 0 {
                if status != interlude_averror_eof() { noteDamage(status) }
                draining = true
                _ = interlude_avcodec_send_packet(codec, nil)
                continue
            }
            defer { interlude_av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            if !sawPacket {
                sawPacket = true
                let stamp = packet.pointee.pts != interlude_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
                if stamp != interlude_av_nopts_value() { firstPacketTimestamp = stamp }
            }
            let sent = interlude_avcodec_send_packet(codec, packet)
            if sent < 0 && sent != interlude_averror_eagain() { noteDamage(sent) }
        }
    }

    private var gapAfterDamage = false
    private var sawPacket = false
    /// The first packet's timestamp, where a seek to the start goes.
    private var firstPacketTimestamp: Int64 = 0

    private func noteDamage(_ status: Int32) {
        gapAfterDamage = true
        frames.noteDamage(Self.describe(status), atSourceFrame: sourcePosition, rate: sourceFormat.rate)
    }

    /// Damage found since the last call, one sentence each (without the path).
    func takeDamage() -> [String] { frames.takeDamage() }

    /// The frame's first sample in source frames from the stream's origin; nil
    /// when the frame carries no timestamp.
    private func sourceFrame(of frame: UnsafeMutablePointer<AVFrame>) -> Int? {
        let timestamp = frame.pointee.best_effort_timestamp != interlude_av_nopts_value()
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        guard timestamp != interlude_av_nopts_value() else { return nil }
        let frames = interlude_av_rescale_q(timestamp, timeBase, AVRational(num: 1, den: Int32(sourceFormat.rate)))
        return Int(frames) - origin
    }

    /// Converts `frame` (nil: the converter's tail) and appends it to `frames`,
    /// from `skip` source frames into the frame on.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>?, skip: Int = 0) throws(DecoderError) {
        if converter == nil {
            guard let frame else { return }
            converter = try makeConverter(for: frame)
        }
        let channels = format.channels
        let inputCount = frame.map { Int($0.pointee.nb_samples) - skip } ?? 0
        let room = Int(interlude_swr_get_delay(converter, Int64(format.rate))) + inputCount * format.rate / sourceFormat.rate + 64
        let start = frames.samples.count
        frames.samples.append(contentsOf: repeatElement(0, count: room * channels))
        let produced = frames.samples.withUnsafeMutableBytes { bytes -> Int32 in
            let output = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start * 2
            guard let frame else { return interlude_swr_convert(converter, output, Int32(room), nil, 0) }
            let format = AVSampleFormat(rawValue: frame.pointee.format)
            let planar = format == AV_SAMPLE_FMT_U8P || format == AV_SAMPLE_FMT_S16P || format == AV_SAMPLE_FMT_S32P
                || format == AV_SAMPLE_FMT_FLTP || format == AV_SAMPLE_FMT_DBLP || format == AV_SAMPLE_FMT_S64P
            let bytesPerSample = Int(Self.bytesPerSample(format))
            let planes = planar ? Int(frame.pointee.ch_layout.nb_channels) : 1
            let step = skip * bytesPerSample * (planar ? 1 : Int(frame.pointee.ch_layout.nb_channels))
            var inputs = (0..<planes).map { UnsafePointer<UInt8>(frame.pointee.extended_data[$0]!) + step }
            return inputs.withUnsafeMutableBufferPointer { pointers in
                pointers.withMemoryRebound(to: Optional<UnsafePointer<UInt8>>.self) { rebound in
                    interlude_swr_convert(converter, output, Int32(room), rebound.baseAddress, Int32(inputCount))
                }
            }
        }
        guard produced >= 0 else {
            frames.samples.removeSubrange(start...)
            throw DecoderError(.library, path: path, detail: "converting failed: \(Self.describe(produced))")
        }
        frames.samples.removeSubrange((start + Int(produced) * channels)...)
    }

    private static func bytesPerSample(_ format: AVSampleFormat) -> Int32 {
        switch format {
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: 1
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P: 2
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP: 4
        default: 8
        }
    }

    private func makeConverter(for frame: UnsafeMutablePointer<AVFrame>) throws(DecoderError) -> OpaquePointer {
        var error: Int32 = 0
        guard let converter = Self.converter(to: format, from: frame, channels: sourceFormat.channels, error: &error) else {
            throw DecoderError(.library, path: path, detail: "cannot convert to \(format): \(Self.describe(error))")
        }
        return converter
    }

    /// A converter from `frame`'s sample format, layout and rate to `format`;
    /// a frame that gives no channel order is taken as `channels`' default
    /// layout. Nil with libswresample's status in `error`. `StreamDecoder`'s too.
    static func converter(to format: AudioFormat, from frame: UnsafeMutablePointer<AVFrame>, channels: Int,
                          error: inout Int32) -> OpaquePointer? {
        var outputLayout = AVChannelLayout()
        interlude_av_channel_layout_default(&outputLayout, Int32(format.channels))
        var inputLayout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            interlude_av_channel_layout_default(&inputLayout, Int32(channels))
        } else {
            _ = interlude_av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout)
        }
        defer {
            interlude_av_channel_layout_uninit(&outputLayout)
            interlude_av_channel_layout_uninit(&inputLayout)
        }
        return interlude_swr_create(&outputLayout, Int32(format.rate), &inputLayout,
                                    AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, &error)
    }

    // MARK: Length, seeking

    /// From the container (the FLAC header's sample count, the MP4 edit list's
    /// or track's duration, the Ogg stream's last granule), in output frames;
    /// exact after `scan()`.
    var lengthInFrames: Int? {
        if let exactLength { return exactLength }
        if let declaredLength { return declaredLength }
        guard let container, let stream = container.pointee.streams[Int(streamIndex)] else { return nil }
        let rate = AVRational(num: 1, den: Int32(format.rate))
        if stream.pointee.duration != interlude_av_nopts_value(), stream.pointee.duration > 0 {
            return Int(interlude_av_rescale_q(stream.pointee.duration, timeBase, rate))
        }
        if container.pointee.duration != interlude_av_nopts_value(), container.pointee.duration > 0 {
            return Int(interlude_av_rescale_q(container.pointee.duration, AVRational(num: 1, den: AV_TIME_BASE), rate))
        }
        return nil
    }

    /// Exact after a scan, and when the container states the stream's length
    /// (FLAC's sample count, the MP4 edit list's or track's duration, Ogg's
    /// last granule, WAV's data size): never an estimate from a bitrate. It
    /// can fall short of the decoded count by the last codec frame's padding
    /// where the container does not trim it (ffmpeg's own M4As decode up to
    /// 1024 frames past their edit list, as `ffmpeg` decodes them), which
    /// `TrackFeeder`'s truncation check and a book's lengths tolerate; a scan
    /// of a 10-hour M4B at every opening of the book would not be.
    var lengthIsExact: Bool {
        if exactLength != nil || declaredLength != nil { return true }
        guard let container, let stream = container.pointee.streams[Int(streamIndex)] else { return false }
        // Raw ADTS AAC has no length of its own: libavformat estimates one from the bitrate.
        return stream.pointee.duration != interlude_av_nopts_value() && stream.pointee.duration > 0
            && container.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
    }

    /// Decodes the whole stream once, counting frames, and comes back; at
    /// once when the container states the length (`lengthIsExact`).
    func scan() throws(DecoderError) {
        guard !lengthIsExact else { return }
        let here = position
        try seek(toFrame: 0)
        var count = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384 * format.bytesPerFrame, alignment: 8)
        defer { chunk.deallocate() }
        while case .frames(let frames) = try read(into: chunk), frames > 0 { count += frames }
        exactLength = count
        try seek(toFrame: here)
    }

    /// Output frames handed out since position 0.
    private var position: Int {
        return outputPosition - frames.bufferedFrames
    }

    /// Output frames produced into `frames` since position 0 (at the source
    /// rate: the source position; converted otherwise).
    private var outputPosition: Int {
        format.rate == sourceFormat.rate ? sourcePosition
            : Int((Int64(sourcePosition) * Int64(format.rate) / Int64(sourceFormat.rate)))
    }

    /// Exact: the demuxer goes back to a packet at least `preroll` source
    /// frames before the target (what the codec needs to rebuild its state:
    /// AAC's and Vorbis's overlapped windows, Opus's filters), a fresh decoder
    /// starts there, and the frames before the target are dropped by
    /// their timestamps. If the demuxer lands after the target, or a timestamp
    /// is missing, the decode starts from the file's beginning instead.
    ///
    /// One thing a pre-roll cannot rebuild: AAC's perceptual noise substitution
    /// draws its noise from one random generator that runs through the whole
    /// decode, so after a seek a PNS-coded band carries other noise of the same
    /// level (1 LSB here and there in ffmpeg's own encodes, which use PNS by
    /// default). Files without PNS seek bit for bit.
    func seek(toFrame frameIndex: Int) throws(DecoderError) {
        let targetSource = format.rate == sourceFormat.rate ? frameIndex
            : Int(Int64(frameIndex) * Int64(sourceFormat.rate) / Int64(format.rate))
        let rate = AVRational(num: 1, den: Int32(sourceFormat.rate))
        let preroll = Self.preroll(codecID, rate: sourceFormat.rate)
        if targetSource > preroll {
            let timestamp = interlude_av_rescale_q(Int64(targetSource - preroll + origin), rate, timeBase)
            if try seekAndSkip(to: timestamp, target: targetSource) { return finishSeek(frameIndex) }
        }
        guard try seekAndSkip(to: nil, target: targetSource) else {
            throw DecoderError(.library, path: path, detail: "seek failed: the stream has no timestamps")
        }
        finishSeek(frameIndex)
    }

    private func finishSeek(_ frameIndex: Int) {
        // At another rate the resampler's output is counted from here.
        if format.rate != sourceFormat.rate {
            sourcePosition = Int(Int64(frameIndex) * Int64(sourceFormat.rate) / Int64(format.rate))
                + frames.bufferedFrames * sourceFormat.rate / format.rate
        }
    }

    /// Seeks the demuxer to `timestamp` (nil: the start), decodes up to the
    /// frame holding `target` and keeps `frames` from the target on. False
    /// when the landing point cannot be placed before the target.
    private func seekAndSkip(to timestamp: Int64?, target: Int) throws(DecoderError) -> Bool {
        guard let container, let codec = self.codec else { return false }
        // The start: the first packet's timestamp, which is before position 0
        // where priming packets precede it (an MP4 edit list): the decoder must
        // see them, as a decode from the start does.
        let goal = timestamp ?? firstPacketTimestamp
        let status = interlude_avformat_seek_file(container, streamIndex, Int64.min, goal, goal, 0)
        if status < 0 {
            if timestamp != nil { return false }
            throw DecoderError(.library, path: path, detail: "seek failed: \(Self.describe(status))")
        }
        guard let parameters = container.pointee.streams[Int(streamIndex)]?.pointee.codecpar else { return false }
        var fresh: UnsafeMutablePointer<AVCodecContext>? = codec
        let opened = Self.openCodec(parameters, timeBase: timeBase, into: &fresh)
        self.codec = fresh
        guard opened >= 0 else {
            throw DecoderError(.library, path: path, detail: "seek failed: \(Self.describe(opened))")
        }
        if converter != nil { interlude_swr_free(&converter) }
        frames.removeAll()
        draining = false
        converterFlushed = false
        var first = true
        var known = timestamp == nil
        sourcePosition = 0
        while try decodeNextFrame(), let frame {
            let count = Int(frame.pointee.nb_samples)
            if let start = sourceFrame(of: frame) {
                if first && timestamp != nil && start > target { return false }
                sourcePosition = start
                known = true
            }
            first = false
            guard known else { continue }
            if sourcePosition + count > target {
                let skip = max(0, target - sourcePosition)
                try convert(frame, skip: skip)
                sourcePosition += count
                return true
            }
            sourcePosition += count
        }
        // The target is at or past the end: nothing left to read.
        guard known else { return false }
        sourcePosition = max(sourcePosition, target)
        converterFlushed = true
        return true
    }

    /// Source frames decoded before a seek's target so that the frames from
    /// the target on equal a sequential decode's.
    private static func preroll(_ codec: AVCodecID, rate: Int) -> Int {
        switch codec {
        // Every frame decodes on its own.
        case AV_CODEC_ID_FLAC, AV_CODEC_ID_ALAC, AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S24LE, AV_CODEC_ID_PCM_S32LE,
             AV_CODEC_ID_PCM_F32LE, AV_CODEC_ID_PCM_U8: 0
        // A frame's output overlaps the one before: two frames of 1024 (2048 with SBR), twice over.
        case AV_CODEC_ID_AAC: 4096
        // Blocks of up to 8192 samples overlapping by half.
        case AV_CODEC_ID_VORBIS: 8192
        // RFC 7845 (4.6) asks for 80 ms to converge, but libavcodec's decoder keeps
        // float state (CELT's energy prediction, its filters) that converges
        // geometrically: after 160 ms, seeks differed by 1 LSB here and there;
        // after 2 s, in none of `FormatSeekTests`' points. Decoding 2 s of Opus costs
        // a few milliseconds.
        case AV_CODEC_ID_OPUS: rate * 2
        default: rate
        }
    }

    /// `iTunSMPB`'s sample count in output frames, where `read` stops.
    private var declaredLength: Int? {
        guard let samples = iTunSMPB?.samples else { return nil }
        return format.rate == sourceFormat.rate ? samples : Int(Int64(samples) * Int64(format.rate) / Int64(sourceFormat.rate))
    }

    /// " 00000000 PPPPPPPP RRRRRRRR NNNNNNNNNNNNNNNN ...": hexadecimal priming,
    /// remainder and sample count after a zero field. Ignored where it is
    /// malformed or declares no samples.
    static func iTunSMPB(in container: UnsafeMutablePointer<AVFormatContext>) -> (priming: Int, remainder: Int, samples: Int)? {
        guard let dictionary = container.pointee.metadata,
              let entry = interlude_av_dict_get(dictionary, "iTunSMPB", nil, 0), let value = entry.pointee.value else { return nil }
        return parseITunSMPB(String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self))
    }

    static func parseITunSMPB(_ text: String) -> (priming: Int, remainder: Int, samples: Int)? {
        let fields = text.split(separator: " ")
        guard fields.count >= 4, fields[1].count <= 8, fields[2].count <= 8, fields[3].count <= 16,
              let priming = Int(fields[1], radix: 16), let remainder = Int(fields[2], radix: 16),
              let samples = Int(fields[3], radix: 16), samples > 0 else { return nil }
        return (priming, remainder, samples)
    }

    var gaplessTrim: GaplessTrim? {
        if let iTunSMPB, iTunSMPB.priming > 0 || iTunSMPB.remainder > 0 {
            return GaplessTrim(encoderDelay: iTunSMPB.priming, padding: iTunSMPB.remainder)
        }
        guard let container, let parameters = container.pointee.streams[Int(streamIndex)]?.pointee.codecpar else { return nil }
        let delay = Int(parameters.pointee.initial_padding)
        let padding = Int(parameters.pointee.trailing_padding)
        return delay > 0 || padding > 0 ? GaplessTrim(encoderDelay: delay, padding: padding) : nil
    }

    var streamInfo: StreamInfo {
        let bitrate = codec.map { Int($0.pointee.bit_rate) } ?? 0
        let containerBitrate = container.map { Int($0.pointee.bit_rate) } ?? 0
        let kbps = (bitrate > 0 ? bitrate : containerBitrate) / 1000
        let lossless = codecID == AV_CODEC_ID_FLAC || codecID == AV_CODEC_ID_ALAC || bitrate == 0
        return StreamInfo(codec: .other(container: container.map(Self.containerName) ?? "",
                                        codec: Self.codecName(codecID)),
                          bitrateKbps: kbps, bitrateMode: lossless || codecID != AV_CODEC_ID_PCM_S16LE ? .variable : .constant)
    }

    private static func codecName(_ id: AVCodecID) -> String {
        switch id {
        case AV_CODEC_ID_AAC: "AAC"
        case AV_CODEC_ID_ALAC: "ALAC"
        case AV_CODEC_ID_FLAC: "FLAC"
        case AV_CODEC_ID_VORBIS: "Vorbis"
        case AV_CODEC_ID_OPUS: "Opus"
        default: String(cString: interlude_avcodec_get_name(id))
        }
    }

    private static func containerName(_ container: UnsafeMutablePointer<AVFormatContext>) -> String {
        guard let format = container.pointee.iformat, let name = format.pointee.name else { return "audio" }
        switch String(cString: name) {
        case "mov,mp4,m4a,3gp,3g2,mj2": return "MP4"
        case "flac": return "FLAC"
        case "ogg": return "Ogg"
        case "wav": return "WAV"
        case "wv": return "WavPack"
        case "ape": return "Monkey's Audio"
        case "mpc", "mpc8": return "Musepack"
        case "tta": return "TTA"
        case "dsf": return "DSF"
        case "iff": return "DFF"
        case "aiff": return "AIFF"
        case "asf": return "ASF"
        case "matroska,webm": return "Matroska"
        case let other: return other
        }
    }

    /// The file's tags, read when it was opened.
    var tags: AudioTags { fileTags }

    /// `AudioTags.read`'s reading of the containers it knows (MP4, FLAC, Ogg:
    /// the same mapping as every decoder's), then libavformat's dictionaries
    /// for what it lacks (WAV's INFO list, an ADTS file's ID3 tag), through
    /// the same Vorbis-comment names; libavformat's chapters (it reads both
    /// MP4 forms and Ogg's `CHAPTERnn` comments) before the reader's.
    private func readTags(head: FileHead) -> AudioTags {
        var tags = AudioTags.read(path: path, head: head.bytes)
        guard let container else { return tags }
        var fields: [(name: String, value: String)] = []
        for dictionary in [container.pointee.metadata, container.pointee.streams[Int(streamIndex)]?.pointee.metadata] {
            guard let dictionary else { continue }
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            // An empty key with IGNORE_SUFFIX walks every entry; bounded in case a dictionary is damaged.
            for _ in 0..<10_000 {
                entry = interlude_av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX)
                guard let entry, let key = entry.pointee.key, let value = entry.pointee.value else { break }
                // libavformat hands the bytes as stored: invalid UTF-8 becomes U+FFFD here.
                fields.append((Self.string(key), Self.string(value)))
            }
        }
        tags = tags.filling(from: AudioTags(fields: fields))
        let chapters = self.containerChapters()
        if !chapters.isEmpty { tags.chapters = chapters }
        return tags
    }

    private static func string(_ text: UnsafePointer<CChar>) -> String {
        String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }

    /// A C string in a buffer, up to its NUL.
    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// libavformat's chapters: it reads both MP4 forms (the QuickTime text
    /// track, preferred, and Nero's `chpl`) and Ogg's `CHAPTERnn`/`CHAPTERnnNAME`
    /// comments into the same list.
    private func containerChapters() -> [Chapter] {
        guard let container, let list = container.pointee.chapters else { return [] }
        let milliseconds = AVRational(num: 1, den: 1000)
        var marks: [Chapter] = []
        for index in 0..<Int(container.pointee.nb_chapters) {
            guard let chapter = list[index] else { continue }
            let start = Int(interlude_av_rescale_q(chapter.pointee.start, chapter.pointee.time_base, milliseconds))
            let end = Int(interlude_av_rescale_q(chapter.pointee.end, chapter.pointee.time_base, milliseconds))
            var title = ""
            if let entry = interlude_av_dict_get(chapter.pointee.metadata, "title", nil, 0), let value = entry.pointee.value {
                title = Self.string(value)
            }
            marks.append(Chapter(title: title, startMilliseconds: start, endMilliseconds: max(start, end)))
        }
        return marks
    }

    private static func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if interlude_av_strerror(status, &buffer, buffer.count) < 0 { return "error \(status)" }
        return text(buffer).lowercased()
    }
}

/// The top-level boxes of an MP4 file, walked by their headers only: enough to
/// tell a file cut short (its `moov` box, written last by most muxers, missing)
/// from one damaged otherwise, which libavformat reports in the same words.
enum MP4Boxes {
    static func lacksMovie(path: String) -> Bool {
        guard let descriptor = try? AudioPathCheck.open(path) else { return false }
        defer { _ = Glibc.close(descriptor) }
        var offset: off_t = 0
        var header = [UInt8](repeating: 0, count: 16)
        var sawType = false
        // A bounded walk: a damaged size field cannot make it loop.
        for _ in 0..<10_000 {
            let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, offset) }
            guard count >= 8 else { return sawType }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "moov" { return false }
            if type == "ftyp" { sawType = true }
            var size = header[0..<4].reduce(0) { $0 << 8 | Int64($1) }
            if size == 1, count >= 16 { size = header[8..<16].reduce(0) { $0 << 8 | Int64($1) } }
            // Size 0: the box runs to the end of the file.
            guard size >= 8 else { return sawType }
            offset += off_t(size)
        }
        return false
    }
}

extension Decoders {
    /// For the player's executable: once FFmpeg's libraries are loaded, `exit`
    /// ends the process without running the destructors of their ~130
    /// objects, which would map back about 9 MB at the very end of a run (see
    /// `interlude_ffmpeg_exit_quickly`). Call before any file is opened.
    public static func exitQuicklyOnceFFmpegIsLoaded() {
        interlude_ffmpeg_exit_quickly()
    }

    /// For the player's executable, first thing: a block of 128 KiB or more
    /// is mapped on its own and unmapped when freed. By default glibc raises
    /// that threshold to the size of each such block freed, so that after the
    /// first one (FFmpeg's stream probe frees a 535 KB AAC channel element)
    /// the next ones come from the heap, are zeroed there, and stay resident
    /// once freed: an AAC station's heap held 4.2 MB 3 s in, in some runs,
    /// where others held 2.1 (the bench's limit on the whole is 20 MB).
    public static func unmapLargeBlocksWhenFreed() {
        _ = interlude_map_blocks_from(128 * 1024)
    }
}
