import AudioSession

/// Which desktop streams interrupt the player, and as what: the role table
/// and the switch that turns desktop interruptions off, read from
/// `$XDG_CONFIG_HOME/interlude/config`. Pure (text in, settings and problems
/// out) and in a file of its own, because other keys of the same file have
/// their own readers; lines with keys not listed here are left to them.
///
///     desktop-interruptions = off
///     desktop-role.phone = call
///     desktop-role.event = ignore
package struct DesktopInterruptionSettings: Equatable {
    package var enabled = true
    /// `media.role` -> the session class a stream with that role opens; a role
    /// not in the table is ignored (music, video, game, ... mix as today).
    package var roles: [String: PriorityClass] = Self.defaultRoles

    package init(enabled: Bool = true, roles: [String: PriorityClass] = Self.defaultRoles) {
        self.enabled = enabled
        self.roles = roles
    }

    /// `phone` is a call and `alarm` an alarm, as their classes say. `event` and
    /// `notification` (a chat message's sound, a desktop notification) take the
    /// navigation class, not the notification class: the policy table's
    /// navigation row ducks music and pauses spoken audio (speech under a
    /// sound is lost), which is what the issue asks of a book, while the
    /// notification row, kept for the player's own chime, ducks both.
    package static let defaultRoles: [String: PriorityClass] = [
        "phone": .call, "alarm": .alarm, "event": .navigation, "notification": .navigation,
    ]

    package static let enabledKey = "desktop-interruptions"
    package static let rolePrefix = "desktop-role."

    /// A line of the config file this reader could not use: one sentence naming
    /// the file, the line and the key.
    package struct Problem: Equatable, CustomStringConvertible {
        package var path: String
        package var line: Int
        package var message: String
        package var description: String { "\(path):\(line): \(message)" }
    }

    /// Reads this reader's keys from the config file's text; everything else is
    /// another reader's. A bad value is reported and its default kept.
    ///
    /// Works on UTF-8 bytes, not Characters: splitting and comparing
    /// Characters pages in the standard library's Unicode tables, which cost
    /// headless playback about 0.4 MB resident (measured) for a file of ASCII keys.
    package static func parse(_ text: String, path: String) -> (settings: DesktopInterruptionSettings, problems: [Problem]) {
        var settings = DesktopInterruptionSettings()
        var problems: [Problem] = []
        let lineFeed = UInt8(ascii: "\n")
        for (offset, rawLine) in Array(text.utf8).split(separator: lineFeed, omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(rawLine)
            guard let first = line.first, first != UInt8(ascii: "#"),
                  let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let keyBytes = trimmed(line[..<equals])
            let valueBytes = trimmed(line[(equals + 1)...])
            let key = String(decoding: keyBytes, as: UTF8.self)
            let value = String(decoding: valueBytes, as: UTF8.self)
            let number = offset + 1
            if keyBytes.elementsEqual(enabledKey.utf8) {
                let lowered = valueBytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
                if ["on", "yes", "true"].contains(where: { lowered.elementsEqual($0.utf8) }) {
                    settings.enabled = true
                } else if ["off", "no", "false"].contains(where: { lowered.elementsEqual($0.utf8) }) {
                    settings.enabled = false
                } else {
                    problems.append(Problem(path: path, line: number, message: "\(key) is '\(value)'; use on or off"))
                }
            } else if keyBytes.starts(with: rolePrefix.utf8) {
                let role = String(decoding: keyBytes.dropFirst(rolePrefix.utf8.count), as: UTF8.self)
                guard !role.utf8.isEmpty else {
                    problems.append(Problem(path: path, line: number, message: "\(key) names no media.role"))
                    continue
                }
                let chosen = PriorityClass.allCases.first { $0 != .media && valueBytes.elementsEqual($0.rawValue.utf8) }
                if valueBytes.elementsEqual("ignore".utf8) {
                    settings.roles[role] = nil
                } else if let chosen {
                    settings.roles[role] = chosen
                } else {
                    let classes = PriorityClass.allCases.filter { $0 != .media }.map(\.rawValue)
                    problems.append(Problem(path: path, line: number,
                                            message: "\(key) is '\(value)'; use one of \((classes + ["ignore"]).joined(separator: ", "))"))
                }
            }
        }
        return (settings, problems)
    }

    /// Without blanks at either end (spaces, tabs, and a CRLF file's CR).
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isBlank(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return bytes[first...last]
    }
}
