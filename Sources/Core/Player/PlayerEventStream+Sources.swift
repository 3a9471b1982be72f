import Alarms
import AudioEngine
import AudioSession
import InterludeCore
import PlayerModel

/// What the engine, the session and the alarm scheduler report, as player
/// events. Problems become `error` events (and a line on stderr).
extension PlayerEventStream {
    package func report(_ event: PlaybackEvent) {
        switch event {
        case .trackStarted(let index, let path): emit(.trackStarted(index: index, path: path))
        case .trackEnded(let index, let path): emit(.trackEnded(index: index, path: path))
        case .skipped(let error): self.error("\(error.description) (skipped)")
        case .truncated(let path, let seconds, let expected):
            self.error("\(path): file is truncated: it ends at \(clockText(seconds)) of \(clockText(expected))")
        case .underrun: emit(.underrun(.xrun))
        case .starved: emit(.underrun(.starved))
        case .deviceLost(let message): self.error(message)
        case .outputFailed(let message): self.error(message)
        case .outputAway(let message): self.error(message)
        case .mediaStopped: break  // Reported by the controller as `paused`, with the position.
        case .finished(let underruns): emit(.finished(underruns: underruns))
        }
    }

    /// An interruption, ducking or hint notification as the player saw it.
    package func report(_ event: SessionEvent) {
        switch event {
        case .interruption(let notification): emit(.interruption(notification))
        case .ducking(let notification): emit(.ducking(notification))
        case .silenceSecondaryAudioHint(let notification): emit(.secondaryAudioHint(notification.kind))
        }
    }

    package func report(_ event: AlarmEvent) {
        switch event {
        case .ringingBegan(let ids): emit(.alarmRinging(ids))
        case .ringingJoined(let id): emit(.alarmJoined(id))
        case .ringingEnded(let end): emit(.alarmEnded(end))
        case .missed(let alarms): for alarm in alarms { error(alarm.line) }
        case .rangLate(let rings): for ring in rings { emit(.alarmLate(ring)) }
        case .storeProblem(let sentence): error(sentence)
        }
    }
}
