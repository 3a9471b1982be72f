import PlayerModel
import BookFormat
import InterludeCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The lyrics pane's lyrics found off the main loop (a `LoopSource`): each
/// file's `NAME.lrc` (else its tags) read on a thread of its own, one at a
/// time, and handed back through an eventfd, as the cover art's pictures are
/// (`CoverArtView`). Only the lyrics of the file asked for last are handed on:
/// a result for a file the player has left meanwhile is dropped, and the newest
/// request waits for the one running (those between are dropped).
final class LyricsLoader: LoopSource {
    /// How lyrics are found: `Lyrics.find` in the player; a test gives its own.
    typealias Find = @Sendable (_ audioPath: String, _ tags: AudioTags) -> Lyrics?

    /// What the thread hands back.
    final class Shared: Sendable {
        private let posted = ThreadMailbox<(path: String, lyrics: Lyrics?)?>()

        var wake: Int32 { posted.wake }

        func post(_ path: String, _ lyrics: Lyrics?) { posted.post { $0 = (path, lyrics) } }

        func take() -> (path: String, lyrics: Lyrics?)? { posted.take() }
    }

    /// Called on the main loop with the lyrics of the file asked for last.
    var onLoaded: (_ path: String, _ lyrics: Lyrics?) -> Void = { _, _ in }
    /// The file whose lyrics were asked for last.
    private(set) var requested: String?

    private let find: Find
    private let shared = Shared()
    private var running = false
    private var waiting: (path: String, tags: AudioTags)?

    init(find: @escaping Find = { Lyrics.find(audioPath: $0, tags: $1) }) {
        self.find = find
    }

    /// Asks for `path`'s lyrics; `onLoaded` brings them once found.
    func request(_ path: String, tags: AudioTags) {
        requested = path
        if running { waiting = (path, tags) } else { start(path, tags: tags) }
    }

    /// Asks for nothing for `path` (a station, or nil: nothing playing): no
    /// lyrics are read for it, and what is running is dropped when it comes.
    func skip(_ path: String?) {
        requested = path
        waiting = nil
    }

    private func start(_ path: String, tags: AudioTags) {
        running = true
        waiting = nil
        let (shared, find) = (self.shared, self.find)
        if let failure = BackgroundThread.start({ shared.post(path, find(path, tags)) }) {
            shared.post(path, Lyrics(content: .unsynced([]), source: "lyrics",
                                     problem: "lyrics: cannot start their thread (\(failure.message))"))
        }
    }

    var pollRequests: [LoopPollRequest] { shared.wake >= 0 ? [LoopPollRequest(fd: shared.wake)] : [] }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        deliver()
    }

    /// Takes what the thread posted: handed on when it is still the file asked
    /// for, dropped otherwise; then starts the request that waited, if any.
    func deliver() {
        guard let (path, lyrics) = shared.take() else { return }
        running = false
        if let waiting { start(waiting.path, tags: waiting.tags) }
        if path == requested { onLoaded(path, lyrics) }
    }
}
