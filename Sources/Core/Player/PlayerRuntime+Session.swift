import AudioSession
import InterludeCore
import PlayerModel

/// What holds playback, read from the session state machine and the runtime
/// as they are (the banner and status line are drawn from it).
extension PlayerRuntime {
    package var isInterrupted: Bool { player.interruption != nil }

    package var sessionSnapshot: SessionSnapshot {
        var snapshot = SessionSnapshot(playing: player.isPlaying, waitingForUser: player.waitingForUser,
                                       suspended: isSessionSuspended)
        if let interruption = player.interruption {
            snapshot.interruption = .init(source: interruption.source, reason: interruption.reason,
                                          wasSuspended: interruption.wasSuspended,
                                          willResume: interruption.resumeWhenEnded, ended: interruption.ended)
        }
        switch player.pendingResume {
        case .none: break
        case .scheduled(let deadline):
            // In the player's time, as events carry it (the countdown runs against it).
            snapshot.pendingResume = .scheduled(deadline: events.now + (deadline - clock.monotonicNow).seconds)
        case .waitingForHintToClear: snapshot.pendingResume = .waitingForHint
        }
        snapshot.callActive = isCallActive
        snapshot.alarmRinging = hasAlarmScheduler && alarms.ringing != nil
        return snapshot
    }
}
