import BookFormat
import CMpg123
#if canImport(Glibc)
import Glibc
#endif

/// The `Decoder` of MPEG audio (MP3, and layers 1 and 2) over libmpg123: the
/// only file of the project that imports `CMpg123` (a test checks it). Its
/// decode is bit for bit that of the `mpg123` program (`mpg123 -w`), the
/// oracle of the decoding tests; gapless from the LAME header.
///
/// Output format: by default the file's own rate and channel count. Given a
/// `target` format, libmpg123 converts to it (duplicating or mixing channels,
/// resampling), which is how a queue of mixed files plays through one open
/// device without a reopen at every boundary.
final class Mpg123Decoder: Decoder {
    let path: String
    let format: AudioFormat
    let sourceFormat: AudioFormat
    private let target: AudioFormat?
    /// Replaced by `seek(toFrame:)`, which decodes from a fresh handle (see there).
    private var handle: OpaquePointer
    private var file: UnsafeMutablePointer<BufferedFile>
    private var closed = false
    /// Read at the opening (see `tags`).
    private let fileTags: AudioTags

    /// A file whose start is MPEG audio (`MPEGAudioStart`), judged from the
    /// head alone; `Decoders.open` asks with the path, which reads past an
    /// ID3v2 tag longer than the head. Never a file whose first frame sync is
    /// deep in other data: libmpg123 would resync to it and decode noise.
    static func accepts(_ head: FileHead) -> Bool {
        MPEGAudioStart.isMPEGAudio { offset, count in
            offset < head.bytes.count ? Array(head.bytes[offset..<min(head.bytes.count, offset + count)]) : []
        }
    }

    init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError) {
        self.path = path
        self.target = target
        fileTags = AudioTags.read(path: path, head: head.bytes)
        let (handle, file) = try Self.openHandle(path: path, target: target)

        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        // getformat reads until the first valid frame; junk fails here within the resync limit.
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
            let reason = String(cString: mpg123_strerror(handle))
            Self.closeHandle(handle, file)
            throw DecoderError(.notMPEGAudio, path: path, detail: "not an MP3 file (no MPEG audio frames found: \(reason))")
        }
        var info = mpg123_frameinfo2()
        mpg123_info2(handle, &info)
        self.handle = handle
        self.file = file
        self.format = AudioFormat(rate: rate, channels: Int(channels))
        self.sourceFormat = AudioFormat(rate: info.rate, channels: info.mode == Int32(MPG123_M_MONO.rawValue) ? 1 : 2)
    }

    /// A libmpg123 handle set up for the pipeline's encoding, opened on `path`
    /// through a `BufferedFile`.
    private static func openHandle(path: String, target: AudioFormat?) throws(DecoderError)
        -> (OpaquePointer, UnsafeMutablePointer<BufferedFile>) {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw DecoderError(.library, path: path, detail: String(cString: mpg123_plain_strerror(error)))
        }
        // Quiet: libmpg123 would otherwise print its own warnings on stderr; we report ourselves.
        // Gapless is on by default in Debian's build; say so explicitly, it is what makes
        // two cut files join without a gap.
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue | MPG123_GAPLESS.rawValue), 0)
        mpg123_format_none(handle)
        if let target {
            let layout = target.channels == 1 ? MPG123_MONO : MPG123_STEREO
            mpg123_format(handle, target.rate, Int32(layout.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
        } else {
            var rates: UnsafePointer<Int>?
            var count = 0
            mpg123_rates(&rates, &count)
            for index in 0..<count {
                mpg123_format(handle, rates![index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                              Int32(MPG123_ENC_SIGNED_16.rawValue))
            }
        }
        let file: UnsafeMutablePointer<BufferedFile>
        do { file = try BufferedFile.open(path) } catch {
            mpg123_delete(handle)
            throw DecoderError(.unreadable, path: path, detail: "cannot open: \(error.reason.lowercased())")
        }
        // No cleanup callback: the file is closed by `closeHandle` after the handle, also
        // when mpg123_open_handle fails.
        guard mpg123_replace_reader_handle(handle, bufferedFileRead, bufferedFileSeek, nil) == MPG123_OK.rawValue,
              mpg123_open_handle(handle, file) == MPG123_OK.rawValue else {
            let reason = String(cString: mpg123_strerror(handle))
            closeHandle(handle, file)
            throw DecoderError(.unreadable, path: path, detail: "cannot open: \(reason)")
        }
        return (handle, file)
    }

    private static func closeHandle(_ handle: OpaquePointer, _ file: UnsafeMutablePointer<BufferedFile>) {
        mpg123_close(handle)
        mpg123_delete(handle)
        BufferedFile.close(file)
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Self.closeHandle(handle, file)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult {
        let bytesPerFrame = format.bytesPerFrame
        let capacity = buffer.count / bytesPerFrame * bytesPerFrame
        guard capacity > 0, let base = buffer.baseAddress else { return .frames(0) }
        var filled = 0
        var idleReads = 0
        // mpg123_read may return fewer bytes than asked (a frame boundary), or none
        // while it parses headers, so loop until the region is full or the stream ends.
        while filled < capacity {
            var done = 0
            let status = mpg123_read(handle, base + filled, capacity - filled, &done)
            filled += done
            switch status {
            case MPG123_OK.rawValue, MPG123_NEW_FORMAT.rawValue:
                idleReads = done == 0 ? idleReads + 1 : 0
                if idleReads > 64 { return .frames(filled / bytesPerFrame) }
                continue
            case MPG123_DONE.rawValue:
                return filled == 0 ? .end : .frames(filled / bytesPerFrame)
            default:
                if filled > 0 { return .frames(filled / bytesPerFrame) }
                throw DecoderError(.library, path: path, detail: "decoding failed: \(String(cString: mpg123_strerror(handle)))")
            }
        }
        return .frames(filled / bytesPerFrame)
    }

    /// Exact when the file has a Xing/LAME header or after `scan()`, otherwise
    /// an estimate from the file size.
    var lengthInFrames: Int? {
        let length = mpg123_length(handle)
        return length < 0 ? nil : Int(length)
    }

    /// libmpg123 knows a length exactly from a Xing/Info frame, which it reads
    /// with the LAME tag that carries the encoder delay: a known delay says
    /// the header was there. (`MPG123_ACCURATE` says whether *positions* are
    /// accurate, which they are in any file read from its start: it called a
    /// VBR file without a header exact, and its estimate from the first
    /// frame's bitrate made a 120 s file 79 s long.) A Xing frame without a
    /// LAME tag counts as unknown: a scan costs time, never exactness.
    var lengthIsExact: Bool {
        scanned || gaplessTrim != nil
    }

    /// From the LAME tag; libmpg123 reports -1 for a value the file does not carry.
    var gaplessTrim: GaplessTrim? {
        let delay = state(MPG123_ENC_DELAY)
        guard delay >= 0 else { return nil }
        return GaplessTrim(encoderDelay: delay, padding: max(0, state(MPG123_ENC_PADDING)))
    }

    private func state(_ key: mpg123_state) -> Int {
        var value = 0
        var fvalue = 0.0
        guard mpg123_getstate2(handle, Int32(key.rawValue), &value, &fvalue) == MPG123_OK.rawValue else { return -1 }
        return value
    }

    private var scanned = false

    /// Reads the whole file once to learn its exact length and build the seek index.
    func scan() throws(DecoderError) {
        guard mpg123_scan(handle) == MPG123_OK.rawValue else {
            throw DecoderError(.library, path: path, detail: "scan failed: \(String(cString: mpg123_strerror(handle)))")
        }
        scanned = true
    }

    /// Moves to an absolute output frame, sample-accurately: the frames read after
    /// the seek are bit for bit those a sequential decode of the whole file
    /// gives at that position (and `mpg123 -w`, which decodes sequentially).
    ///
    /// libmpg123's own exact seek differs from a sequential decode by one unit in
    /// the last place now and then (measured on a 3-hour file made of one-minute
    /// CBR files: about 4 seeks in 10 had 1-8 samples off by one): part of its
    /// decoding state survives a seek, and the rest depends on how many frames
    /// were decoded since the handle was opened, the preframes decoded to refill
    /// the bit reservoir among them. So every seek decodes from a fresh handle (the
    /// state a sequential decode starts from) with `12 + F mod 4` preframes before
    /// the target's MPEG frame F: the count of frames decoded before F is then F
    /// modulo 4, as in a sequential decode (0 bad samples in 200 seeks, against
    /// 122 in 65 seeks on one reused handle).
    ///
    /// Why 12 and not libmpg123's default of 4: the bit reservoir reaches back up
    /// to 511 bytes, which in small VBR frames (32 kbps, 60 bytes of main data at
    /// 48 kHz) is 9 frames. With 4, a seek into a `lame -V 4` file gave whole
    /// frames of silence; 8 was enough there.
    ///
    /// Speed: the frame index the old handle built (libmpg123 records frame
    /// offsets as it reads or seeks) is handed to the new one, so a seek reads
    /// at most one index step of frame headers; the first seek past the indexed
    /// part reads the headers up to the target through the 64 KB buffer.
    func seek(toFrame frame: Int) throws(DecoderError) {
        let (fresh, freshFile) = try Self.openHandle(path: path, target: target)
        // Parse the stream's start first: that resets the frame index, which must
        // come after it.
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(fresh, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
            let error = DecoderError(.library, path: path, detail: "reopening failed: \(String(cString: mpg123_strerror(fresh)))")
            Self.closeHandle(fresh, freshFile)
            throw error
        }
        var offsets: UnsafeMutablePointer<off_t>?
        var step: off_t = 0
        var fill = 0
        if mpg123_index(handle, &offsets, &step, &fill) == MPG123_OK.rawValue, let offsets, fill > 1 {
            // mpg123_set_index copies the table into an index of exactly `fill`
            // entries, which could then never grow: give it back its usual size.
            mpg123_set_index(fresh, offsets, step, fill)
            mpg123_param2(fresh, Int32(MPG123_INDEX_SIZE.rawValue), max(Self.indexSize, fill), 0)
        }
        func fail(_ what: String) -> DecoderError {
            let error = DecoderError(.library, path: path, detail: "\(what) failed: \(String(cString: mpg123_strerror(fresh)))")
            Self.closeHandle(fresh, freshFile)
            return error
        }
        // The first seek learns the target's MPEG frame; it asks for the most preframes
        // the second may need, because libmpg123 does not move back for a second seek
        // whose start frame lies before where the first one left it.
        mpg123_param2(fresh, Int32(MPG123_PREFRAMES.rawValue), Self.preframes + 3, 0)
        guard mpg123_seek(fresh, frame, SEEK_SET) >= 0 else { throw fail("seek") }
        // Right after a seek, tellframe is the MPEG frame that holds the target.
        let mpegFrame = mpg123_tellframe(fresh)
        if mpegFrame >= 0, mpegFrame % 4 != 3 {
            mpg123_param2(fresh, Int32(MPG123_PREFRAMES.rawValue), Self.preframes + mpegFrame % 4, 0)
            guard mpg123_seek(fresh, frame, SEEK_SET) >= 0 else { throw fail("seek") }
        }
        Self.closeHandle(handle, file)
        handle = fresh
        file = freshFile
    }

    /// Frames decoded before a seek target, less the `F mod 4` (see `seek(toFrame:)`).
    static let preframes = 12
    /// libmpg123's default frame index size: a 3-hour file at 44.1 kHz (413,000
    /// MPEG frames) is indexed every 512 frames, 13 s apart, and a seek reads at
    /// most that many frame headers (about 0.1 ms through the buffer).
    static let indexSize = 1000

    /// From the current MPEG frame's header (`mpg123_info2`).
    var streamInfo: StreamInfo {
        var info = mpg123_frameinfo2()
        mpg123_info2(handle, &info)
        let version: StreamInfo.MPEGVersion = switch info.version {
        case Int32(MPG123_1_0.rawValue): .mpeg1
        case Int32(MPG123_2_0.rawValue): .mpeg2
        default: .mpeg25
        }
        let mode: StreamInfo.BitrateMode = switch info.vbr {
        case Int32(MPG123_VBR.rawValue): .variable
        case Int32(MPG123_ABR.rawValue): .average
        default: .constant
        }
        return StreamInfo(codec: .mpegAudio(version: version, layer: Int(info.layer)),
                          bitrateKbps: Int(info.bitrate), bitrateMode: mode)
    }

    /// The ID3v2 tag and LAME's ReplayGain as `AudioTags.read` gives them
    /// (read when the file was opened), then what libmpg123 found for what
    /// they lack: an ID3v1 tag at the file's end (after the first read or a
    /// scan), a tag `BookFormat` cannot read (a compressed ID3v2.2 one).
    var tags: AudioTags { fileTags.filling(from: libraryTags()) }

    private func libraryTags() -> AudioTags {
        var tags = AudioTags()
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_meta_check(handle) & MPG123_ID3 != 0,
              mpg123_id3(handle, &v1, &v2) == MPG123_OK.rawValue else { return tags }
        if let v2 = v2?.pointee {
            tags.title = Self.text(v2.title)
            tags.artists = Self.text(v2.artist).map { [$0] } ?? []
            tags.album = Self.text(v2.album)
            tags.setDate(Self.text(v2.year))
            tags.genres = Self.text(v2.genre).map { [$0] } ?? []
            tags.comment = Self.text(v2.comment)
        }
        if let v1 = v1?.pointee {
            tags.title = tags.title ?? Self.latin1(v1.title)
            if tags.artists.isEmpty, let artist = Self.latin1(v1.artist) { tags.artists = [artist] }
            tags.album = tags.album ?? Self.latin1(v1.album)
            tags.setDate(Self.latin1(v1.year))
        }
        return tags
    }

    private static func text(_ string: UnsafeMutablePointer<mpg123_string>?) -> String? {
        // libmpg123 converts every ID3v2 text encoding to UTF-8 in mpg123_string.
        guard let string, let bytes = string.pointee.p, string.pointee.fill > 1 else { return nil }
        var value = Substring(String(decoding: UnsafeRawBufferPointer(start: bytes, count: string.pointee.fill - 1), as: UTF8.self))
        // It keeps a value's own terminator (ID3v2.2 as iTunes writes it gave "full\0"): not part of the value.
        while value.last == "\0" { value = value.dropLast() }
        return value.isEmpty ? nil : String(value)
    }

    private static func latin1<T>(_ field: T) -> String? {
        // ID3v1 fields are fixed-size, NUL- or space-padded Latin-1.
        withUnsafeBytes(of: field) { raw in
            var scalars = String.UnicodeScalarView()
            for byte in raw {
                if byte == 0 { break }
                scalars.append(Unicode.Scalar(byte))
            }
            let value = String(scalars).trimmingTrailingSpaces()
            return value.isEmpty ? nil : value
        }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}

// libmpg123's reader callbacks (`mpg123_replace_reader_handle`), called with
// the `BufferedFile` pointer the handle was opened with.

private let bufferedFileRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = { handle, destination, count in
    guard let handle, let destination else { errno = EINVAL; return -1 }
    return handle.assumingMemoryBound(to: BufferedFile.self).pointee.read(into: destination, count: count)
}

private let bufferedFileSeek: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { handle, offset, whence in
    guard let handle else { errno = EINVAL; return -1 }
    return off_t(handle.assumingMemoryBound(to: BufferedFile.self).pointee.seek(to: Int(offset), whence: whence))
}
