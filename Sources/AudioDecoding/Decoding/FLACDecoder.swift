import CFLAC
import BookFormat
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The `Decoder` of FLAC files over libFLAC: the only file of the project that
/// imports `CFLAC`. FLAC used to go through FFmpeg's libraries like the other
/// formats, but mapping those costs about 24 MB resident (libavcodec's 130
/// dependent shared objects) where libFLAC and libogg cost 0.7 MB, so a FLAC
/// peaked at 41-43 MB through the sound server where an MP3 peaks at 11
/// (the bench's target is 20; through libFLAC it peaks at 11.8). FLAC is
/// lossless, so the decode is the same sample for
/// sample: `ffmpeg -i FILE -f s16le` (the tests' oracle) shifts each sample to
/// 16 bits exactly as `sample16` does, without dither.
///
/// It takes a FLAC only when no resampling or mixing down is needed: the
/// file's own rate and one or two channels (mono duplicated into stereo is a
/// copy). A queue that needs libswresample's conversion, or a file of more
/// than two channels, goes to `FFmpegDecoder` (see `accepts(_:target:)`), so
/// the sound at a join between formats stays exactly what it was.
///
/// Damage: a frame that fails its checksum or loses the sync is reported
/// (`takeDamage`), and the samples it should have held are kept as silence,
/// so what follows stays at its place.
final class FLACDecoder: Decoder {
    let path: String
    let format: AudioFormat
    let sourceFormat: AudioFormat
    private var handle: OpaquePointer?
    private let bitsPerSample: Int
    /// From the stream information; nil where it says 0 (unknown).
    private let totalSamples: Int?
    private let fileSize: Int

    /// Decoded frames not yet handed out, and the damage met.
    private let frames: DecodedFrames
    /// The source frame the next decoded frame should start at.
    private var sourcePosition = 0
    private var atEnd = false
    private var exactLength: Int?
    private var message = [CChar](repeating: 0, count: 512)
    /// Read once, at the opening (see `tags`).
    private var fileTags: AudioTags

    /// A FLAC (at the file's start or behind an ID3v2 tag) whose stream
    /// information is in the first bytes, of one or two channels.
    static func accepts(_ head: FileHead) -> Bool {
        guard let stream = StreamHeader(head.bytes) else { return false }
        return stream.channels <= 2
    }

    /// With a `target`, only at the file's own rate and with its channel count
    /// or mono into stereo: every other conversion is libswresample's.
    static func accepts(_ head: FileHead, target: AudioFormat?) -> Bool {
        guard accepts(head), let stream = StreamHeader(head.bytes) else { return false }
        guard let target else { return true }
        return target.rate == stream.rate && (target.channels == stream.channels || (stream.channels == 1 && target.channels == 2))
    }

    /// The STREAMINFO block, which the format puts first: rate, channels.
    struct StreamHeader {
        let rate: Int
        let channels: Int

        init?(_ bytes: [UInt8]) {
            func matches(_ magic: String, at offset: Int) -> Bool {
                let magic = Array(magic.utf8)
                return bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
            }
            var start = 0
            if matches("ID3", at: 0), bytes.count >= 10 {
                // The tag's size is four 7-bit bytes, plus a footer when flagged.
                start = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) } + (bytes[5] & 0x10 != 0 ? 10 : 0)
            }
            // "fLaC", then a block header of type 0 (STREAMINFO), then 10 bytes of
            // block and frame sizes before the 20-bit rate and 3-bit channel count.
            guard matches("fLaC", at: start), bytes.count >= start + 21, bytes[start + 4] & 0x7f == 0 else { return nil }
            let info = start + 18
            rate = Int(bytes[info]) << 12 | Int(bytes[info + 1]) << 4 | Int(bytes[info + 2]) >> 4
            channels = Int((bytes[info + 2] >> 1) & 0x07) + 1
            guard rate > 0 else { return nil }
        }
    }

    /// Whether libFLAC is loaded in this process (`Decoders.warm`).
    static var isLibraryLoaded: Bool { interlude_flac_loaded() != 0 }

    init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError) {
        self.path = path
        fileTags = AudioTags.read(path: path, head: head.bytes)
        guard interlude_flac_load(&message, message.count) == 0 else {
            throw DecoderError(.library, path: path, detail: "cannot load libFLAC: \(Self.text(message))")
        }
        // The descriptor the check opened, not the name again (a FIFO by now would block).
        let descriptor: Int32
        do { descriptor = try AudioPathCheck.open(path) } catch {
            throw DecoderError(.unreadable, path: path, detail: "cannot open: \(error.reason.lowercased())")
        }
        guard let handle = interlude_flac_open(descriptor, &message, message.count) else {
            throw DecoderError(.notMPEGAudio, path: path, detail: "damaged FLAC file (\(Self.text(message).lowercased()))")
        }
        self.handle = handle
        let rate = Int(interlude_flac_sample_rate(handle))
        let channels = Int(interlude_flac_channels(handle))
        bitsPerSample = Int(interlude_flac_bits_per_sample(handle))
        let total = Int(interlude_flac_total_samples(handle))
        totalSamples = total > 0 ? total : nil
        var info = stat()
        fileSize = stat(path, &info) == 0 ? Int(info.st_size) : 0
        sourceFormat = AudioFormat(rate: rate, channels: channels)
        format = target ?? sourceFormat
        frames = DecodedFrames(channels: format.channels)
        guard channels <= 2, format.rate == rate, format.channels == channels || (channels == 1 && format.channels == 2) else {
            close()
            throw DecoderError(.library, path: path, detail: "libFLAC cannot convert \(sourceFormat) to \(format)")
        }
        // Decode the first frame, so a file whose audio cannot be decoded is refused here.
        do throws(DecoderError) {
            guard try refill() else {
                throw DecoderError(.notMPEGAudio, path: path, detail: "no decodable FLAC audio in this FLAC file")
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        guard let handle else { return }
        interlude_flac_close(handle)
        self.handle = nil
    }

    // MARK: Reading

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult {
        try frames.read(into: buffer) { () throws(DecoderError) in try refill() }
    }

    /// Decodes the next frame into `frames`; false at the end.
    private func refill() throws(DecoderError) -> Bool {
        frames.removeAll()
        guard let handle, !atEnd else { return false }
        let status = interlude_flac_next_frame(handle, &message, message.count)
        noteErrors()
        if status == 0 {
            atEnd = true
            return false
        }
        if status < 0 {
            // libFLAC cannot go on (its state says why): what was read stands, the rest is lost.
            frames.noteDamage(Self.text(message).lowercased(), atSourceFrame: sourcePosition, rate: sourceFormat.rate)
            atEnd = true
            return false
        }
        let first = Int(interlude_flac_frame_first_sample(handle))
        let length = Int(interlude_flac_frame_length(handle))
        // A frame skipped as damaged: its time is kept as silence.
        frames.appendSilence(from: sourcePosition, to: first, sourceRate: sourceFormat.rate, outputRate: format.rate)
        sourcePosition = first + length
        appendConverted(interlude_flac_frame_samples(handle), frames: length)
        return true
    }

    /// libFLAC's samples (right-aligned to the stream's bits) as s16 in `format`.
    private func appendConverted(_ samples: UnsafePointer<Int32>, frames count: Int) {
        let start = frames.samples.count
        let sourceChannels = sourceFormat.channels
        let outputChannels = format.channels
        frames.samples.append(contentsOf: repeatElement(0, count: count * outputChannels))
        let bits = bitsPerSample
        frames.samples.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress! + start
            for frame in 0..<count {
                for channel in 0..<outputChannels {
                    // Mono into stereo: the one channel on both sides, as libmpg123 does.
                    let sample = samples[frame * sourceChannels + min(channel, sourceChannels - 1)]
                    base[frame * outputChannels + channel] = Self.sample16(sample, bits: bits)
                }
            }
        }
    }

    /// FFmpeg's decoder left-aligns a sample to 16 bits (up to 16 bits) or 32
    /// (above), and libswresample keeps the top 16 bits of a 32-bit sample by
    /// an arithmetic shift, without rounding or dither: so a 24-bit sample
    /// loses its low 8 bits exactly as here.
    @inline(__always)
    static func sample16(_ sample: Int32, bits: Int) -> Int16 {
        bits <= 16 ? Int16(truncatingIfNeeded: sample << (16 - bits)) : Int16(truncatingIfNeeded: sample >> (bits - 16))
    }

    private func noteErrors() {
        guard let handle else { return }
        var text = [CChar](repeating: 0, count: 256)
        let count = interlude_flac_take_errors(handle, &text, text.count)
        guard count > 0 else { return }
        frames.noteDamage(Self.describe(Self.text(text)), atSourceFrame: sourcePosition, rate: sourceFormat.rate)
    }

    func takeDamage() -> [String] { frames.takeDamage() }

    /// libFLAC's error names ("FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH") in words.
    private static func describe(_ status: String) -> String {
        let prefix = "FLAC__STREAM_DECODER_ERROR_STATUS_"
        let name = status.hasPrefix(prefix) ? String(status.dropFirst(prefix.count)) : status
        return name.lowercased().split(separator: "_").joined(separator: " ")
    }

    // MARK: Length, seeking

    var lengthInFrames: Int? { exactLength ?? totalSamples }

    /// The stream information's sample count, when it gives one (encoders that
    /// could not seek back to write it leave 0), or a scan's count.
    var lengthIsExact: Bool { exactLength != nil || totalSamples != nil }

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

    /// Frames handed out since position 0.
    private var position: Int { sourcePosition - frames.bufferedFrames }

    /// libFLAC seeks exactly (by the seek table or a bisection, then decoding
    /// the frame that holds the sample): every FLAC frame decodes on its own,
    /// so no pre-roll is needed.
    func seek(toFrame frame: Int) throws(DecoderError) {
        guard let handle else { return }
        frames.removeAll()
        if let end = lengthInFrames, frame >= end {
            // libFLAC refuses a seek to the end itself: nothing is left to read.
            sourcePosition = frame
            atEnd = true
            return
        }
        atEnd = false
        guard interlude_flac_seek(handle, UInt64(max(0, frame)), &message, message.count) == 0 else {
            throw DecoderError(.library, path: path, detail: "seek failed: \(Self.text(message).lowercased())")
        }
        noteErrors()
        sourcePosition = max(0, frame)
    }

    var gaplessTrim: GaplessTrim? { nil }

    var streamInfo: StreamInfo {
        let seconds = Double(lengthInFrames ?? 0) / Double(sourceFormat.rate)
        let kbps = seconds > 0 ? Int(Double(fileSize) * 8 / seconds / 1000) : 0
        return StreamInfo(codec: .other(container: "FLAC", codec: "FLAC"), bitrateKbps: kbps, bitrateMode: .variable)
    }

    // MARK: Tags

    /// The file's tags as `AudioTags.read` gives them (the same reader and
    /// mapping as every format's), read when the file was opened; without
    /// `CHAPTERnn` comments, the CUESHEET block's tracks (untitled, as
    /// libavformat gives them) are its chapters.
    var tags: AudioTags {
        var tags = fileTags
        let rate = sourceFormat.rate
        if tags.chapters.isEmpty, let handle {
            // Clamped so the product cannot overflow: a damaged offset makes a late chapter, not a trap.
            let starts = (0..<interlude_flac_cue_track_count(handle)).map {
                min(Int(clamping: interlude_flac_cue_track_start(handle, $0)), Int.max / 1000) * 1000 / rate
            }
            tags.chapters = starts.enumerated().map { index, start in
                Chapter(title: "", startMilliseconds: start, endMilliseconds: index + 1 < starts.count ? max(start, starts[index + 1]) : start)
            }
        }
        return tags.endingChapters(atMilliseconds: min(lengthInFrames ?? 0, Int.max / 1000) * 1000 / rate)
    }

    /// The time of a chapter comment, as the tag reader takes it from a FLAC's comments.
    static func milliseconds(_ text: String) -> Int? { AudioTags.chapterTime(text) }

    /// A C string in a buffer, up to its NUL.
    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
