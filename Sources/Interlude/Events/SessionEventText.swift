import Alarms
import AudioSession

extension EventPrinter {
    /// An interruption, ducking or hint notification as the player saw it.
    func emit(_ event: SessionEvent) {
        switch event {
        case .interruption(let notification):
            emit("interruption") { line in
                line.add("type", notification.kind == .began ? "began" : "ended")
                line.addRaw("options", notification.options.contains(.shouldResume) ? "[\"shouldResume\"]" : "[]")
                if let reason = notification.reason { line.add("reason", reason.name) } else { line.addNull("reason") }
                line.add("wasSuspended", notification.wasSuspended)
                line.add("id", notification.interruptionID.rawValue)
                line.add("source", notification.source.name)
            }
        case .ducking(let notification):
            emit("ducking") { line in
                line.add("type", notification.kind == .began ? "began" : "ended")
                line.add("gain", notification.gain)
            }
        case .silenceSecondaryAudioHint(let notification):
            emit("secondaryAudioHint") { $0.add("type", notification.kind == .began ? "began" : "ended") }
        }
    }

    func emit(_ event: AlarmEvent) {
        switch event {
        case .ringingBegan(let ids):
            emit("alarmRinging") { $0.addRaw("alarms", "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]") }
        case .ringingJoined(let id):
            emit("alarmJoined") { $0.add("alarm", id.rawValue) }
        case .ringingEnded(let end):
            emit("alarmEnded") { line in
                switch end {
                case .dismissed: line.add("reason", "dismissed")
                case .snoozed: line.add("reason", "snoozed")
                case .timedOut: line.add("reason", "timedOut")
                }
            }
        case .missed(let alarms):
            for alarm in alarms { error("missed alarm \(alarm.id) \(alarm.label)") }
        case .storeProblem(let sentence):
            error(sentence)
        }
    }
}

extension InterruptionNotification.Reason {
    var name: String {
        switch self {
        case .default: "default"
        case .appWasSuspended: "appWasSuspended"
        case .routeDisconnected: "routeDisconnected"
        }
    }
}

extension InterruptionSource {
    var name: String {
        switch self {
        case .session(_, let priorityClass): "\(priorityClass)"
        case .suspension: "suspension"
        case .outputDeviceLost: "outputDeviceLost"
        }
    }
}
