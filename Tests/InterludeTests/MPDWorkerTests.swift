import RemoteControl
import BookFormat
import Dispatch
import Foundation
import Glibc
@testable import Interlude
import PlayerModel
import Synchronization
import Testing

/// The MPD front end's reads of the disk (the library index,
/// albumart and readpicture) run off the main loop. A job that blocks until
/// the test lets it go (as a read from a slow disk would) leaves the caller,
/// the main loop in the player, free; its result comes through the eventfd.
@Suite struct MPDWorkerTests {
    @Test func aReadRunsOnAnotherThreadAndComesBackThroughTheEventfd() {
        let worker = MPDWorker()
        #expect(worker.isUsable)
        let gate = DispatchSemaphore(value: 0)
        let ranOn = Mutex<pthread_t?>(nil)
        worker.run {
            ranOn.withLock { $0 = pthread_self() }
            // Bounded, so a worker that ran the job on the caller's thread fails instead of hanging the run.
            _ = gate.wait(timeout: .now() + 60)
            return .diskReply(ticket: 7, .failure(MPDFailure(.noExist, "No file exists", command: "albumart")))
        }
        // Here while the job waits: nothing has come back.
        #expect(!Self.readable(worker.wake, milliseconds: 50))
        #expect(worker.take().isEmpty)
        gate.signal()
        #expect(Self.readable(worker.wake, milliseconds: 10_000))
        let finished = worker.take()
        #expect(finished.count == 1)
        if case .diskReply(let ticket, .failure(let failure)) = finished.first {
            #expect(ticket == 7 && failure.message == "No file exists")
        } else {
            Issue.record("not the job's result: \(finished)")
        }
        #expect(ranOn.withLock { $0.map { pthread_equal($0, pthread_self()) == 0 } } == true)
    }

    @Test func readpicturesTagsAreKeptForTheLastFilesOnly() throws {
        let folder = "/tmp/interlude-mpd-worker-\(getpid())"
        mkdir(folder, 0o700)
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let tags = RecentTags(capacity: 8)
        let paths = (0..<12).map { "\(folder)/\($0).mp3" }
        for path in paths {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([0x49, 0x44, 0x33])))
            #expect(tags.tags(of: path) == AudioTags.read(path: path))
        }
        #expect(tags.count == 8)
        // A file asked for again is not kept twice.
        _ = tags.tags(of: paths[0])
        _ = tags.tags(of: paths[0])
        #expect(tags.count == 8)
    }

    private static func readable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, milliseconds) == 1
    }
}
