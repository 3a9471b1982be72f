import BookFormat
import InterludeCore
import MusicLibrary
import PlayerModel
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The MPD front end's reads of the disk: the library index's tracks (the
/// first database command after a scan reads 100,000 rows) and the files
/// `albumart` and `readpicture` send chunk after chunk. Each runs on a thread
/// of its own (`BackgroundThread`, as the podcasts' work does), so keys,
/// playback, alarms and other clients are served meanwhile; what it found
/// comes back through an eventfd the main loop polls (`MPDServer`). The
/// client that asked reads no further request until its reply is sent, so
/// each client's replies keep their order.
package final class MPDWorker: Sendable {
    package enum Finished: Sendable {
        /// The index's tracks as MPD's clients see them, read when its files had `stamp` (`MPDDatabase.stamp`).
        case library(stamp: [Int], Result<MPDLibraryView, MPDFailure>)
        /// The reply, read from the disk, to the request numbered `ticket` (a picture, a folder's listing).
        case diskReply(ticket: Int, Result<MPDResponse, MPDFailure>)
    }

    private let finished = ThreadMailbox<[Finished]>()
    /// `readpicture`'s tags of the files it read last.
    package let recentTags = RecentTags(capacity: 8)

    package init() {}

    /// Readable when something finished.
    package var wake: Int32 { finished.wake }

    /// Whether results can reach the main loop: without the eventfd the work is done there, as before.
    package var isUsable: Bool { finished.isUsable }

    /// `work` on a thread of its own; on the calling one when no thread can be started.
    package func run(_ work: @escaping @Sendable () -> Finished) {
        if BackgroundThread.start({ [finished] in finished.post(work()) }) != nil { finished.post(work()) }
    }

    /// What finished since the last call.
    package func take() -> [Finished] { finished.take() }
}

/// The tags of the files read last, at most `capacity` of them: a client
/// reads a picture in chunks of 8 KB, each a request naming the file again,
/// and one walking a library's covers must not keep every file's tags, as
/// the player's `TrackTagStore` (the queue's files' tags, read once) did
/// when these requests went through it.
package final class RecentTags: Sendable {
    private let capacity: Int
    private let entries = Mutex<[(path: String, tags: AudioTags)]>([])

    package init(capacity: Int) { self.capacity = capacity }

    package func tags(of path: String) -> AudioTags {
        let known = entries.withLock { list -> AudioTags? in
            guard let index = list.firstIndex(where: { $0.path == path }) else { return nil }
            let entry = list.remove(at: index)
            list.append(entry)
            return entry.tags
        }
        if let known { return known }
        let read = AudioTags.read(path: path)
        entries.withLock { list in
            list.removeAll { $0.path == path }
            list.append((path, read))
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
        return read
    }

    package var count: Int { entries.withLock { $0.count } }
}
