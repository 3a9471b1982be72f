import BookFormat

/// The decoding contract: one audio file decoded to the pipeline's encoding
/// (`AudioFormat`: signed 16-bit interleaved), read in order, moved by exact
/// seeks. Each implementation is one file in this folder that wraps one C
/// library and is the only file that imports it (`Mpg123Decoder.swift`:
/// libmpg123, MPEG audio; `FLACDecoder.swift`: libFLAC, FLAC at its own rate;
/// `FFmpegDecoder.swift`: FFmpeg's libraries, for AAC and ALAC in MP4, Ogg
/// Vorbis, Opus, WAV and the FLACs that need resampling, and by FFmpeg's probe
/// whatever else it decodes: WavPack, Musepack, TTA, DSD, AIFF, WMA, a video's
/// audio). Nothing outside this
/// folder names an implementation: `Decoders.open(path:target:)` picks one by
/// the file's content, and the engine, the feeder and the commands hold `any
/// Decoder`.
///
/// A station (`StreamDecoder`, in `Streaming/`) is a decoder too: its network
/// reads run on a reader thread of its own, so none of its calls waits for the
/// network, and its `read` says `.notYet` when nothing has arrived.
///
/// Threads: a decoder is used by one thread at a time, the thread that opened
/// it (it is not `Sendable`, so the compiler keeps it there); in the player that is the main loop (`TrackFeeder`, `MediaVoice`), in
/// `info` and `bench` the command's own thread. Never the real-time writer:
/// every call below may block on file I/O (the page cache, or a disk that has
/// to spin up), and `init`, `seek` and `scan` allocate.
///
/// Positions and lengths are output frames: frames of `format`, counted from
/// the first frame `read` gives after opening (after the gapless trim).
///
/// Errors: every throwing call throws `DecoderError`, one sentence that names
/// the file and keeps the library's own words (`DecoderError.description`).
public protocol Decoder: AnyObject {
    /// Opens `path` and reads as far as the first decodable frame, so `format`,
    /// `sourceFormat` and the length are known when it returns; rejects a file
    /// it cannot decode here (`notMPEGAudio` and the like), not at the first
    /// read. Given a `target`, the output is converted to it (channels mixed or
    /// duplicated, rate resampled): that is how a queue of mixed files plays
    /// through one open device. Blocks on reading the file's start. Called by
    /// `Decoders.open`, which has already checked that `path` is a readable,
    /// non-empty file and not a directory, and hands over the `head` it read
    /// (so the file's first bytes are read once, for the choice and the tags).
    init(path: String, head: FileHead, target: AudioFormat?) throws(DecoderError)

    /// Whether this implementation takes the file, from its first bytes.
    /// `Decoders` asks its implementations in order; the first that says yes
    /// opens the file.
    static func accepts(_ head: FileHead) -> Bool

    /// Whether it takes the file to be converted to `target` (nil: none): an
    /// implementation that converts only some ways says no to the others, and
    /// the next one that takes the file opens it. By default, `accepts(head)`.
    static func accepts(_ head: FileHead, target: AudioFormat?) -> Bool

    var path: String { get }
    /// What `read` writes: `target` when one was given, else the file's own
    /// rate and channel count (the pipeline's one sample encoding either way).
    var format: AudioFormat { get }
    /// The rate and channel count the file itself carries.
    var sourceFormat: AudioFormat { get }

    /// Decodes into `buffer` from the current position: as many whole frames
    /// of `format` as fit, fewer at the stream's end or where the library
    /// stops making progress, and `.frames(0)` only there (callers take it as
    /// the end of the track). `.end` once nothing is left, with nothing
    /// written. Gapless: the frames exclude the encoder's delay and padding
    /// whenever the stream says how long they are (see `gaplessTrim`), so two
    /// files cut from one recording join without a gap or a click. A decoding
    /// error after some frames were written returns those frames first.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> DecoderReadResult

    /// Moves to output frame `frame`, exactly: the frames `read` gives after
    /// the seek are bit for bit those a sequential decode from the start gives
    /// at that position (checked against `mpg123 -w` by `SeekAccuracyTests`,
    /// in the file's own format; with a `target` conversion the position is
    /// exact). Fast in long files: it may keep an index of the stream, but
    /// never trades exactness for speed (no fuzzy seeks). After a failed seek
    /// the position is unspecified: the caller reads no further from it.
    /// Blocks on reading the file.
    func seek(toFrame frame: Int) throws(DecoderError)

    /// The stream's length in output frames, after the gapless trim: exact
    /// when `lengthIsExact`, else the library's estimate (which for a VBR
    /// file without a header may be any distance off); nil when not even an
    /// estimate is known.
    var lengthInFrames: Int? { get }
    /// Whether `lengthInFrames` comes from the stream's own header or a scan,
    /// not an estimate: the count of frames `read` gives from the start (a
    /// header read before decoding may be a few codec frames over: see
    /// `TrackFeeder`'s truncation check). Only then does a decode that ends
    /// well short of it mean a cut-short file.
    var lengthIsExact: Bool { get }
    /// Reads the whole stream once so that `lengthIsExact` holds afterwards
    /// (and later seeks are cheap: an index is built). Blocks for as long as
    /// reading the file takes (61 ms for a 3-hour MP3 through the buffered
    /// reader). Leaves the read position where it was.
    func scan() throws(DecoderError)

    /// The encoder delay and padding the stream declares, in source frames,
    /// as the encoder recorded them (an MP3's LAME tag); `read` removes them,
    /// with whatever delay the decoder itself adds (libmpg123's 529 frames).
    /// nil when the stream declares none: then nothing is removed and the
    /// decode is what the codec gives, as `mpg123 -w` gives it.
    var gaplessTrim: GaplessTrim? { get }
    /// What the codec and its bitrate are, for `info`; of the most recently
    /// decoded frame where the stream's frames differ (VBR).
    var streamInfo: StreamInfo { get }
    /// The file's tags, read once when it was opened (`AudioTags.read`, with
    /// what the library itself found for what that lacks): the one reading
    /// that the library's scan, the now-playing title, a book's chapters,
    /// ReplayGain and `info` take, so none of them reads the file again. The
    /// chapters are the tag's (ID3v2 CHAP, Vorbis `CHAPTERnn`) or the
    /// container's (MP4's chapter track or Nero `chpl` atom, FLAC's CUESHEET),
    /// times in milliseconds of the file; an ID3v1 tag at the file's end may
    /// be found only after the first read or `scan()`.
    var tags: AudioTags { get }

    /// Damage met and skipped by `read` since the last call (a frame that
    /// failed its checksum or could not be decoded), one sentence each without
    /// the path: the feeder reports each one and the track plays on. Empty for
    /// a library that resynchronises silently (libmpg123).
    func takeDamage() -> [String]

    /// Releases the file and the library's state; idempotent, and done by the
    /// decoder's `deinit` too. No other call may follow it.
    func close()
}

extension Decoder {
    public static func accepts(_ head: FileHead, target: AudioFormat?) -> Bool { accepts(head) }
    public func takeDamage() -> [String] { [] }
}

public enum DecoderReadResult: Equatable, Sendable {
    /// Frames written to the start of the buffer.
    case frames(Int)
    /// The stream has ended; nothing was written.
    case end
    /// Nothing has arrived yet, and the stream goes on (a station's packets
    /// come from the network, `StreamDecoder`); nothing was written. The
    /// feeder stops filling for this turn and asks again on a later one (the
    /// loop wakes on the stream's descriptor, `LiveStream.wakeDescriptor`).
    /// A file's decoder never says it.
    case notYet
}

/// What a stream says its encoder added around the audio (the codec's
/// look-ahead at the start, the last frame's fill at the end), and so what
/// `Decoder.read` removes.
public struct GaplessTrim: Equatable, Sendable {
    /// Frames removed at the start.
    public let encoderDelay: Int
    /// Frames removed at the end.
    public let padding: Int

    public init(encoderDelay: Int, padding: Int) {
        self.encoderDelay = encoderDelay
        self.padding = padding
    }
}
