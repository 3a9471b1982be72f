import AudioSession

/// Which desktop streams interrupt the player, and as what: the role table of
/// issue 13 and the switch that turns desktop interruptions off, read from
/// `$XDG_CONFIG_HOME/interlude/config`. Pure (text in, settings and problems
/// out) and in a file of its own, because other keys of the same file have
/// their own readers; lines with keys not listed here are left to them.
///
///     desktop-interruptions = off
///     desktop-role.phone = call
///     desktop-role.event = ignore
struct DesktopInterruptionSettings: Equatable {
    var enabled = true
    /// `media.role` -> the session class a stream with that role opens; a role
    /// not in the table is ignored (music, video, game, ... mix as today).
    var roles: [String: PriorityClass] = Self.defaultRoles

    /// `phone` is a call and `alarm` an alarm, as their classes say. `event` and
    /// `notification` (a chat message's sound, a desktop notification) take the
    /// navigation class, not the notification class: the policy table's
    /// navigation row ducks music and pauses spoken audio (speech under a
    /// sound is lost), which is what the issue asks of a book, while the
    /// notification row, kept for the player's own chime, ducks both.
    static let defaultRoles: [String: PriorityClass] = [
        "phone": .call, "alarm": .alarm, "event": .navigation, "notification": .navigation,
    ]

    static let enabledKey = "desktop-interruptions"
    static let rolePrefix = "desktop-role."

    /// A line of the config file this reader could not use: one sentence naming
    /// the file, the line and the key.
    struct Problem: Equatable, CustomStringConvertible {
        var path: String
        var line: Int
        var message: String
        var description: String { "\(path):\(line): \(message)" }
    }

    /// Reads this reader's keys from the config file's text; everything else is
    /// another reader's. A bad value is reported and its default kept.
    static func parse(_ text: String, path: String) -> (settings: DesktopInterruptionSettings, problems: [Problem]) {
        var settings = DesktopInterruptionSettings()
        var problems: [Problem] = []
        // A file written on Windows ends lines with CRLF, one Character in
        // Swift: `isNewline` splits on it as on LF.
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty, line.first != "#", let equals = line.firstIndex(of: "=") else { continue }
            let key = trimmed(line[..<equals])
            let value = trimmed(line[line.index(after: equals)...])
            let number = offset + 1
            if key == enabledKey {
                switch value.lowercased() {
                case "on", "yes", "true": settings.enabled = true
                case "off", "no", "false": settings.enabled = false
                default:
                    problems.append(Problem(path: path, line: number,
                                            message: "\(key) is '\(value)'; use on or off"))
                }
            } else if key.hasPrefix(rolePrefix) {
                let role = String(key.dropFirst(rolePrefix.count))
                guard !role.isEmpty else {
                    problems.append(Problem(path: path, line: number, message: "\(key) names no media.role"))
                    continue
                }
                if value == "ignore" {
                    settings.roles[role] = nil
                } else if let priorityClass = PriorityClass(rawValue: value), priorityClass != .media {
                    settings.roles[role] = priorityClass
                } else {
                    let classes = PriorityClass.allCases.filter { $0 != .media }.map(\.rawValue)
                    problems.append(Problem(path: path, line: number,
                                            message: "\(key) is '\(value)'; use one of \((classes + ["ignore"]).joined(separator: ", "))"))
                }
            }
        }
        return (settings, problems)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
