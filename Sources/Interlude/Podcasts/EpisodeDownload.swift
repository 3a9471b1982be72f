#if canImport(Glibc)
import Glibc
#endif
import CCurl
import InterludeCore
import Podcasts

/// An episode's download: its enclosure fetched into `EPISODE.EXT.part`
/// (`EpisodeFiles`) on the calling thread, never the player's main loop (the
/// command line's own process), renamed to `EPISODE.EXT` once whole. A
/// part left by a cut-off connection, a full disk, a crash or `kill -9` is
/// kept, and the next download asks for the rest with a range request
/// (libcurl's resume: 206 appends; a server that ignores ranges sends the
/// whole file again, written from the start).
struct EpisodeDownload {
    let url: String
    let destination: String
    var part: String { EpisodeFiles.part(of: destination) }
    /// Called about every second with the bytes on disk and the whole length (nil: unknown).
    var progress: (Int64, Int64?) -> Void = { _, _ in }

    /// The largest enclosure taken: 4 GB, beyond any episode's audio.
    static let largest: Int64 = 4 << 30

    enum Outcome: Equatable {
        case downloaded(bytes: Int64)
        case already
    }

    /// One line naming the URL or the file when it fails; the part is kept.
    func run() throws(HTTPFetchError) -> Outcome {
        if StateFile.isReadableFile(destination) { return .already }
        try HTTPFetcher.loadLibrary()
        let folder = String(destination[..<(destination.lastIndex(of: "/") ?? destination.endIndex)])
        do { try StateFile.makeDirectories(folder) } catch { throw HTTPFetchError(message: error.description) }
        var attempt = 0
        while true {
            attempt += 1
            let descriptor = open(part, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw HTTPFetchError(message: "\(part): \(String(cString: strerror(errno)))") }
            let offset = Int64(lseek(descriptor, 0, SEEK_END))
            let answer = transfer(into: descriptor, from: max(0, offset))
            let synced = fsync(descriptor) == 0
            close(descriptor)
            switch answer {
            case .complete(let status):
                guard (200..<300).contains(status) else {
                    throw HTTPFetchError(message: "\(url): the server answered HTTP \(status) (the \(Self.megabytes(offset)) downloaded are kept)")
                }
                guard synced, rename(part, destination) == 0 else {
                    throw HTTPFetchError(message: "\(destination): \(String(cString: strerror(errno)))")
                }
                return .downloaded(bytes: fileSize(destination))
            case .rangeRefused where attempt == 1:
                // The part cannot be continued: the whole file, from its start.
                _ = truncate(part, 0)
            case .rangeRefused:
                throw HTTPFetchError(message: "\(url): the server refuses the range asked for")
            case .failed(let message):
                throw HTTPFetchError(message: message)
            }
        }
    }

    private enum Answer {
        case complete(status: Int)
        case rangeRefused
        case failed(String)
    }

    private func transfer(into descriptor: Int32, from offset: Int64) -> Answer {
        guard let multi = interlude_curl_multi_new() else { return .failed("libcurl could not start (out of memory)") }
        defer { interlude_curl_multi_free(multi) }
        let caFile = getenv("SSL_CERT_FILE").map { String(cString: $0) }
        guard let transfer = interlude_curl_transfer_new(url, 0, caFile, HTTPFetcher.userAgent, 0) else { return .failed("out of memory") }
        defer { interlude_curl_transfer_free(transfer) }
        interlude_curl_transfer_to_file(transfer, descriptor, offset)
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
            if offset + max(0, received) > Self.largest { interlude_curl_transfer_cancel(transfer) }
        }
        _ = interlude_curl_multi_remove(multi, transfer)
        let status = Int(interlude_curl_transfer_status(transfer))
        let result = interlude_curl_transfer_result(transfer)
        let have = fileSize(part)
        if result == 0 { return .complete(status: status) }
        // CURLE_RANGE_ERROR: a resume the server answered with the whole file; 416: nothing there to resume.
        if result == 33 || status == 416 { return .rangeRefused }
        let written = interlude_curl_transfer_write_failed(transfer)
        if written != 0 {
            return .failed("\(part): \(String(cString: strerror(written))) after \(Self.megabytes(have)); "
                           + "the partial download is kept and resumed next time")
        }
        if have > Self.largest { return .failed("\(url): larger than \(Self.largest >> 30) GB, more than an episode holds") }
        let reason = String(cString: interlude_curl_transfer_message(transfer))
        return .failed("\(url): cut off after \(Self.megabytes(have)) (\(reason)); the partial download is kept and resumed next time")
    }

    private func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// "12.3 MB".
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = max(0, bytes) * 10 / 1_000_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// What `podcast list` shows of an episode's download: nil when there is none.
    static func state(of destination: String, length: Int64) -> String? {
        var info = stat()
        if stat(destination, &info) == 0 { return "downloaded" }
        guard stat(EpisodeFiles.part(of: destination), &info) == 0 else { return nil }
        let have = Int64(info.st_size)
        if length > 0 { return "downloading \(min(99, have * 100 / length))%" }
        return "downloading \(megabytes(have))"
    }
}
