import CFFmpeg
import InterludeCore
import Streams
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A station's reader thread under `StreamBounds`: FFmpeg's interrupt
/// callback asks it whether the call under way is to end (the channel
/// stopped, or a bound passed), and every request libavformat makes for
/// the stream after the first (HLS's playlists, keys and segments, through
/// the context's `io_open`) goes through it, timed and counted.
///
/// Used on the reader thread only: FFmpeg calls both back on the thread
/// that called it, and libavformat's HLS demuxer starts no thread of its own.
final class StreamWatch {
    let channel: StreamChannel
    private var bounds: StreamBounds
    /// libavformat's own `io_open`, which every watched request calls on.
    private var originalOpen: IOOpen?

    typealias IOOpen = @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                       UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    init(url: String, channel: StreamChannel, limits: StreamLimits) {
        self.channel = channel
        bounds = StreamBounds(stationURL: url, limits: limits)
    }

    /// Why the stream was given up, when a bound ended it.
    var verdict: String? { bounds.verdict }

    /// Sets the context's interrupt callback and `io_open` to this watch's;
    /// the context must not outlive it.
    func watch(_ context: UnsafeMutablePointer<AVFormatContext>) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: streamInterrupted, opaque: me)
        context.pointee.opaque = me
        originalOpen = context.pointee.io_open
        context.pointee.io_open = watchedOpen
    }

    /// A request of the reader's own (the station's URL) starts and ends around `open`.
    func request(_ url: String, _ open: () -> Int32) -> Int32 {
        guard bounds.requestStarting(url: url, now: seconds(CLOCK_MONOTONIC), cpu: seconds(CLOCK_THREAD_CPUTIME_ID)) else { return interlude_averror_exit() }
        let status = open()
        bounds.requestEnded(failure: status < 0 ? StreamReader.describe(status) : nil)
        return status
    }

    func awaitingAudio() { bounds.awaitingAudio(now: seconds(CLOCK_MONOTONIC)) }
    func audioArrived() { bounds.audioArrived() }

    /// FFmpeg's question, asked before each read of a socket and every 100 ms of a wait.
    fileprivate func interrupted() -> Bool {
        if channel.isStopping { return true }
        let now = seconds(CLOCK_MONOTONIC)
        bounds.reopened(total: interlude_ffmpeg_reconnections(), now: now)
        return bounds.check(now: now, cpu: { self.seconds(CLOCK_THREAD_CPUTIME_ID) })
    }

    fileprivate func open(_ context: UnsafeMutablePointer<AVFormatContext>?, _ io: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                          _ url: UnsafePointer<CChar>?, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        guard let originalOpen else { return interlude_averror_exit() }
        var name = url.map { String(cString: $0) } ?? ""
        // An HLS segment with a key is opened through FFmpeg's crypto protocol: the URL fetched is after it.
        for prefix in ["crypto+", "crypto:"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        return request(name) { originalOpen(context, io, url, flags, options) }
    }

    /// The monotonic clock, or this thread's CPU time.
    private func seconds(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension StreamLimits {
    private static let chosen = Mutex<StreamLimits?>(nil)

    /// The limits every station opened from now on has (the player's config, at start-up).
    public static func use(_ limits: StreamLimits) { chosen.withLock { $0 = limits } }

    static var inUse: StreamLimits { chosen.withLock { $0 } ?? .standard }
}

/// FFmpeg's interrupt callback: non-zero ends the blocking call under way
/// (`AVERROR_EXIT`). `opaque` is the watch, kept alive by the reader thread
/// while its contexts are open.
private let streamInterrupted: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<StreamWatch>.fromOpaque(opaque).takeUnretainedValue().interrupted() ? 1 : 0
}

/// The context's `io_open`: its `opaque` is the watch (set by `watch`).
private let watchedOpen: StreamWatch.IOOpen = { context, io, url, flags, options in
    guard let opaque = context?.pointee.opaque else { return interlude_averror_exit() }
    return Unmanaged<StreamWatch>.fromOpaque(opaque).takeUnretainedValue().open(context, io, url, flags, options)
}
