import PlayerModel
import Glibc

/// The descriptors of one `poll` of the main loop: the loop's own first (the
/// signalfd, the timerfds), then each `LoopSource`'s requests in the order the
/// sources are serviced. One set lives as long as the loop and is filled
/// again before every wait, so a turn allocates nothing for it: with the
/// arrays of descriptors and of events built each turn and filtered per
/// source, the loop's own work (outside the sources) was 17% of the main
/// thread's samples while it answered `status` requests back to back, 11%
/// with this set and the sources' one array (perf, 8,000 requests).
package struct LoopPollSet {
    private var entries: [pollfd] = []
    /// Where each source's requests end in `entries`, in source order.
    private var sourceEnds: [Int] = []
    /// The loop's own descriptors, the first `ownCount` entries.
    private var ownCount = 0
    private var anyReady = false

    /// Starts a new set with the loop's own descriptors, each polled for input
    /// (a negative one stays in its place, and `poll` leaves it out).
    package mutating func reset(own: Int32...) {
        entries.removeAll(keepingCapacity: true)
        sourceEnds.removeAll(keepingCapacity: true)
        for fd in own { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        ownCount = own.count
        anyReady = false
    }

    /// The next source's requests.
    package mutating func add(_ requests: [LoopPollRequest]) {
        for request in requests { entries.append(pollfd(fd: request.fd, events: request.events, revents: 0)) }
        sourceEnds.append(entries.count)
    }

    /// Waits in `poll` (-1: until something is ready).
    package mutating func wait(timeoutMilliseconds: Int) {
        let count = entries.withUnsafeMutableBufferPointer { buffer in
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), Int32(clamping: timeoutMilliseconds))
        }
        anyReady = count > 0
    }

    /// Whether the loop's own descriptor at `index` (in `reset`'s order) has events.
    package func ownIsReady(_ index: Int) -> Bool { anyReady && entries[index].revents != 0 }

    /// The events on the descriptors the source at `index` asked for (in `add`'s order).
    package func ready(forSource index: Int) -> [LoopPollRequest] {
        guard anyReady else { return [] }
        var ready: [LoopPollRequest] = []
        for entry in entries[(index == 0 ? ownCount : sourceEnds[index - 1])..<sourceEnds[index]] where entry.revents != 0 {
            ready.append(LoopPollRequest(fd: entry.fd, events: entry.revents))
        }
        return ready
    }
}
