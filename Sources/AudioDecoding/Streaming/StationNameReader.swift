import InterludeCore
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// A station's name as its stream gives it, for a station added by its URL
/// alone: the `icy-name` header of the connection, else the name in the
/// stream's own tags (an Ogg stream's ORGANIZATION, an HLS station's timed
/// ID3 TRSN: `StreamMessage.stationName`). The station's reader is started
/// as for playing it (every bound of `StreamLimits` on what the server can
/// make it do), with no time-shift, and its messages taken here until a name
/// comes, the stream ends or fails, or `seconds` pass; then it is stopped.
///
/// Blocks for up to `seconds`: call it on a worker thread, never the main loop.
public enum StationNameReader {
    /// How many of the stream's first messages are read for a name: the tags
    /// come before or with the first audio (an Ogg comment header, a timed
    /// ID3 tag at each segment's start), so a few seconds of packets suffice.
    static let maximumMessages = 2_000

    public static func read(url: String, within seconds: Double) -> String? {
        // FFmpeg is loaded at first use (under the loader's lock): a station added is not yet one played.
        guard seconds > 0, StreamDecoder.loadLibraries(), let channel = try? StreamChannel() else { return nil }
        let off = TimeShiftSettings(limit: nil, memoryBudgetBytes: 0, folder: "/nonexistent")
        guard StreamReader.start(url: url, channel: channel, timeShift: off, rate: 48_000) == nil else { return nil }
        defer {
            channel.stop()
            for message in channel.take() { StreamChannel.free(message) }
        }
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let deadline = now() + seconds
        var seen = 0
        var name: String?
        var over = false
        while !over && seen < maximumMessages {
            let left = deadline - now()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: channel.wake, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1)
            // Every message taken is freed here, those after the answer too.
            for message in channel.take() {
                seen += 1
                defer { StreamChannel.free(message) }
                guard !over else { continue }
                switch message {
                case .opened(_, let headers, _, _, _):
                    if let given = ICYHeaders.parse(headers).name, !given.isEmpty { (name, over) = (given, true) }
                case .stationName(let given):
                    (name, over) = (given, true)
                case .failed, .ended:
                    over = true
                case .packet, .title, .rewound:
                    continue
                }
            }
        }
        return name
    }
}
