import BookFormat
import InterludeCore
import Streams
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The libraries a coming file needs, loaded before its turn. FFmpeg's tree is
/// loaded one object at a time with its pages given back (`interlude_ffmpeg.h`),
/// and its first set-up touches more: hundreds of milliseconds on a busy
/// machine. Done by the main loop's open at a join, that is more than the
/// media ring holds ahead of the device (a third of a second), and the
/// device underruns where an MP3 gives way to the queue's first FLAC, Opus
/// or AAC. So the queue's next file is opened once on a thread of its own, and
/// dropped, while the file before it plays: the loop's own open at the join
/// then finds the library loaded and set up.
extension Decoders {
    /// A library loaded at first use.
    public enum LoadedLibrary: Equatable, Sendable {
        case ffmpeg, flac

        var isLoaded: Bool {
            switch self {
            case .ffmpeg: FFmpegDecoder.isLibraryLoaded
            case .flac: FLACDecoder.isLibraryLoaded
            }
        }
    }

    /// The library the decoder of `path` (its `head`) needs to open in
    /// `target`, as `open` would choose the decoder; nil for libmpg123 (linked)
    /// and for what no decoder is asked to take.
    public static func library(path: String, head: FileHead, target: AudioFormat?) -> LoadedLibrary? {
        if FLACDecoder.accepts(head, target: target) { return .flac }
        if FFmpegDecoder.accepts(head, target: target) { return .ffmpeg }
        if MPEGAudioStart.isMPEGAudio(path: path, head: head.bytes, block: head.afterTag) { return nil }
        if let kind = FileKind.of(head.bytes), !kind.isAudio { return nil }
        return .ffmpeg
    }

    /// One warming at a time: a queue's files are warmed one after another.
    private static let warming = Atomic<Bool>(false)

    /// Opens `path` in `target` on a thread of its own and closes it again when
    /// its decoder's library is not loaded yet, so the load and the first
    /// set-up happen there. A station (its open is the network's) and a cue
    /// sheet's track are left to their turn; nothing is reported, since the
    /// file's own open at its turn reports what fails.
    public static func warm(path: String, target: AudioFormat?) {
        guard !FFmpegDecoder.isLibraryLoaded || !FLACDecoder.isLibraryLoaded else { return }
        if case .url = StreamLocation.classify(path), access(path, F_OK) != 0 { return }
        if CueTrackPath(path) != nil && access(path, F_OK) != 0 { return }
        guard !warming.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let failed = BackgroundThread.start {
            defer { warming.store(false, ordering: .releasing) }
            guard let head = try? FileHead(path: path), let needed = library(path: path, head: head, target: target), !needed.isLoaded else {
                return
            }
            _ = try? open(path: path, head: head, target: target)
        }
        if failed != nil { warming.store(false, ordering: .releasing) }
    }
}
