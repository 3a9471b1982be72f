/// What a station's server may make the player's reader do, from
/// `stream-timeout` (`StreamLimits`), and when the reader gives it up
/// (`StreamBounds`). FFmpeg's own bounds leave gaps a server can hold open
/// (measured against Debian 12's FFmpeg 5.1):
///
/// - its read timeout (`rw_timeout`) fires only when no byte comes, so
///   headers sent without end keep the open going for ever: one endless
///   line is read a byte at a time (80-95% of a core), many `icy-*` lines
///   are appended into one string, each append copying all before it;
///   http.c has no limit on headers, and nothing of what it reads reaches
///   the interrupt callback, which runs before each read of the socket
///   (at most 8 KB, or a TLS record of 16 KB) and every 100 ms while it
///   waits. So a request (connecting, TLS, the request and every header
///   line, redirects included) gets a deadline and a budget of the reader
///   thread's CPU time: a station's headers take microseconds to parse
///   and a TLS handshake a few milliseconds, so half a second of work on one
///   request's headers is a server sending them without end, and bounds
///   what FFmpeg gathers from them (1.5 MB more than a 404 measured, at 0.6 s of CPU);
/// - an open has no deadline, nor a read that gets bytes but no packet (a
///   body trickled, a live playlist that stopped moving): audio that does
///   not come for twice the request's time ends the connection;
/// - HLS (its demuxer) skips a segment that cannot be opened and reloads
///   the playlist, decrypts with a key of zeros when the key is refused,
///   and reads the garbage it makes, requesting a playlist and a segment
///   a second for ever: after a request that failed, a few more may be
///   made to bring audio, then the stream ends naming the URL that failed;
/// - FFmpeg's http reopens a connection the server closed, silently, once
///   per read: a server that closes each connection after a few bytes was
///   requested 1,500 times a second for as long as the open lasted. A few
///   such reopenings in a short while end the connection (the player's own
///   reconnection, with its backoff, follows a drop after audio).
///
/// Pure logic on times the reader gives it (monotonic seconds and the
/// thread's CPU seconds), one per reader thread.
public struct StreamLimits: Sendable, Equatable {
    /// `stream-timeout`: connecting and the headers of each request (the
    /// station's, each playlist, key and segment of HLS).
    public var requestSeconds: Double
    /// The reader's CPU time one request may take (TLS and the headers).
    public var requestCPUSeconds = 0.5
    /// Requests made after one failed, none bringing audio, before the stream is given up.
    public var requestsAfterFailure = 8
    /// FFmpeg's silent reopenings of the connection allowed within `reopeningSeconds`.
    public var reopenings = 4
    public var reopeningSeconds = 10.0

    /// Audio that does not come for this long ends the connection (the
    /// open's probe of the first 16-64 KB included: 16 s of a 32 kbit/s
    /// station that sends no burst at 15 s).
    public var audioSeconds: Double { requestSeconds * 2 }

    public init(requestSeconds: Double) { self.requestSeconds = requestSeconds }

    /// 15 s: a connection across the world and a server slow to start its answer take a few seconds.
    public static let standard = StreamLimits(requestSeconds: 15)
}

public struct StreamBounds: Sendable {
    public let limits: StreamLimits
    /// The station's URL: a line names another URL, not this one (the player's line starts with it).
    public let stationURL: String
    /// The request under way: its URL, when it started, the thread's CPU time then.
    private var request: (url: String, started: Double, cpu: Double)?
    /// Since when audio is awaited (an open, a read of the stream); nil while the reader does other things.
    private var awaitingSince: Double?
    /// The first request that failed since audio last came, and how many were made after it.
    private var failure: (url: String, reason: String, since: Int)?
    /// FFmpeg's reopenings counted so far, and when the latest ones were seen.
    private var reopeningsSeen = 0
    private var reopenedAt: [Double] = []
    /// Why the stream is given up (the detail after the station's URL); once set, it stays.
    public private(set) var verdict: String?

    public init(stationURL: String, limits: StreamLimits) {
        self.stationURL = stationURL
        self.limits = limits
    }

    /// Whether the thread's CPU time is wanted by `check` (a request is under way).
    public var measuresWork: Bool { request != nil }

    /// A request is about to be made; false (with the verdict) when the stream is given up already or by this one.
    public mutating func requestStarting(url: String, now: Double, cpu: Double) -> Bool {
        guard verdict == nil else { return false }
        if var failed = failure {
            failed.since += 1
            failure = failed
            if failed.since > limits.requestsAfterFailure {
                verdict = "\(failed.url) could not be fetched (\(failed.reason)), and the \(limits.requestsAfterFailure) "
                    + "requests after it brought no audio"
                return false
            }
        }
        request = (url, now, cpu)
        return true
    }

    /// The request ended: opened (nil) or failed with FFmpeg's reason. The
    /// first failure since audio last came is the one counted from and named.
    public mutating func requestEnded(failure reason: String?) {
        if let reason, let url = request?.url, failure == nil { failure = (url, reason, 0) }
        request = nil
    }

    /// The reader waits for audio from now (an open, a read), unless it waits already.
    public mutating func awaitingAudio(now: Double) {
        if awaitingSince == nil { awaitingSince = now }
    }

    /// A packet of audio came: the waits start over, and a failure before it is forgiven.
    public mutating func audioArrived() {
        awaitingSince = nil
        failure = nil
    }

    /// FFmpeg has reopened the connection `total` times in all so far (its
    /// log's count); more than `reopenings` of them within
    /// `reopeningSeconds` give the stream up.
    public mutating func reopened(total: Int, now: Double) {
        guard total > reopeningsSeen else { return }
        reopenedAt += Array(repeating: now, count: min(total - reopeningsSeen, limits.reopenings + 1))
        reopeningsSeen = total
        reopenedAt.removeAll { now - $0 > limits.reopeningSeconds }
        if reopenedAt.count > limits.reopenings, verdict == nil {
            verdict = "the server ends each connection at once (reopened \(reopenedAt.count) times in "
                + "\(Self.words(limits.reopeningSeconds)))"
        }
        if reopenedAt.count > limits.reopenings + 1 { reopenedAt.removeFirst(reopenedAt.count - limits.reopenings - 1) }
    }

    /// FFmpeg's interrupt check: true when the call under way is to end,
    /// the verdict set. `cpu` is read only while `measuresWork`.
    public mutating func check(now: Double, cpu: () -> Double) -> Bool {
        if verdict != nil { return true }
        if let request {
            let named = request.url == stationURL ? "" : "\(request.url): "
            if now - request.started > limits.requestSeconds {
                verdict = "\(named)no answer within \(Self.words(limits.requestSeconds)) (connecting and the server's headers)"
            } else if cpu() - request.cpu > limits.requestCPUSeconds {
                verdict = "\(named)the server's headers do not end (cut off after \(Self.words(limits.requestCPUSeconds)) of reading them)"
            }
        }
        if verdict == nil, let since = awaitingSince, now - since > limits.audioSeconds {
            verdict = "no audio from the server for \(Self.words(limits.audioSeconds))"
        }
        return verdict != nil
    }

    /// "15 s", "0.5 s".
    static func words(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds)) s" : "\((seconds * 10).rounded() / 10) s"
    }
}
