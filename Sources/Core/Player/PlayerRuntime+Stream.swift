import AudioDecoding
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
package final class StreamWatch: LoopSource {
    /// The core's own part: it reads the engine's stream, which no service sees.
    package weak var runtime: PlayerRuntime?
    private weak var stream: (any LiveStream)?
    private var supervisor: StationSupervisor?

    package var pollRequests: [LoopPollRequest] {
        guard let stream else { return [] }
        var requests: [LoopPollRequest] = []
        // The time-shift's lines come while paused too, when nothing else wakes the loop.
        if stream.noteDescriptor >= 0 { requests.append(LoopPollRequest(fd: stream.noteDescriptor)) }
        if stream.isAwaitingData, stream.wakeDescriptor >= 0 { requests.append(LoopPollRequest(fd: stream.wakeDescriptor)) }
        return requests
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard let runtime else { return }
        let current = runtime.engine.feeder.liveStream
        if current !== stream {
            // Another entry (or none) decodes now: the old station is not tried again.
            supervisor?.cancel()
            supervisor = current.map { supervise($0, runtime: runtime) }
            stream = current
        }
        guard let stream, let supervisor else { return }
        // The frame heard first: a title whose audio is heard now is among the events.
        if let heard = runtime.engine.heardTrack, heard.track.path == stream.url {
            stream.listenerHeard(frame: heard.offset, playing: runtime.player.isPlaying && !runtime.engine.isMediaStopped)
        }
        for event in stream.takeStreamEvents() { supervisor.handle(event, from: stream) }
        for line in stream.takeTimeShiftLines() { runtime.events.emit(.timeShift(url: stream.url, message: line)) }
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
    /// The station heard now, with the frame heard in it.
    private var heardStation: (stream: any LiveStream, frame: Int)? {
        guard let stream = engine.feeder.liveStream, let heard = engine.heardTrack, heard.track.path == stream.url else { return nil }
        return (stream, heard.offset)
    }

    /// How far behind its live edge the station heard now is; nil for a file.
    package var stationTimeShift: TimeShiftPosition? {
        heardStation.flatMap { $0.stream.timeShift(heardFrame: $0.frame) }
    }

    /// A seek on a station: within its time-shift buffer, refused in one line beyond it.
    package func seekStation(bySeconds seconds: Double) -> CommandResult {
        guard let (stream, frame) = heardStation else {
            return .refused(reason: .problem("the station has not started: it cannot seek yet"))
        }
        let frames = format.frames(forSeconds: abs(seconds)) * (seconds < 0 ? -1 : 1)
        if let refusal = stream.moveResumePoint(by: frames, heardFrame: frame) { return .refused(reason: .problem(refusal)) }
        if player.isPlaying { engine.restartMedia(fadeFrames: format.frames(forSeconds: 0.03)) }
        return .done(report: nil)
    }

    /// `go-live`: the station plays at its live edge (at the resume, when paused).
    package func goLive() -> CommandResult {
        guard let (stream, _) = heardStation else { return .refused(reason: .problem("no station is playing: nothing to take live")) }
        stream.moveToLive()
        if player.isPlaying { engine.restartMedia(fadeFrames: format.frames(forSeconds: 0.03)) }
        return .done(report: nil)
    }
}
