import LoopIO
import Core
import Glibc
@testable import Interlude
import PlayerModel
import TestSupport
import Testing

/// A `LoopSource` is polled in the runtime's own wait and gets the events on
/// its descriptors; what it performs goes through the one dispatcher.
@Suite(.serialized) struct LoopSourceTests {
    /// A pipe: one byte in it asks for a volume change.
    final class PipeSource: LoopSource {
        let readEnd: Int32
        let writeEnd: Int32
        private(set) var seen: [LoopPollRequest] = []
        private(set) var turns = 0
        private(set) var results: [CommandResult] = []

        init() throws {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            (readEnd, writeEnd) = (fds[0], fds[1])
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        // The write end asks for POLLOUT, which an empty pipe always has.
        var pollRequests: [LoopPollRequest] {
            [LoopPollRequest(fd: readEnd), LoopPollRequest(fd: writeEnd, events: Int16(POLLOUT))]
        }

        func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
            turns += 1
            seen += ready
            if ready.contains(where: { $0.fd == readEnd }) {
                var byte: UInt8 = 0
                _ = read(readEnd, &byte, 1)
                results.append(core.perform(.setVolume(0.25)))
            }
        }
    }

    final class Host: PlayerHost {
        let sources: [LoopSource]
        init(_ sources: [LoopSource]) { self.sources = sources }
        func handleSignal(_ number: Int32) -> Bool { false }
        func afterIteration() {}
        var maximumWaitMilliseconds: Int? { nil }
        var keepsRunningWhenQueueEnds: Bool { false }
        var loopSources: [LoopSource] { sources }
    }

    @Test("a source's descriptors are polled with the events it asked for, and its command reaches the dispatcher")
    func aSourceIsPolledAndPerforms() throws {
        let stream = PlayerEventStream()
        stream.writesErrorsToStandardError = false
        var events: [PlayerEvent] = []
        stream.subscribe { events.append($0.event) }
        let file = try Fixtures.mp3(.sweep, seconds: 1)
        let runtime = try #require(PlayerRuntime.open(configuration: .init(output: .null), paths: [file],
                                                      events: stream, signals: SignalChannel([])))
        let source = try PipeSource()
        var byte: UInt8 = 1
        #expect(write(source.writeEnd, &byte, 1) == 1)
        _ = runtime.run(host: Host([source]))

        #expect(source.results == [.done])
        #expect(source.seen.filter { $0.fd == source.readEnd }.count == 1)
        #expect(source.seen.contains { $0.fd == source.readEnd && $0.events & Int16(POLLIN) != 0 })
        #expect(source.seen.contains { $0.fd == source.writeEnd && $0.events & Int16(POLLOUT) != 0 })
        // Serviced every turn, not only when something was ready.
        #expect(source.turns > source.seen.filter { $0.fd == source.readEnd }.count)
        #expect(events.contains(.volume(0.25)))
        #expect(runtime.volume == 0.25)
    }
}
