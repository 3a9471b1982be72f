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
    /// Asked in order; the first whose `accepts` says yes opens the file, so a
    /// decoder that recognises its own files goes before one that takes
    /// anything. libFLAC takes FLACs that need no resampling (most of them:
    /// it maps a fraction of what FFmpeg's libraries map, see `FLACDecoder`);
    /// FFmpeg's libraries take the containers they recognise by their magic
    /// numbers (MP4, FLAC, Ogg, WAV, ADTS); libmpg123 takes every other file
    /// and rejects what is not MPEG audio itself (`notMPEGAudio`), which is
    /// what `interlude` has always done with MP3s.
    static var implementations: [any Decoder.Type] {
        [
            FLACDecoder.self,
            FFmpegDecoder.self,
            Mpg123Decoder.self,
        ]
    }

    /// Extensions of the formats FFmpeg's libraries read, for the message about a
    /// file whose content is not what its name says.
    static let otherFormatExtensions: Set<String> = ["m4a", "m4b", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav"]
    /// Names of MPEG audio files, whose refusal libmpg123 words.
    static let mpegExtensions: Set<String> = ["mp3", "mp2", "mp1", "mpa", "mpga"]

    /// Opens `path` for reading from its start, in its own format or converted
    /// to `target` (see `Decoder.init`). Missing files, directories, empty and
    /// unreadable files are rejected here, in the same words for every
    /// implementation.
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
            do {
                return try implementation.init(path: path, head: head, target: target)
            } catch where error.kind == .notMPEGAudio && implementation == Mpg123Decoder.self {
                // A name that promises another format (a text file named .m4b): say what
                // the name promised and that the content is none of the formats we read.
                let named = path.split(separator: "/").last?.contains(".") == true
                let suffix = named ? path.split(separator: "/").last?.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
                guard Self.otherFormatExtensions.contains(suffix) else {
                    // libmpg123's own words suit a file named as MPEG audio; any other
                    // name (notes.txt) was tried against every format.
                    if Self.mpegExtensions.contains(suffix) { throw error }
                    throw DecoderError(.notMPEGAudio, path: path, detail: "not an audio file any decoder takes (\(AudioFileNames.formatList))")
                }
                throw DecoderError(.notMPEGAudio, path: path,
                                   detail: "not a playable \(suffix.uppercased()) file (no MP4, FLAC, Ogg, WAV or MPEG audio in it)")
            }
        }
        // Not reached while libmpg123 takes every file; it keeps the choice
        // total should the last implementation come to recognise its files.
        throw DecoderError(.notMPEGAudio, path: path, detail: "not an audio file any decoder takes (\(AudioFileNames.formatList))")
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

    /// The first bytes a caller read itself (at most `capacity` are kept).
    public init(bytes: [UInt8]) {
        self.bytes = Array(bytes.prefix(Self.capacity))
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
            throw DecoderError(.empty, path: path, detail: "empty file")
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
    }
}
