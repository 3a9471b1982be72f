#if canImport(Glibc)
import LoopIO
import Glibc
#endif
import CCurl
import CInterludeShims
import InterludeCore
import Synchronization

/// One GET of a feed: the validators of the last answer, for a conditional request.
package struct HTTPRequest: Sendable {
    package var url: String
    package var etag: String?
    package var lastModified: String?
    /// The most body taken: a feed of 10,000 episodes is 10-30 MB.
    package var bodyLimit = 64 << 20
    /// The whole transfer's deadline, in seconds (`TransferTimeout`).
    package var timeout: Double
    /// The headers are what is asked for: a body past `bodyLimit` ends the
    /// transfer with what came (a station's stream never ends by itself).
    package var headersOnly = false

    package init(url: String, etag: String? = nil, lastModified: String? = nil, bodyLimit: Int = 64 << 20,
                 timeout: Double = TransferTimeout.seconds) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.bodyLimit = bodyLimit
        self.timeout = timeout
    }
}

/// What a server answered, after redirects.
package struct HTTPResponse: Sendable {
    package var status: Int
    /// The URL the answer came from.
    package var finalURL: String
    /// `finalURL` when every redirect on the way was permanent (301 or 308): the subscription moves there.
    package var permanentURL: String?
    /// The last response's headers, names in lower case.
    package var headers: [String: String]
    package var body: [UInt8]
}

/// A transfer that got no answer, in libcurl's words (or why it was cut off).
package struct HTTPFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    package init(message: String) { self.message = message }
}

/// libcurl's multi interface over a list of requests, at most `parallel` at
/// once, on the calling thread (never the player's main loop: the command
/// line's own thread, or a refresh's thread). Each answer is handed to `done`
/// as it comes, with the request's index.
package enum HTTPFetcher {
    package static let userAgent = "Interlude (podcasts)"

    package static func loadLibrary() throws(HTTPFetchError) {
        var message = [CChar](repeating: 0, count: 256)
        if interlude_curl_load(&message, message.count) != 0 {
            throw HTTPFetchError(message: "cannot load libcurl (" + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + ")")
        }
    }

    package static func fetch(_ requests: [HTTPRequest], parallel: Int,
                      done: (Int, Result<HTTPResponse, HTTPFetchError>) -> Void) throws(HTTPFetchError) {
        try loadLibrary()
        guard let multi = interlude_curl_multi_new() else { throw HTTPFetchError(message: "libcurl could not start (out of memory)") }
        defer { interlude_curl_multi_free(multi) }
        let caFile = getenv("SSL_CERT_FILE").map { String(cString: $0) }
        var next = 0
        var running = 0
        let bound = max(1, parallel)
        while next < requests.count || running > 0 {
            while running < bound && next < requests.count {
                let index = next
                next += 1
                let request = requests[index]
                guard let transfer = interlude_curl_transfer_new(request.url, request.bodyLimit, caFile, userAgent, index) else {
                    done(index, .failure(HTTPFetchError(message: "out of memory")))
                    continue
                }
                interlude_curl_transfer_deadline(transfer, request.timeout, 0)
                if let etag = request.etag { _ = interlude_curl_transfer_header(transfer, "If-None-Match: " + etag) }
                if let modified = request.lastModified { _ = interlude_curl_transfer_header(transfer, "If-Modified-Since: " + modified) }
                if interlude_curl_multi_add(multi, transfer) != 0 {
                    interlude_curl_transfer_free(transfer)
                    done(index, .failure(HTTPFetchError(message: "libcurl refused the transfer")))
                    continue
                }
                running += 1
            }
            _ = interlude_curl_multi_step(multi, 1000)
            while let transfer = interlude_curl_multi_done(multi) {
                running -= 1
                let index = Int(interlude_curl_transfer_tag(transfer))
                _ = interlude_curl_multi_remove(multi, transfer)
                let outcome = result(of: transfer, request: requests[index])
                interlude_curl_transfer_free(transfer)
                done(index, outcome)
            }
        }
    }

    private static func result(of transfer: OpaquePointer, request: HTTPRequest) -> Result<HTTPResponse, HTTPFetchError> {
        let cut = interlude_curl_transfer_over_limit(transfer) != 0
        if cut && !request.headersOnly {
            return .failure(HTTPFetchError(message: "the answer is larger than \(request.bodyLimit >> 20) MB, more than a feed holds"))
        }
        if interlude_curl_transfer_timed_out(transfer) != 0 {
            let received = max(0, interlude_curl_transfer_received(transfer))
            return .failure(HTTPFetchError(message: "no whole answer within \(TransferTimeout.words(request.timeout)) "
                                           + "(\(received) bytes came; podcast-timeout in the config)"))
        }
        guard cut || interlude_curl_transfer_result(transfer) == 0 else {
            return .failure(HTTPFetchError(message: String(cString: interlude_curl_transfer_message(transfer))))
        }
        var length = 0
        var body: [UInt8] = []
        if let bytes = interlude_curl_transfer_body(transfer, &length), length > 0 {
            body = Array(UnsafeBufferPointer(start: bytes, count: length))
        }
        var headerLength = 0
        let headerText = interlude_curl_transfer_headers(transfer, &headerLength).map { String(cString: $0) } ?? ""
        let blocks = headerBlocks(headerText)
        let finalURL = interlude_curl_transfer_final_url(transfer).map { String(cString: $0) } ?? ""
        let redirects = blocks.dropLast().map(\.status).filter { (300..<400).contains($0) }
        let permanent = !redirects.isEmpty && redirects.allSatisfy { $0 == 301 || $0 == 308 }
        return .success(HTTPResponse(status: Int(interlude_curl_transfer_status(transfer)), finalURL: finalURL,
                                     permanentURL: permanent ? finalURL : nil, headers: blocks.last?.headers ?? [:], body: body))
    }

    /// Each response's status and headers, in the order they came (redirects first).
    package static func headerBlocks(_ text: String) -> [(status: Int, headers: [String: String])] {
        var blocks: [(status: Int, headers: [String: String])] = []
        // "\r\n" is one Character in Swift: split on either.
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if line.hasPrefix("HTTP/") {
                let words = line.split(separator: " ")
                let status = words.count > 1 ? Int(words[1]) ?? 0 : 0
                // 100 Continue is no response of its own.
                if (100..<200).contains(status) { continue }
                blocks.append((status, [:]))
            } else if let colon = line.firstIndex(of: ":"), !blocks.isEmpty {
                let name = line[..<colon].lowercased()
                var value = line[line.index(after: colon)...]
                while value.first == " " || value.first == "\t" { value = value.dropFirst() }
                blocks[blocks.count - 1].headers[name] = String(value)
            }
        }
        return blocks
    }
}

extension HTTPFetcher {
    package enum DownloadAnswer {
        case complete(status: Int)
        case rangeRefused
        case failed(String)
    }

    /// One GET of `url` written to `descriptor` from `offset` on (a range
    /// request when it is past 0), `progress` about every second with the
    /// bytes on disk and the whole length; `part` names the file in a line.
    /// `timeout`: the deadline, which grows by a second for every
    /// `TransferTimeout.downloadBytesPerSecond` received.
    package static func download(_ url: String, into descriptor: Int32, named part: String, from offset: Int64, largest: Int64,
                                 timeout: Double = TransferTimeout.seconds, progress: (Int64, Int64?) -> Void) -> DownloadAnswer {
        guard let multi = interlude_curl_multi_new() else { return .failed("libcurl could not start (out of memory)") }
        defer { interlude_curl_multi_free(multi) }
        let caFile = getenv("SSL_CERT_FILE").map { String(cString: $0) }
        guard let transfer = interlude_curl_transfer_new(url, 0, caFile, userAgent, 0) else { return .failed("out of memory") }
        defer { interlude_curl_transfer_free(transfer) }
        interlude_curl_transfer_to_file(transfer, descriptor, offset)
        interlude_curl_transfer_deadline(transfer, timeout, Double(TransferTimeout.downloadBytesPerSecond))
        guard interlude_curl_multi_add(multi, transfer) == 0 else { return .failed("libcurl refused the transfer") }
        var lastReport = -Double.infinity
        while true {
            _ = interlude_curl_multi_step(multi, 500)
            let received = interlude_curl_transfer_received(transfer)
            let expected = interlude_curl_transfer_expected(transfer)
            if monotonicSeconds() - lastReport >= 1 {
                lastReport = monotonicSeconds()
                progress(offset + max(0, received), expected > 0 ? offset + expected : nil)
            }
            if let done = interlude_curl_multi_done(multi), done == transfer { break }
            if offset + max(0, received) > largest { interlude_curl_transfer_cancel(transfer) }
        }
        _ = interlude_curl_multi_remove(multi, transfer)
        let status = Int(interlude_curl_transfer_status(transfer))
        let result = interlude_curl_transfer_result(transfer)
        var written = stat()
        let have = fstat(descriptor, &written) == 0 ? Int64(written.st_size) : offset
        if result == 0 { return .complete(status: status) }
        // CURLE_RANGE_ERROR: a resume the server answered with the whole file; 416: nothing there to resume.
        if result == 33 || status == 416 { return .rangeRefused }
        let failedWrite = interlude_curl_transfer_write_failed(transfer)
        if failedWrite != 0 {
            return .failed("\(part): \(String(cString: strerror(failedWrite))) after \(EpisodeDownload.megabytes(have)); "
                           + "the partial download is kept and resumed next time")
        }
        if have > largest { return .failed("\(url): larger than \(largest >> 30) GB, more than an episode holds") }
        if interlude_curl_transfer_timed_out(transfer) != 0 {
            let allowed = timeout + Double(max(0, interlude_curl_transfer_received(transfer))) / Double(TransferTimeout.downloadBytesPerSecond)
            return .failed("\(url): cut off after \(EpisodeDownload.megabytes(have)) (slower than "
                           + "\(TransferTimeout.downloadBytesPerSecond >> 10) KB a second: not done within \(TransferTimeout.words(allowed))); "
                           + "the partial download is kept and resumed next time")
        }
        let reason = String(cString: interlude_curl_transfer_message(transfer))
        return .failed("\(url): cut off after \(EpisodeDownload.megabytes(have)) (\(reason)); the partial download is kept and resumed next time")
    }
}

/// How long a podcast's transfer may take in all (`podcast-timeout`),
/// beside libcurl's low-speed limit (1 byte a second over 30 s), which a
/// server that trickles its answer never trips. A feed's fetch must end
/// within it: 2 minutes by default, where a feed of 10,000 episodes (30 MB)
/// takes 10 s at 3 MB/s and a typical one of 1 MB under a second. An
/// episode's download is far larger (50-500 MB) and resumable, so its
/// deadline grows with what arrives: the timeout plus a second for every
/// 16 KB received, so a download averaging 16 KB/s (128 kbit/s, an
/// episode's own bit rate) or more never meets it, and a trickle is cut
/// after about the timeout, its part kept for the next try. Set once at
/// start-up (`use`); read as each transfer starts.
package enum TransferTimeout {
    package static let standard: Double = 120
    package static let downloadBytesPerSecond = 16 << 10
    private static let chosen = Mutex<Double?>(nil)

    /// The deadline every transfer started from now on has (the config's, at start-up).
    package static func use(_ seconds: Double) { chosen.withLock { $0 = seconds } }

    package static var seconds: Double { chosen.withLock { $0 } ?? standard }

    /// "2m", "90 s", "1.5 s".
    package static func words(_ seconds: Double) -> String {
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
        if seconds == seconds.rounded() { return "\(Int(seconds)) s" }
        return "\((seconds * 10).rounded() / 10) s"
    }
}
