import InterludeCore

/// `interlude remote WORDS...` as the request it sends: words a person types
/// ("alarm in 3s", "seek +10", "call start") become the one name of a
/// command of the socket's vocabulary (`CommandTable`) and typed `args`. Paths are passed as given: the
/// caller makes them absolute, since the player runs elsewhere.
public enum RemoteCommandLine {
    public struct Translation: Equatable, Sendable {
        public var command: String
        public var arguments: [JSONValue]

        public init(command: String, arguments: [JSONValue]) {
            self.command = command
            self.arguments = arguments
        }
    }

    /// "interlude remote: ..." complaints, for exit status 2.
    public struct UsageError: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    public static func translate(_ words: [String]) throws(UsageError) -> Translation {
        guard let first = words.first else { throw UsageError("interlude remote: which command? (see 'interlude remote --help')") }
        // Three words joined ("queue move up"), then two ("alarm in", "queue add", "call start"), before one.
        var name = first
        var rest = Array(words.dropFirst())
        if rest.count >= 2, let joined = known("\(first)-\(rest[0])-\(rest[1])") {
            name = joined
            rest.removeFirst(2)
        } else if let second = rest.first, let joined = known("\(first)-\(second)") {
            name = joined
            rest.removeFirst()
        } else if let single = known(first) {
            name = single
        } else {
            throw UsageError("interlude remote: unknown command '\(words.prefix(2).joined(separator: " "))' (one of: \(RemoteVocabulary.names))")
        }
        switch name {
        case "seek", "seek-to":
            // "+10" and "-5" are relative; a bare time is a place in the track (the book), as the seek-to key reads it.
            guard rest.count == 1, let seconds = duration(rest[0]) else {
                throw UsageError("interlude remote: \(name) expects a time from the start (90, 12:30, 1:23:45) or from here (+30, -10)")
            }
            let relative = rest[0].hasPrefix("+") || rest[0].hasPrefix("-")
            return Translation(command: relative ? "seek" : "seek-to", arguments: [.double(seconds)])
        case "alarm-in":
            guard rest.count == 1, let seconds = duration(rest[0]), seconds >= 1, seconds == seconds.rounded() else {
                throw UsageError("interlude remote: alarm in expects a delay such as 30s, 5m or 1h")
            }
            return Translation(command: name, arguments: [.integer(Int64(seconds))])
        case "volume":
            guard rest.count == 1, let volume = Double(rest[0]) else {
                throw UsageError("interlude remote: volume expects a number from 0 to 1")
            }
            return Translation(command: name, arguments: [.double(volume)])
        case "speed" where rest.count == 1 && Double(rest[0].hasSuffix("x") ? String(rest[0].dropLast()) : rest[0]) != nil:
            return Translation(command: name, arguments: [.double(Double(rest[0].hasSuffix("x") ? String(rest[0].dropLast()) : rest[0])!)])
        case "alarm-delete", "alarm-enable", "alarm-disable", "alarm-skip", "alarm-toggle":
            guard rest.count == 1, let id = Int64(rest[0].hasPrefix("#") ? String(rest[0].dropFirst()) : rest[0]) else {
                throw UsageError("interlude remote: \(name.replacingHyphen()) expects an alarm id")
            }
            return Translation(command: name, arguments: [.integer(id)])
        case "bookmark-delete":
            guard rest.count == 1, let id = Int64(rest[0].hasPrefix("#") ? String(rest[0].dropFirst()) : rest[0]) else {
                throw UsageError("interlude remote: bookmark delete expects a bookmark id")
            }
            return Translation(command: name, arguments: [.integer(id)])
        case "alarm-edit":
            // The id, then the words of the new time ("tomorrow 07:30") as one string.
            guard rest.count >= 2, let id = Int64(rest[0].hasPrefix("#") ? String(rest[0].dropFirst()) : rest[0]) else {
                throw UsageError("interlude remote: alarm edit expects an alarm id and when it rings")
            }
            return Translation(command: name, arguments: [.integer(id), .string(rest.dropFirst().joined(separator: " "))])
        case "station-add", "station-add-url":
            // The URL, then the words of its name as one string.
            guard let url = rest.first else { return Translation(command: name, arguments: []) }
            let words = rest.dropFirst()
            return Translation(command: name, arguments: [.string(url)] + (words.isEmpty ? [] : [.string(words.joined(separator: " "))]))
        case "station-rename", "station-remove", "station-play":
            guard let first = rest.first, let number = Int64(first.hasPrefix("#") ? String(first.dropFirst()) : first),
                  name == "station-rename" ? rest.count >= 2 : rest.count == 1 else {
                throw UsageError("interlude remote: \(name.replacingHyphen()) expects a station's number (as station list shows it)"
                                 + (name == "station-rename" ? " and the new name" : ""))
            }
            let words = rest.dropFirst()
            return Translation(command: name, arguments: [.integer(number)] + (words.isEmpty ? [] : [.string(words.joined(separator: " "))]))
        case "alarm-add", "bookmark-add", "queue-save", "playlist-load":
            // The words of a time ("tomorrow 07:30"), a note or a playlist's name, as one string.
            return Translation(command: name, arguments: rest.isEmpty ? [] : [.string(rest.joined(separator: " "))])
        default:
            return Translation(command: name, arguments: typed(rest, for: name))
        }
    }

    /// The words as the row reads its arguments: a whole number where the
    /// argument is a count (a queue position: `queue-remove 1`), a number where
    /// it is one, else the word as it is (a path, a name), which the row's
    /// parse then accepts or names in its complaint.
    static func typed(_ words: [String], for name: String) -> [JSONValue] {
        let arguments = RemoteVocabulary.entry(named: name)?.arguments ?? []
        return words.enumerated().map { index, word in
            let argument = index < arguments.count ? arguments[index] : arguments.last.flatMap { $0.repeats ? $0 : nil }
            switch argument?.kind {
            case .count?:
                if let number = Int64(word) { return .integer(number) }
            case .number?, .seconds?:
                if let number = Double(word), number.isFinite { return .double(number) }
            default:
                break
            }
            return .string(word)
        }
    }

    /// The one name of what a person typed (a name or an alias).
    private static func known(_ name: String) -> String? {
        RemoteVocabulary.entry(named: name)?.name
    }

    /// `interlude remote --help`: every command the socket offers, from the table.
    public static var usage: String {
        var lines = [
            "usage: interlude remote [--instance N] COMMAND [ARGS...]",
            "",
            "Controls the interlude that runs (the first one, or instance N as",
            "started with --new) through $XDG_RUNTIME_DIR/interlude/control.",
            "A name's words may be written apart (chapter next, queue add, queue move up, alarm in);",
            "SECONDS may be 90, 1:30 or 10s, and seek's + or - makes a seek relative.",
        ]
        let entries = RemoteVocabulary.entries
        let width = entries.map { usage(of: $0).count }.max() ?? 0
        for section in CommandSection.allCases {
            let rows = entries.filter { $0.section == section }
            guard !rows.isEmpty else { continue }
            lines += ["", section.rawValue]
            for entry in rows {
                let text = usage(of: entry)
                let aliases = entry.aliases.isEmpty ? "" : "; also " + entry.aliases.joined(separator: ", ")
                lines.append("  " + text + String(repeating: " ", count: width - text.count) + "  " + entry.summary + aliases)
            }
        }
        lines += ["", "Exit status: 0 done, 1 the player refused (its reason on stderr), 2 usage,",
                  "3 no interlude is running."]
        return lines.joined(separator: "\n")
    }

    /// A row's usage as the command line writes it (`status [--json]`).
    private static func usage(of entry: CommandSpec) -> String {
        entry.name == "status" || entry.name == "station-list" ? entry.usage + " [--json]" : entry.usage
    }

    /// Seconds from "+10", "-5", "90", "1:30", "1:02:03", "30s", "5m", "1h", "1.5".
    public static func duration(_ text: String) -> Double? {
        var body = Substring(text)
        var sign = 1.0
        if body.hasPrefix("+") { body = body.dropFirst() } else if body.hasPrefix("-") { sign = -1; body = body.dropFirst() }
        guard !body.isEmpty else { return nil }
        let units: [(Character, Double)] = [("s", 1), ("m", 60), ("h", 3600)]
        if let last = body.last, let unit = units.first(where: { $0.0 == last }) {
            guard let number = Double(body.dropLast()), number.isFinite, number >= 0 else { return nil }
            return sign * number * unit.1
        }
        var total = 0.0
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        for (index, part) in parts.enumerated() {
            guard let number = Double(part), number.isFinite, number >= 0 else { return nil }
            // Minutes and seconds after a colon stay under 60.
            if index > 0 && number >= 60 { return nil }
            total = total * 60 + number
        }
        return sign * total
    }

    /// The request's line, `id` first.
    public static func requestLine(id: Int64, _ translation: Translation) -> String {
        var line = "{\"id\":\(id),\"command\":" + JSONWriter().quoted(translation.command)
        if !translation.arguments.isEmpty {
            line += ",\"args\":[" + translation.arguments.map(RemoteReply.compact).joined(separator: ",") + "]"
        }
        return line + "}"
    }
}

private extension String {
    func replacingHyphen() -> String { split(separator: "-").joined(separator: " ") }
}
