/// The control socket's commands: every name, what its `args` must be, and
/// the action it stands for. Standard input's words (`StandardInputVocabulary`)
/// mean the same here, so the keys, standard input and the remote speak one
/// language; the rest are what only a remote needs (arguments, lists, status).
public enum RemoteVocabulary {
    public struct Entry: Sendable {
        public let name: String
        /// For `interlude remote --help` and the complaint about an unknown name.
        public let usage: String
        let action: @Sendable (RemoteArguments) throws(RemoteArgumentError) -> RemoteAction
    }

    private static func plain(_ name: String, _ command: PlayerCommand) -> Entry {
        Entry(name: name, usage: name) { arguments throws(RemoteArgumentError) in
            try arguments.none()
            return .perform(command)
        }
    }

    private static func reading(_ name: String, _ action: RemoteAction) -> Entry {
        Entry(name: name, usage: name) { arguments throws(RemoteArgumentError) in
            try arguments.none()
            return action
        }
    }

    /// Alarm ids and bookmark ids are positive and small.
    private static let idRange: ClosedRange<Int64> = 1...Int64(Int32.max)

    public static let entries: [Entry] = StandardInputVocabulary.words.map { plain($0.word, $0.command) } + [
        plain("next", .next),
        plain("previous", .previous),
        reading("stop", .stop),
        Entry(name: "seek", usage: "seek SECONDS (relative, + or -)") { arguments throws(RemoteArgumentError) in
            .perform(.seek(seconds: try arguments.number("seconds (a number)", in: -86_400 * 366...86_400 * 366)))
        },
        Entry(name: "seek-to", usage: "seek-to SECONDS (from the start)") { arguments throws(RemoteArgumentError) in
            .seekTo(seconds: try arguments.number("seconds from the start (a number, 0 or more)", in: 0...86_400 * 366))
        },
        Entry(name: "volume", usage: "volume 0..1") { arguments throws(RemoteArgumentError) in
            .perform(.setVolume(try arguments.number("a number from 0 to 1", in: 0...1)))
        },
        Entry(name: "speed", usage: "speed up|down|0.5..3.0") { arguments throws(RemoteArgumentError) in
            if arguments.values.count == 1, let value = arguments.values[0].doubleValue {
                guard (0.5...3.0).contains(value) else { throw RemoteArgumentError("speed: expects 0.5 to 3.0, not \(value)") }
                return .perform(.setSpeed(value))
            }
            switch try arguments.string("\"up\", \"down\" or a number from 0.5 to 3.0") {
            case "up": return .perform(.speedUp)
            case "down": return .perform(.speedDown)
            case let other: throw RemoteArgumentError("speed: expects \"up\", \"down\" or a number from 0.5 to 3.0, not '\(other)'")
            }
        },
        Entry(name: "queue-add", usage: "queue-add PATH...") { arguments throws(RemoteArgumentError) in
            .perform(.enqueue(try arguments.strings("one or more paths (strings)")))
        },
        Entry(name: "play-files", usage: "play-files PATH...") { arguments throws(RemoteArgumentError) in
            .perform(.playQueue(try arguments.strings("one or more paths (strings)"), startAt: 0))
        },
        plain("queue-clear", .clearQueue),
        reading("queue-list", .queueList),
        Entry(name: "queue-save", usage: "queue-save PATH|NAME (an .m3u/.m3u8 playlist)") { arguments throws(RemoteArgumentError) in
            .perform(.saveQueue(path: try arguments.string("a playlist path or name (a string)")))
        },
        Entry(name: "playlist-load", usage: "playlist-load PATH|NAME") { arguments throws(RemoteArgumentError) in
            .perform(.loadPlaylist(path: try arguments.string("a playlist path or name (a string)")))
        },
        Entry(name: "open-book", usage: "open-book PATH") { arguments throws(RemoteArgumentError) in
            .perform(.openBook(try arguments.string("a path (a string)")))
        },
        plain("sleep", .cycleSleepTimer),
        Entry(name: "bookmark", usage: "bookmark [NOTE]") { arguments throws(RemoteArgumentError) in
            .perform(.addBookmark(note: try arguments.optionalString("a note (a string), or nothing")))
        },
        Entry(name: "alarm-add", usage: "alarm-add WHEN (\"07:30\", \"in 10m\", ...)") { arguments throws(RemoteArgumentError) in
            .perform(.addAlarmSchedule(try arguments.string("when it rings (a string such as \"07:30\")")))
        },
        Entry(name: "alarm-in", usage: "alarm-in SECONDS") { arguments throws(RemoteArgumentError) in
            .perform(.addAlarm(afterSeconds: try arguments.integer("whole seconds from 1 to 86400", in: 1...86_400)))
        },
        plain("alarm-fire", .fireTestAlarm),
        reading("alarm-list", .alarmList),
        Entry(name: "alarm-delete", usage: "alarm-delete ID") { arguments throws(RemoteArgumentError) in
            .perform(.deleteAlarm(id: try arguments.integer("an alarm id (a positive integer)", in: idRange)))
        },
        Entry(name: "alarm-enable", usage: "alarm-enable ID") { arguments throws(RemoteArgumentError) in
            .perform(.setAlarmEnabled(id: try arguments.integer("an alarm id (a positive integer)", in: idRange), true))
        },
        Entry(name: "alarm-disable", usage: "alarm-disable ID") { arguments throws(RemoteArgumentError) in
            .perform(.setAlarmEnabled(id: try arguments.integer("an alarm id (a positive integer)", in: idRange), false))
        },
        reading("suspend", .suspend),
        reading("continue", .resumeSession),
        reading("call-start", .callStart),
        reading("call-end", .callEnd),
        plain("notification", .notificationChime),
        plain("device-loss", .simulateDeviceLoss),
        reading("status", .status),
        reading("subscribe", .subscribe),
    ]

    public static func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// Every name, comma-separated, in the table's order.
    public static var names: String { entries.map(\.name).joined(separator: ", ") }
}
