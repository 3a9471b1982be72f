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
/// than on a refill timer; every turn its events become the player's
/// (`streamConnected`, `streamTitle`, the now-playing title in
/// `TrackTagStore`), and a drop after the station played is retried by a
/// `StreamReconnector` on the loop's clock ("reconnecting to NAME, attempt
/// 3"), never by waiting: keys, alarms and the socket are served meanwhile.
/// A first connection that fails is the entry's failure, one line naming the
/// URL, as a file that cannot be decoded is.
final class StreamWatch: LoopSource {
    private weak var stream: (any LiveStream)?
    private var reconnector: StreamReconnector?

    var pollRequests: [LoopPollRequest] {
        guard let stream, stream.isAwaitingData, stream.wakeDescriptor >= 0 else { return [] }
        return [LoopPollRequest(fd: stream.wakeDescriptor)]
    }

    /// The stream decoding now waits for the network (the frame clock's loop then waits too).
    var isWaiting: Bool { stream?.isAwaitingData == true }

    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime) {
        let current = runtime.engine.feeder.liveStream
        if current !== stream {
            // Another entry (or none) decodes now: the old station is not tried again.
            reconnector?.cancel()
            reconnector = nil
            stream = current
        }
        guard let stream else { return }
        for event in stream.takeStreamEvents() { handle(event, of: stream, runtime: runtime) }
    }

    private func handle(_ event: StreamEvent, of stream: any LiveStream, runtime: PlayerRuntime) {
        let events = runtime.events
        switch event {
        case .connected(let station, let codec):
            reconnector?.connected()
            runtime.streamPlayed()
            runtime.trackTags.setStation(stream.url, title: stream.title, name: station)
            events.emit(.streamConnected(url: stream.url, station: station, codec: codec))
        case .title(let title):
            runtime.trackTags.setStation(stream.url, title: title, name: stream.stationName)
            events.emit(.streamTitle(url: stream.url, station: stream.stationName, title: title))
        case .dropped(let reason):
            events.error("\(stream.url): \(reason)")
            reconnector(for: stream, runtime: runtime).failed(reason: reason)
        case .attemptFailed(let reason):
            reconnector(for: stream, runtime: runtime).failed(reason: reason)
        }
    }

    private func reconnector(for stream: any LiveStream, runtime: PlayerRuntime) -> StreamReconnector {
        if let reconnector { return reconnector }
        let name = stream.stationName ?? Self.host(of: stream.url)
        let events = runtime.events
        let made = StreamReconnector(stationName: name, policy: .standard, clock: runtime.clock,
                                     seed: UInt64(UInt32(bitPattern: getpid()))) { [weak self, weak stream] event in
            guard let self, let stream, let reconnector = self.reconnector else { return }
            switch event {
            case .attempt:
                if let line = reconnector.statusLine { events.error(line) }
                stream.reconnect()
            case .gaveUp(let attempts, let reason):
                events.error(reconnector.gaveUpLine(attempts: attempts, reason: reason))
                stream.giveUp()
            }
        }
        reconnector = made
        return made
    }

    private static func host(of url: String) -> String {
        if case .url(let parsed) = StreamLocation.classify(url) { return parsed.host }
        return url
    }
}

extension PlayerRuntime {
    /// Whether queue entry `path` is a station (an http or https URL).
    static func isStation(_ path: String) -> Bool {
        if case .url = StreamLocation.classify(path) { return true }
        return false
    }
}
