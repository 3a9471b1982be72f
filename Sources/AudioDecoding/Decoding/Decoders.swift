import BookFormat
import InterludeCore
import Streams
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Opens a file with the decoder that takes it, chosen by its content, so no
/// caller names an implementation.
public enum Decoders {
    /// Asked in order by the file's head; the first whose `accepts` says yes
    /// opens the file. libFLAC takes FLACs that need no resampling (most of
    /// them: it maps a fraction of what FFmpeg's libraries map, see
    /// `FLACDecoder`); FFmpeg's libraries take the containers they recognise
    /// by their magic numbers (MP4, FLAC, Ogg, WAV, ADTS) with the demuxer
    /// named. Then libmpg123 takes a file whose start is MPEG audio
    /// (`MPEGAudioStart`: checked before anything loads FFmpeg, so playing
    /// MP3s maps none of it), and FFmpeg's probe decides the rest (WavPack,
    /// Monkey's Audio, Musepack, TTA, DSD, AIFF, WMA, the audio of a video).
    static var implementations: [any Decoder.Type] {
        [
            FLACDecoder.self,
            FFmpegDecoder.self,
        ]
    }

    /// Extensions of the formats FFmpeg's libraries read, for the message about a
    /// file whose content is not what its name says.
    static var otherFormatExtensions: Set<String> { AudioFileNames.extensions.subtracting(mpegExtensions) }
    /// Names of MPEG audio files, whose refusal names MP3.
    static let mpegExtensions: Set<String> = ["mp3", "mp2", "mp1", "mpa", "mpga"]

    /// Opens `path` for reading from its start, in its own format or converted
    /// to `target` (see `Decoder.init`). Missing files, directories, empty and
    /// unreadable files are rejected here, in the same words for every
    /// implementation; a file nothing decodes, in one line naming what it is
    /// (`FileKind`: "a JPEG image, not an MP3 file", "Monkey's Audio, but the
    /// decoder failed: ...").
    /// `head`: the file's first bytes when the caller has read them (the
    /// library's scan, which checks for a tagged MP3 first); they are then not
    /// read again, and the caller has checked that the file is a non-empty
    /// regular one.
    /// Run between a path's check (its head read) and the decoder's open, by
    /// path: a test puts a FIFO in the file's place there, deterministically.
    static let afterCheckForTests = Mutex<[String: @Sendable () -> Void]>([:])

    public static func open(path: String, head: FileHead? = nil, target: AudioFormat? = nil) throws(DecoderError) -> any Decoder {
        // A station's URL (`StreamLocation`: http and https only), unless a file has that very name.
        if case .url = StreamLocation.classify(path), access(path, F_OK) != 0 {
            return try StreamDecoder(url: path, target: target)
        }
        // A cue sheet's track (`SHEET.cue#N`) is a range of its image, unless a file has that very name.
        if CueTrackPath(path) != nil && access(path, F_OK) != 0 {
            return try CueTrackDecoder(trackPath: path, target: target)
        }
        let head = if let head { head } else { try FileHead(path: path) }
        if let hook = afterCheckForTests.withLock({ $0[path] }) { hook() }
        for implementation in implementations where implementation.accepts(head, target: target) {
            return try implementation.init(path: path, head: head, target: target)
        }
        if MPEGAudioStart.isMPEGAudio(path: path, head: head.bytes, block: head.afterTag) {
            return try Mpg123Decoder(path: path, head: head, target: target)
        }
        let kind = FileKind.of(head.bytes)
        // What is plainly not audio (an image, an archive, text) is named without loading FFmpeg.
        if let kind, !kind.isAudio {
            throw DecoderError(.unrecognised, path: path, detail: "\(kind.name), \(notWhatItsNameSays(path))")
        }
        do {
            return try FFmpegDecoder(path: path, head: head, target: target)
        } catch {
            if let kind { throw DecoderError(error.kind, path: path, detail: "\(kind.name), but the decoder failed: \(error.detail)") }
            guard error.kind == .unrecognised else { throw error }
            throw DecoderError(.unrecognised, path: path, detail: notWhatItsNameSays(path, unknown: true))
        }
    }

    /// "not an MP3 file", "not a playable FLAC file" where the name promises a
    /// format, else "not an audio file any decoder takes (...)"; `unknown`:
    /// nothing at all recognised the content, which is said for an MP3.
    static func notWhatItsNameSays(_ path: String, unknown: Bool = false) -> String {
        let name = path.split(separator: "/").last ?? ""
        let suffix = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        if mpegExtensions.contains(suffix) {
            return "not an MP3 file" + (unknown ? " (no MPEG audio at its start, and no other format recognised)" : "")
        }
        if otherFormatExtensions.contains(suffix) { return "not a playable \(suffix.uppercased()) file" }
        return "not an audio file any decoder takes (\(AudioFileNames.formatList))"
    }
}

/// The first bytes of a file, read once by `Decoders.open` for the
/// implementations to recognise their formats by (a container's magic
/// number, an MPEG frame sync).
public struct FileHead: Sendable {
    /// Enough for every common signature, an ID3v2 tag's header among them.
    public static let capacity = 4096

    /// At most `capacity` bytes: fewer when the file is shorter.
    public let bytes: [UInt8]
    /// Where an ID3v2 tag longer than `bytes` ends (an MP3's cover art), the
    /// bytes there (`afterTagCapacity` at most), read in the same open: where
    /// `MPEGAudioStart` looks for the first frame, so an MP3 is not opened
    /// again for it.
    public let afterTag: (offset: Int, bytes: [UInt8])?
    static let afterTagCapacity = 8192

    /// The first bytes a caller read itself (at most `capacity` are kept).
    public init(bytes: [UInt8]) {
        self.bytes = Array(bytes.prefix(Self.capacity))
        afterTag = nil
    }

    /// Rejects what a library would report only vaguely: missing files,
    /// directories and empty files, and files that cannot be read.
    init(path: String) throws(DecoderError) {
        var info = stat()
        do { _ = try SystemCall.retrying { stat(path, &info) } } catch {
            throw DecoderError(error == .noSuchFile ? .missing : .unreadable, path: path, detail: error.message.lowercased())
        }
        switch AudioPathCheck.specialKind(path) {
        case nil: break
        case .directory: throw DecoderError(.directory, path: path, detail: "is a directory, not an audio file")
        case let kind?: throw DecoderError(.unreadable, path: path, detail: "is \(kind.rawValue), not an audio file")
        }
        if info.st_size == 0 {
            throw DecoderError(.empty, path: path, detail: "an empty file")
        }
        var bytes = [UInt8](repeating: 0, count: Self.capacity)
        // Opened so that a FIFO put in the file's place since the check cannot block.
        let descriptor: Int32
        do { descriptor = try AudioPathCheck.open(path) } catch {
            throw DecoderError(.unreadable, path: path, detail: error.reason.lowercased())
        }
        defer { _ = Glibc.close(descriptor) }
        do throws(Errno) {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, buffer.count) } }
            }
            bytes.removeSubrange(try count.get()...)
        } catch {
            throw DecoderError(.unreadable, path: path, detail: error.message.lowercased())
        }
        self.bytes = bytes
        afterTag = Self.afterTag(head: bytes, descriptor: descriptor)
    }

    private static func afterTag(head: [UInt8], descriptor: Int32) -> (offset: Int, bytes: [UInt8])? {
        guard let length = MPEGAudioStart.id3v2Length(Array(head.prefix(10))), length + 8 > head.count else { return nil }
        var block = [UInt8](repeating: 0, count: afterTagCapacity)
        let count = block.withUnsafeMutableBytes { buffer in
            (try? SystemCall.retrying { pread(descriptor, buffer.baseAddress, buffer.count, off_t(length)) }) ?? 0
        }
        block.removeSubrange(max(0, count)...)
        return (length, block)
    }
}
