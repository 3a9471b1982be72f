import Alarms
import AudioSession
import BookFormat

/// The printed shape of each event: its name and its fields, in the order
/// `--events json` has always printed them (scripts and the recorded-event
/// test depend on that order, the names and each number's decimals).
extension PlayerEvent {
    public var name: String {
        switch self {
        case .trackStarted: "trackStarted"
        case .trackEnded: "trackEnded"
        case .underrun: "underrun"
        case .finished: "finished"
        case .error: "error"
        case .notice: "notice"
        case .pauseRequested: "pauseRequested"
        case .paused: "paused"
        case .resumeRequested: "resumeRequested"
        case .resumed: "resumed"
        case .ducked: "ducked"
        case .unducked: "unducked"
        case .resumeScheduled: "resumeScheduled"
        case .resumePostponed: "resumePostponed"
        case .resumeFailed: "resumeFailed"
        case .playRefused: "playRefused"
        case .stayPaused: "stayPaused"
        case .jump: "jump"
        case .interruption: "interruption"
        case .ducking: "ducking"
        case .secondaryAudioHint: "secondaryAudioHint"
        case .alarmRinging: "alarmRinging"
        case .alarmJoined: "alarmJoined"
        case .alarmLate: "alarmLate"
        case .alarmEnded: "alarmEnded"
        case .alarmAdded: "alarmAdded"
        case .alarmEdited: "alarmEdited"
        case .alarmWake: "alarmWake"
        case .alarmSoundFallback: "alarmSoundFallback"
        case .notification: "notification"
        case .callStarted: "callStarted"
        case .callEnded: "callEnded"
        case .suspended: "suspended"
        case .suspending: "suspending"
        case .continued: "continued"
        case .deviceLostSimulated: "deviceLostSimulated"
        case .enqueued: "enqueued"
        case .orderChanged: "orderChanged"
        case .playlistLoaded: "playlistLoaded"
        case .queueSaved: "queueSaved"
        case .queueEnded: "queueEnded"
        case .speed: "speed"
        case .spokenAudio: "spokenAudio"
        case .timeSaved: "timeSaved"
        case .volume: "volume"
        case .wallClockChanged: "wallClockChanged"
        case .stopped: "stopped"
        case .summary: "summary"
        case .bookOpened: "bookOpened"
        case .bookSeek: "bookSeek"
        case .bookSeekRefused: "bookSeekRefused"
        case .bookmarkAdded: "bookmarkAdded"
        case .positionSaved: "positionSaved"
        case .sleepTimerSet: "sleepTimerSet"
        case .sleepTimerOff: "sleepTimerOff"
        case .sleepFadeStarted: "sleepFadeStarted"
        case .sleepTimerExpired: "sleepTimerExpired"
        case .systemWillSleep: "systemWillSleep"
        case .systemDidWake: "systemDidWake"
        case .streamConnected: "streamConnected"
        case .streamTitle: "streamTitle"
        case .timeShift: "timeShift"
        case .stationNamed: "stationNamed"
        }
    }

    /// The fields after the time and the name.
    public var fields: [EventField] {
        switch self {
        case .trackStarted(let index, let path), .trackEnded(let index, let path):
            // A cue sheet's track is named by a path that says nothing to the
            // listener (`album.cue#3`): its title from the sheet goes beside it.
            // Reading the sheet here costs a few kilobytes once per track change.
            if let cue = CueTrackPath(path), case .success(let track) = CueTrack.resolve(cue) {
                return [.init("path", .string(path)), .init("index", .integer(index)), .init("title", .string(track.title))]
            }
            return [.init("path", .string(path)), .init("index", .integer(index))]
        case .underrun(let cause):
            return [.init("cause", .string(cause.rawValue))]
        case .finished(let underruns):
            return [.init("underruns", .integer(underruns))]
        case .error(let message), .notice(let message):
            return [.init("message", .string(message))]
        case .pauseRequested(let position), .paused(let position):
            return [.init("position", .number(position, decimals: 6))]
        case .resumeRequested(let trigger):
            return [.init("trigger", .string(trigger.rawValue))]
        case .resumed(.rewound(let position, let rewind)):
            return [.init("position", .number(position, decimals: 6)), .init("rewind", .number(rewind, decimals: 6))]
        case .resumed(.fadeCancelled(let position)):
            return [.init("position", .number(position, decimals: 6)), .init("rewind", .number(0, decimals: 6)),
                    .init("fadeCancelled", .bool(true))]
        case .resumed(.jumped(let index, let offset)):
            return [.init("index", .integer(index)), .init("offset", .number(offset, decimals: 6))]
        case .ducked(let gain):
            return [.init("gain", .number(gain, decimals: 3))]
        case .resumeScheduled(let delay):
            return [.init("delay", .number(delay, decimals: 3))]
        case .alarmWake(let at, let reason):
            if let at { return [.init("wakes", .string("wakes the computer")), .init("at", .integer(Int(at)))] }
            return [.init("wakes", .string("rings only while the computer is awake")), .init("reason", .string(reason ?? ""))]
        case .resumeFailed(let reason), .playRefused(let reason), .bookSeekRefused(let reason):
            return [.init("reason", .string(reason))]
        case .jump(let index, let offset, let whilePaused):
            return [.init("index", .integer(index)), .init("offset", .number(offset, decimals: 6)),
                    .init("whilePaused", .bool(whilePaused))]
        case .interruption(let notification):
            return [
                .init("type", .string(notification.kind == .began ? "began" : "ended")),
                .init("options", .strings(notification.options.contains(.shouldResume) ? ["shouldResume"] : [])),
                .init("reason", notification.reason.map { .string($0.name) } ?? .null),
                .init("wasSuspended", .bool(notification.wasSuspended)),
                .init("id", .integer(Int(notification.interruptionID.rawValue))),
            ] + Self.sourceFields(notification.source, label: notification.sourceLabel)
        case .ducking(let notification):
            // The player's own chime has printed no source since the first
            // recordings; a labelled session (a desktop stream) names its program.
            return [.init("type", .string(notification.kind == .began ? "began" : "ended")),
                    .init("gain", .number(notification.gain, decimals: 3))]
                + (notification.sourceLabel == nil ? [] : Self.sourceFields(notification.source, label: notification.sourceLabel))
        case .secondaryAudioHint(let kind):
            return [.init("type", .string(kind == .began ? "began" : "ended"))]
        case .alarmRinging(let ids):
            return [.init("alarms", .integers(ids.map(\.rawValue)))]
        case .alarmJoined(let id):
            return [.init("alarm", .integer(id.rawValue))]
        case .alarmSoundFallback(let id, let sound, let reason):
            return [.init("alarm", .integer(id.rawValue)), .init("sound", .string(sound)),
                    .init("message", .string("the built-in tone rings instead: " + reason))]
        case .alarmLate(let late):
            return [.init("alarm", .integer(late.id.rawValue)), .init("late", .integer(Int(late.lateSeconds))),
                    .init("message", .string(late.line))]
        case .alarmEnded(let end):
            let reason = switch end {
            case .dismissed: "dismissed"
            case .snoozed: "snoozed"
            case .timedOut: "timedOut"
            }
            return [.init("reason", .string(reason))]
        case .alarmAdded(let id, .inSeconds(let seconds)):
            return [.init("alarm", .integer(id.rawValue)), .init("in", .integer(seconds))]
        case .alarmAdded(let id, .at(let text)), .alarmEdited(let id, let text):
            return [.init("alarm", .integer(id.rawValue)), .init("at", .string(text))]
        case .enqueued(let count):
            return [.init("count", .integer(count))]
        case .orderChanged(let shuffle, let repeatMode):
            return [.init("shuffle", .bool(shuffle)), .init("repeat", .string(repeatMode))]
        case .playlistLoaded(let path, let count, let missing):
            return [.init("path", .string(path)), .init("count", .integer(count)), .init("missing", .integer(missing))]
        case .queueSaved(let path, let count):
            return [.init("path", .string(path)), .init("count", .integer(count))]
        case .speed(let speed):
            return [.init("speed", .number(speed, decimals: 3))]
        case .spokenAudio(let trim, let boost):
            return [.init("trimSilence", .string(trim)), .init("voiceBoost", .string(boost))]
        case .timeSaved(let seconds, let book, let total):
            var fields: [EventField] = [.init("seconds", .number(seconds, decimals: 3))]
            if let book { fields.append(.init("book", .number(book, decimals: 3))) }
            if let total { fields.append(.init("total", .number(total, decimals: 3))) }
            return fields
        case .volume(let volume):
            return [.init("volume", .number(volume, decimals: 3))]
        case .summary(let automaticResumes):
            return [.init("automaticResumes", .integer(automaticResumes))]
        case .bookOpened(let opening):
            var fields: [EventField] = [.init("path", .string(opening.path)), .init("title", .string(opening.title))]
            if let author = opening.author { fields.append(.init("author", .string(author))) }
            return fields + [
                .init("duration", .number(opening.duration, decimals: 3)),
                .init("chapters", .integer(opening.chapters)),
                .init("position", .number(opening.position, decimals: 3)),
                .init("saved", .number(opening.saved, decimals: 3)),
                .init("rewind", .number(opening.rewind, decimals: 3)),
                .init("chapter", .integer(opening.chapter)),
                .init("chapterTitle", .string(opening.chapterTitle)),
                .init("speed", .number(opening.speed, decimals: 2)),
            ]
        case .bookSeek(let seek):
            return [.init("reason", .string(seek.reason.rawValue)), .init("from", .number(seek.from, decimals: 3)),
                    .init("position", .number(seek.position, decimals: 3)), .init("chapter", .integer(seek.chapter)),
                    .init("chapterTitle", .string(seek.chapterTitle))]
        case .bookmarkAdded(let id, let position):
            return [.init("id", .integer(id)), .init("position", .number(position, decimals: 3))]
        case .positionSaved(let position):
            return [.init("position", .number(position, decimals: 3))]
        case .sleepTimerSet(let setting, let remaining):
            var fields: [EventField] = [.init("setting", .string(setting))]
            if let remaining { fields.append(.init("remaining", .number(remaining, decimals: 3))) }
            return fields
        case .sleepTimerOff(let reason):
            return reason.map { [.init("reason", .string($0.rawValue))] } ?? []
        case .sleepFadeStarted(let fade):
            return [.init("fade", .number(fade, decimals: 3))]
        case .stationNamed(let url, let name):
            return [.init("url", .string(url)), .init("name", .string(name))]
        case .streamConnected(let url, let station, let codec):
            var fields: [EventField] = [.init("url", .string(url))]
            if let station { fields.append(.init("station", .string(station))) }
            fields.append(.init("codec", .string(codec)))
            return fields
        case .streamTitle(let url, let station, let title):
            var fields: [EventField] = [.init("url", .string(url))]
            if let station { fields.append(.init("station", .string(station))) }
            fields.append(.init("title", .string(title)))
            return fields
        case .timeShift(let url, let message):
            return [.init("url", .string(url)), .init("message", .string(message))]
        case .unducked, .resumePostponed, .stayPaused, .notification, .callStarted, .callEnded, .suspended,
             .suspending, .continued, .deviceLostSimulated, .queueEnded, .wallClockChanged, .stopped,
             .sleepTimerExpired, .systemWillSleep, .systemDidWake:
            return []
        }
    }
}

extension PlayerEvent {
    /// `source` is the class (`call`, `alarm`, ...) as it has always been
    /// printed; a session with a label (another program on the sound server)
    /// prints the program as `source` and its class as `class` after it, so
    /// every line without a label stays byte for byte what it was.
    static func sourceFields(_ source: InterruptionSource, label: String?) -> [EventField] {
        guard let label else { return [.init("source", .string(source.name))] }
        return [.init("source", .string(label)), .init("class", .string(source.name))]
    }
}

extension InterruptionNotification.Reason {
    /// As printed: `default`, `appWasSuspended`, `routeDisconnected`.
    public var name: String {
        switch self {
        case .default: "default"
        case .appWasSuspended: "appWasSuspended"
        case .routeDisconnected: "routeDisconnected"
        }
    }
}

extension InterruptionSource {
    /// As printed and shown: the interrupting session's class (`alarm`, `call`,
    /// ...), `suspension` or `outputDeviceLost`.
    public var name: String {
        switch self {
        case .session(_, let priorityClass): priorityClass.rawValue
        case .suspension: "suspension"
        case .outputDeviceLost: "outputDeviceLost"
        }
    }
}
