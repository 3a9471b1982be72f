import AudioEngine
import InterludeCore
import PlayerModel
import Streams
#if canImport(Glibc)
import Glibc
#endif

/// A station's side of the main loop (a `LoopSource`): while the stream
/// decoding now (`TrackFeeder.liveStream`) waits for the network, its
/// reader's eventfd is polled, so the loop wakes when packets arrive rather
/// than on a refill timer; every turn its events go to a `StationSupervisor`,
/// whose reports become the player's (`streamConnected`, `streamTitle`, the
/// now-playing title in `TrackTagStore`, one `error` line a drop or a
/// reconnection attempt: "reconnecting to NAME, attempt 3"); its retries are
/// timers on the loop's clock, so keys, alarms and the socket are served
/// meanwhile. A first connection that fails is the entry's failure, one line
/// naming the URL, as a file that cannot be decoded is.
final class StreamWatch: LoopSource {
    private weak var stream: (any LiveStream)?
    private var supervisor: StationSupervisor?

    var pollRequests: [LoopPollRequest] {
        guard let stream, stream.isAwaitingData, stream.wakeDescriptor >= 0 else { return [] }
        return [LoopPollRequest(fd: stream.wakeDescriptor)]
    }

    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime) {
        let current = runtime.engine.feeder.liveStream
        if current !== stream {
            // Another entry (or none) decodes now: the old station is not tried again.
            supervisor?.cancel()
            supervisor = current.map { supervise($0, runtime: runtime) }
            stream = current
        }
        guard let stream, let supervisor else { return }
        for event in stream.takeStreamEvents() { supervisor.handle(event, from: stream) }
    }

    private func supervise(_ stream: any LiveStream, runtime: PlayerRuntime) -> StationSupervisor {
        let url = stream.url
        return StationSupervisor(url: url, clock: runtime.clock, seed: UInt64(UInt32(bitPattern: getpid()))) {
            [weak runtime, weak stream] report in
            guard let runtime else { return }
            switch report {
            case .connected(let station, let codec, _):
                runtime.streamPlayed()
                runtime.trackTags.setStation(url, title: stream?.title, name: station)
                runtime.events.emit(.streamConnected(url: url, station: station, codec: codec))
            case .title(let title, let station):
                runtime.trackTags.setStation(url, title: title, name: station)
                runtime.events.emit(.streamTitle(url: url, station: station, title: title))
            case .line(let line):
                runtime.events.error(line)
            }
        }
    }
}

extension PlayerRuntime {
    /// Whether queue entry `path` is a station (an http or https URL).
    static func isStation(_ path: String) -> Bool {
        if case .url = StreamLocation.classify(path) { return true }
        return false
    }
}
