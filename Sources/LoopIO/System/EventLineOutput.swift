import PlayerModel
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// `--events json`'s standard output, written without ever blocking the main
/// loop: a pipe nobody reads, or a terminal whose output is stopped (Ctrl-S),
/// must not delay an alarm. Lines wait in a buffer of at most
/// `maximumPendingBytes`; when it is full, new lines are dropped and counted,
/// and once the reader has taken everything one `error` event says how many
/// went. When the reader has gone (`| head -1`: EPIPE, SIGPIPE being ignored)
/// the run ends as after SIGTERM, the book's place saved, exit status 0.
///
/// A pipe or a terminal is written through a `NonBlockingDescription` of it;
/// a socket is sent to with `MSG_DONTWAIT`; a regular file is written as it is
/// (it does not wait for a reader, and reopening it would lose `O_APPEND`).
package final class EventLineOutput: LoopSource {
    package static let maximumPendingBytes = 1 << 20
    /// At the end of the run, what waits is given this long to be read.
    package static let finalDrainMilliseconds: Int32 = 2_000

    private enum Writer { case plain, nonBlocking, socket }

    private let fd: Int32
    private let writer: Writer
    private var pending: [UInt8] = []
    private var dropped = 0
    private var readerLeft = false
    /// Why writing failed for good, other than the reader's leaving.
    private var failure: Errno?
    private var reportedFailure = false
    private var reportedReaderLeft = false
    private let report: (String) -> Void

    /// `report`: a problem for the user (an `error` event), said from the loop's turn.
    package init(report: @escaping (String) -> Void) {
        self.report = report
        switch NonBlockingDescription.kind(of: 1) {
        case .socket:
            (fd, writer) = (1, .socket)
        case .pipeOrTerminal:
            // Without /proc the writes block as before: the one case left unguarded.
            (fd, writer) = NonBlockingDescription.reopen(1).map { ($0, .nonBlocking) } ?? (1, .plain)
        case .other:
            (fd, writer) = (1, .plain)
        }
    }

    deinit { if writer == .nonBlocking { close(fd) } }

    /// Queues one line (its newline added) and writes what the descriptor takes now.
    package func write(_ line: String) {
        guard !readerLeft, failure == nil else { return }
        let bytes = Array((line + "\n").utf8)
        if pending.count + bytes.count > Self.maximumPendingBytes {
            dropped += 1
            return
        }
        pending += bytes
        flush()
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] {
        pending.isEmpty ? [] : [LoopPollRequest(fd: fd, events: Int16(POLLOUT))]
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        if !ready.isEmpty { flush() }
        if readerLeft && !reportedReaderLeft {
            reportedReaderLeft = true
            report("standard output was closed (its reader left): the run ends")
            _ = core.perform(.quit)
        }
        if let failure, !reportedFailure {
            reportedFailure = true
            report("cannot print events on standard output: \(failure.message); playback goes on")
        }
        reportDroppedOnceCaughtUp()
    }

    /// Once the reader has taken everything, one line says how many went
    /// (through `report`, so it is an event line itself, queued behind nothing).
    private func reportDroppedOnceCaughtUp() {
        guard pending.isEmpty && dropped > 0 && failure == nil && !readerLeft else { return }
        let count = dropped
        dropped = 0
        report("\(CommandReport.count(count, "event line")) \(count == 1 ? "was" : "were") not printed: standard output was not read "
               + "(\(Self.maximumPendingBytes / 1024) KB waited)")
    }

    /// At the end of the run: what waits is written, as long as the reader
    /// takes some of it within `finalDrainMilliseconds` each time, and then
    /// the count of lines dropped, which the loop's turns may not have said
    /// (the run ended with lines still waiting).
    package func finish() {
        while true {
            while !pending.isEmpty {
                var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard (try? SystemCall.retrying({ poll(&request, 1, Self.finalDrainMilliseconds) })) == 1 else { return }
                flush()
            }
            guard dropped > 0 else { return }
            reportDroppedOnceCaughtUp()
            guard !pending.isEmpty else { return }
        }
    }

    private func flush() {
        while !pending.isEmpty {
            let result = UnixSocket.outcome {
                pending.withUnsafeBytes { bytes -> Int in
                    switch writer {
                    case .socket: send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                    case .plain, .nonBlocking: Glibc.write(fd, bytes.baseAddress, bytes.count)
                    }
                }
            }
            switch result {
            case .success(let written):
                pending.removeFirst(written)
            case .failure(let error):
                if error == .wouldBlock { return }
                pending = []
                if error.code == EPIPE {
                    readerLeft = true
                } else if failure == nil {
                    // A full disk under `> file`: the events stop, the playing does not.
                    failure = error
                }
                return
            }
        }
    }
}
