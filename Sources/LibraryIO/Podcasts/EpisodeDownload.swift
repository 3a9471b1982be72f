#if canImport(Glibc)
import Glibc
#endif
import InterludeCore
import Podcasts

/// An episode's download: its enclosure fetched into `EPISODE.EXT.part`
/// (`EpisodeFiles`) on the calling thread, never the player's main loop (the
/// command line's own process), renamed to `EPISODE.EXT` once whole. A
/// part left by a cut-off connection, a full disk, a crash or `kill -9` is
/// kept, and the next download asks for the rest with a range request
/// (libcurl's resume: 206 appends; a server that ignores ranges sends the
/// whole file again, written from the start).
package struct EpisodeDownload {
    package let url: String
    package let destination: String
    package var part: String { EpisodeFiles.part(of: destination) }
    /// Called about every second with the bytes on disk and the whole length (nil: unknown).
    package var progress: (Int64, Int64?) -> Void = { _, _ in }

    /// The largest enclosure taken: 4 GB, beyond any episode's audio.
    package static let largest: Int64 = 4 << 30

    package enum Outcome: Equatable {
        case downloaded(bytes: Int64)
        case already
    }

    /// One line naming the URL or the file when it fails; the part is kept.
    package func run() throws(HTTPFetchError) -> Outcome {
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
            let answer = HTTPFetcher.download(url, into: descriptor, named: part, from: max(0, offset), largest: Self.largest,
                                              progress: progress)
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

    package func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// "12.3 MB".
    package static func megabytes(_ bytes: Int64) -> String {
        let tenths = max(0, bytes) * 10 / 1_000_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// What `podcast list` shows of an episode's download: nil when there is none.
    package static func state(of destination: String, length: Int64) -> String? {
        var info = stat()
        if stat(destination, &info) == 0 { return "downloaded" }
        guard stat(EpisodeFiles.part(of: destination), &info) == 0 else { return nil }
        let have = Int64(info.st_size)
        if length > 0 { return "downloading \(min(99, have * 100 / length))%" }
        return "downloading \(megabytes(have))"
    }

    package init(url: String, destination: String, progress: @escaping (Int64, Int64?) -> Void = { _, _ in }) {
        self.url = url
        self.destination = destination
        self.progress = progress
    }
}
