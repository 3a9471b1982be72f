import BookFormat
import Dispatch
import Glibc
import Synchronization
@testable import Interlude
import Testing

/// The lyrics pane's `NAME.lrc` is read off the main loop. The
/// loader is given a reader that blocks until the test lets it go (as a
/// read from a slow disk or a hung network mount would): the caller, the
/// main loop in the player, gets control back while it is blocked, the read
/// runs on another thread, and the result comes through the loader's eventfd.
@Suite struct LyricsLoaderTests {
    /// A reader for the loader: each call records its thread and file, then
    /// blocks until `release` is called for that file.
    final class BlockedReader: Sendable {
        private let gates: [String: DispatchSemaphore]
        private let called = DispatchSemaphore(value: 0)
        private let seen = Mutex<[(path: String, thread: pthread_t)]>([])

        init(_ paths: [String]) {
            gates = Dictionary(uniqueKeysWithValues: paths.map { ($0, DispatchSemaphore(value: 0)) })
        }

        var find: LyricsLoader.Find {
            { path, _ in
                self.seen.withLock { $0.append((path, pthread_self())) }
                self.called.signal()
                // Bounded, so a loader that read on the caller's thread fails instead of hanging the run.
                let released = self.gates[path]?.wait(timeout: .now() + 60) == .success
                return Lyrics(content: .unsynced([released ? "words of \(path)" : "never released"]), source: path)
            }
        }

        func release(_ path: String) { gates[path]?.signal() }
        /// Waits until the reader has been called once more.
        func waitForCall() -> Bool { called.wait(timeout: .now() + 60) == .success }
        var calls: [(path: String, thread: pthread_t)] { seen.withLock { $0 } }
    }

    /// Waits for the loader's eventfd, as the runtime's poll does, then lets it deliver.
    static func serviceWhenReady(_ loader: LyricsLoader) -> Bool {
        guard let request = loader.pollRequests.first else { return false }
        var descriptor = pollfd(fd: request.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 60_000) == 1 else { return false }
        loader.deliver()
        return true
    }

    static func isReadable(_ loader: LyricsLoader) -> Bool {
        guard let request = loader.pollRequests.first else { return false }
        var descriptor = pollfd(fd: request.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test("the lyrics are read on another thread: the caller goes on while the read blocks, and they come through the eventfd")
    func readOffTheCallersThread() throws {
        let reader = BlockedReader(["/music/a.mp3"])
        let loader = LyricsLoader(find: reader.find)
        var loaded: [(String, Lyrics?)] = []
        loader.onLoaded = { loaded.append(($0, $1)) }
        let caller = pthread_self()

        loader.request("/music/a.mp3", tags: AudioTags())
        // Here the read is blocked until released below: had it run on this
        // thread, `request` would have returned only after its 60 s, with "never released".
        #expect(reader.waitForCall())
        #expect(!Self.isReadable(loader), "nothing is handed back while the read is blocked")
        #expect(loaded.isEmpty)
        let call = try #require(reader.calls.first)
        #expect(pthread_equal(call.thread, caller) == 0, "the read ran on the caller's thread")

        reader.release("/music/a.mp3")
        #expect(Self.serviceWhenReady(loader))
        #expect(loaded.map(\.0) == ["/music/a.mp3"])
        #expect(loaded.first?.1?.content == .unsynced(["words of /music/a.mp3"]))
    }

    @Test("a result for a file the player has left meanwhile is dropped; the newest request is read next")
    func staleResultIsDropped() throws {
        let reader = BlockedReader(["/music/a.mp3", "/music/b.mp3", "/music/c.mp3"])
        let loader = LyricsLoader(find: reader.find)
        var loaded: [String] = []
        loader.onLoaded = { path, _ in loaded.append(path) }

        loader.request("/music/a.mp3", tags: AudioTags())
        #expect(reader.waitForCall())
        // Two more tracks while a's read is blocked: b is dropped before it is read, c waits.
        loader.request("/music/b.mp3", tags: AudioTags())
        loader.request("/music/c.mp3", tags: AudioTags())
        reader.release("/music/a.mp3")
        #expect(Self.serviceWhenReady(loader))
        #expect(loaded.isEmpty, "a's lyrics were shown for c")
        #expect(reader.waitForCall())
        reader.release("/music/c.mp3")
        #expect(Self.serviceWhenReady(loader))
        #expect(loaded == ["/music/c.mp3"])
        #expect(reader.calls.map(\.path) == ["/music/a.mp3", "/music/c.mp3"])
    }

    @Test("a station after a file: the file's lyrics, read meanwhile, are dropped")
    func skippedFileDropsItsResult() throws {
        let reader = BlockedReader(["/music/a.mp3"])
        let loader = LyricsLoader(find: reader.find)
        var loaded: [String] = []
        loader.onLoaded = { path, _ in loaded.append(path) }
        loader.request("/music/a.mp3", tags: AudioTags())
        #expect(reader.waitForCall())
        loader.skip("http://radio.example/stream")
        reader.release("/music/a.mp3")
        #expect(Self.serviceWhenReady(loader))
        #expect(loaded.isEmpty)
        #expect(loader.requested == "http://radio.example/stream")
    }
}
