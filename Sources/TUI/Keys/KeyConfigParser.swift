import InterludeCore

/// Reads the keys file (`$XDG_CONFIG_HOME/interlude/keys`), a pure function
/// over its text applied on top of existing bindings (normally the defaults).
///
/// Lines: `bind KEY ACTION`, `unbind KEY`, blank, or a comment starting with
/// `#` (only at the start of a line, so `bind # help` binds the `#` key).
/// A bad line is reported and skipped while the other lines still apply:
/// unlike a theme, a keys file with one typo is still mostly what the user
/// wants, and every key left alone keeps working.
public enum KeyConfigParser {
    public static func apply(_ text: String, path: String, to base: KeyBindings = .defaults) -> KeyConfigLoad {
        var bindings = base
        var problems: [ConfigProblem] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (offset, line) in lines.enumerated() {
            func report(_ message: String) {
                problems.append(ConfigProblem(path: path, line: offset + 1, message: message))
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let command = words.first, !command.hasPrefix("#") else { continue }
            switch command {
            case "bind":
                guard words.count >= 3 else {
                    report("'bind' needs a key and an action: bind KEY ACTION")
                    continue
                }
                let key = parseKey(words[1], report: report)
                let action = KeyAction(named: words[2])
                if action == nil {
                    report("unknown action '\(words[2])' (the help listing, ?, shows every action's name)")
                }
                if words.count > 3 {
                    report("unexpected '\(words[3...].joined(separator: " "))' after 'bind \(words[1]) \(words[2])'")
                    continue
                }
                if let key, let action { bindings.bind(key, to: action) }
            case "unbind":
                guard words.count == 2 else {
                    report(words.count < 2 ? "'unbind' needs a key: unbind KEY"
                                           : "unexpected '\(words[2...].joined(separator: " "))' after 'unbind \(words[1])'")
                    continue
                }
                if let key = parseKey(words[1], report: report) { bindings.unbind(key) }
            default:
                report("unknown command '\(command)' (expected 'bind KEY ACTION' or 'unbind KEY')")
            }
        }
        return KeyConfigLoad(bindings: bindings, problems: problems)
    }

    private static func parseKey(_ word: String, report: (String) -> Void) -> Key? {
        if let key = Key(parsing: word) { return key }
        report("unknown key '\(word)' (expected one character, ctrl-LETTER, or a key name such as enter, pgup or f1)")
        return nil
    }
}
