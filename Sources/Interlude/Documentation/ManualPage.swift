import PlayerModel

/// `interlude(1)`, in man(7) roff, made from what the program itself prints:
/// each command's `--help` (`CommandLineReference`), the control socket's
/// commands and the default keys (`CommandTable`), the config file's keys
/// (`PlayerConfigFile.keyReference`). `interlude-docgen man` prints it at build time.
public enum ManualPage {
    public static func text(version: String, date: String) -> String {
        var page = Roff()
        page.line(".TH INTERLUDE 1 \(Roff.quoted(date)) \(Roff.quoted("Interlude " + version)) \(Roff.quoted("User Commands"))")
        page.section("NAME")
        page.line("interlude \\- a terminal player for music and audiobooks, with alarms")
        page.section("SYNOPSIS")
        page.synopsis("interlude", "[\\fIPATH\\fR...] [\\fIOPTION\\fR...]")
        page.synopsis("interlude", "\\fICOMMAND\\fR [\\fIARGS\\fR...]")
        page.synopsis("interlude", "\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR | \\fB\\-\\-help\\-player\\fR")

        page.section("DESCRIPTION")
        page.paragraph("""
        Interlude plays music and audiobooks in a terminal. Without a command, on a terminal, it opens the \
        full-screen player on the files or folder given, or on the music folder. The commands below play \
        without the full-screen player, read files, keep alarms and bookmarks, and control a running player.
        """)
        page.help(CommandLineReference.fullScreen.help)
        page.subsection("General options")
        for option in CommandLineReference.generalOptions {
            page.item(term: Roff.bold(option.name), option.summary)
        }

        page.section("COMMANDS")
        for command in CommandLineReference.commands where !command.help.isEmpty {
            page.subsection("interlude " + command.name)
            page.help(command.help)
            var shown: Set<String> = [command.help]
            for subcommand in command.subcommands where shown.insert(subcommand.help).inserted {
                page.subsection("interlude \(command.name) \(subcommand.name)")
                page.help(subcommand.help)
            }
        }

        page.section("REMOTE COMMANDS")
        page.paragraph("""
        What interlude remote, the full-screen player's control socket \
        ($XDG_RUNTIME_DIR/interlude/control, one JSON request a line) and, where marked, interlude play's \
        standard input take. A name's two words may be written apart (chapter next).
        """)
        for section in CommandSection.allCases {
            let rows = RemoteVocabulary.entries.filter { $0.section == section }
            guard !rows.isEmpty else { continue }
            page.subsection(section.rawValue)
            for entry in rows {
                var text = entry.summary
                if !entry.aliases.isEmpty { text += "; also " + entry.aliases.joined(separator: ", ") }
                if entry.frontEnds.contains(.standardInput) { text += " (also on standard input)" }
                page.item(term: Roff.usage(entry.usage), text)
            }
        }

        page.section("KEYS")
        page.paragraph("""
        The full-screen player's default keys; ? lists them while it runs. Each line of \
        $XDG_CONFIG_HOME/interlude/keys binds a key to a command by name (KEY = COMMAND).
        """)
        for section in CommandSection.allCases {
            let rows = CommandTable.offered(by: .keys).filter { $0.section == section && !$0.defaultKeys.isEmpty }
            guard !rows.isEmpty else { continue }
            page.subsection(section.rawValue)
            for entry in rows {
                page.item(term: entry.defaultKeys.map(Roff.bold).joined(separator: ", "), "\(entry.name): \(entry.summary)")
            }
        }

        page.section("CONFIGURATION")
        page.paragraph("""
        $XDG_CONFIG_HOME/interlude/config holds KEY = VALUE lines; # starts a comment. A line that is \
        not understood is reported with its file and line number, and the others apply.
        """)
        for key in PlayerConfigFile.keyReference {
            page.item(term: Roff.bold(key.key) + " = " + Roff.italic(key.value), key.summary)
        }

        page.section("FILES")
        for file in files { page.item(term: Roff.italic(file.path), file.summary) }
        page.section("ENVIRONMENT")
        for variable in environment { page.item(term: Roff.bold(variable.name), variable.summary) }
        page.section("EXIT STATUS")
        page.paragraph("""
        0 on success; 1 when nothing could be played or done (each failure named on standard error); \
        2 for a usage error. interlude remote and interlude quit exit 3 when no player runs (remote starts the service first unless --instance names a player).
        """)
        page.section("COPYRIGHT")
        page.paragraph("""
        Interlude is free software under the GNU General Public License, version 3 or (at your option) any \
        later version (GPL-3.0-or-later), with NO WARRANTY. The licences of the libraries it links and loads \
        are listed in its package's copyright file.
        """)
        return page.text
    }

    static let files: [(path: String, summary: String)] = [
        ("$XDG_CONFIG_HOME/interlude/config", "the configuration (see CONFIGURATION); XDG_CONFIG_HOME defaults to ~/.config"),
        ("$XDG_CONFIG_HOME/interlude/keys", "key bindings of the full-screen player"),
        ("$XDG_CONFIG_HOME/interlude/themes/NAME.theme", "your colour themes; one hides a shipped theme of the same name"),
        ("PREFIX/share/interlude/themes/NAME.theme", "the shipped themes, found beside the installed binary (PREFIX/bin/interlude)"),
        ("$XDG_STATE_HOME/interlude/alarms.json", "the alarms; XDG_STATE_HOME defaults to ~/.local/state"),
        ("$XDG_STATE_HOME/interlude/books/", "each book's position, speed and bookmarks"),
        ("$XDG_STATE_HOME/interlude/player.json", "the full-screen player's queue and place, restored when it starts without a path"),
        ("$XDG_DATA_HOME/interlude/playlists/", "saved playlists (M3U8); XDG_DATA_HOME defaults to ~/.local/share"),
        ("$XDG_CACHE_HOME/interlude/library.sqlite", "the music library's index, a cache that may be deleted at any time"),
        ("$XDG_RUNTIME_DIR/interlude/control", "the running player's control socket (interlude remote)"),
    ]

    static let environment: [(name: String, summary: String)] = [
        ("HOME", "the base of the default folders below"),
        ("XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME, XDG_CACHE_HOME", "where the files above are kept"),
        ("XDG_RUNTIME_DIR", "where the control socket is made"),
        ("XDG_MUSIC_DIR", "the music folder, read from ~/.config/user-dirs.dirs (else ~/Music)"),
        ("TERM", "the terminal's type, for the full-screen player's colours"),
        ("TMPDIR", "where temporary files go (default /tmp)"),
        ("TZ", "the time zone alarms ring in (default: /etc/localtime)"),
        ("DBUS_SESSION_BUS_ADDRESS, DBUS_SYSTEM_BUS_ADDRESS", "the buses for MPRIS and for suspend and resume (logind)"),
        ("PULSE_SERVER, PULSE_SINK", "read by libpulse: the sound server and the sink --device pulse plays to"),
    ]
}

/// A man(7) page being written: escaping, and the layout of the help texts.
struct Roff {
    private(set) var text = ""

    mutating func line(_ line: String) { text += line + "\n" }

    /// A new paragraph, but none straight after a heading (which starts one).
    mutating func paragraphBreak() {
        let last = text.split(separator: "\n").last ?? ""
        if !last.hasPrefix(".SH") && !last.hasPrefix(".SS") { line(".PP") }
    }

    mutating func section(_ name: String) { line(".SH " + Self.quoted(name)) }
    mutating func subsection(_ name: String) { line(".SS " + Self.quoted(Self.escaped(name))) }

    /// One synopsis line; the ones after the first start on a line of their own.
    mutating func synopsis(_ name: String, _ arguments: String) {
        if !text.hasSuffix(".SH \"SYNOPSIS\"\n") { line(".br") }
        line(".B \(name)")
        line(arguments)
    }

    mutating func paragraph(_ prose: String) {
        paragraphBreak()
        line(Self.filled(prose))
    }

    /// A tagged paragraph; `term` is already roff.
    mutating func item(term: String, _ description: String) {
        line(".TP")
        line(term)
        line(Self.filled(description))
    }

    /// A help text as the program prints it: usage lines kept as they are, an
    /// indented "TERM  description" list (continuations indented further) as
    /// tagged paragraphs, other indented lines kept as they are, the rest prose.
    mutating func help(_ help: String) {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var prose: [String] = []
        func flushProse() {
            if !prose.isEmpty { paragraph(prose.joined(separator: " ")) }
            prose = []
        }
        while index < lines.count {
            let current = lines[index]
            let indent = current.prefix { $0 == " " }.count
            if Self.trimmed(current).isEmpty {
                flushProse()
                index += 1
            } else if current.hasPrefix("usage:") {
                flushProse()
                var block = [current]
                index += 1
                while index < lines.count, lines[index].hasPrefix(" "), !Self.trimmed(lines[index]).isEmpty {
                    block.append(lines[index])
                    index += 1
                }
                preformatted(block)
            } else if indent > 0, let (term, first, column) = Self.listItem(current) {
                flushProse()
                var description = [first]
                index += 1
                // Continuations start further in than the term; a line at the term's indent is the next item.
                while index < lines.count {
                    let next = lines[index]
                    let nextIndent = next.prefix { $0 == " " }.count
                    guard !Self.trimmed(next).isEmpty, nextIndent > indent,
                          nextIndent >= column || Self.listItem(next) == nil else { break }
                    description.append(Self.trimmed(next))
                    index += 1
                }
                item(term: Self.term(term), description.joined(separator: " "))
            } else if indent > 0 {
                flushProse()
                var block: [String] = []
                while index < lines.count, lines[index].hasPrefix(" "), Self.listItem(lines[index]) == nil {
                    block.append(String(lines[index].dropFirst(indent)))
                    index += 1
                }
                line(".RS")
                preformatted(block)
                line(".RE")
            } else {
                prose.append(Self.trimmed(current))
                index += 1
            }
        }
        flushProse()
    }

    private mutating func preformatted(_ block: [String]) {
        paragraphBreak()
        line(".nf")
        for text in block { line(Self.escaped(text)) }
        line(".fi")
    }

    /// "  --device D          where to play": the term, the description's
    /// first line and the column it starts at; nil for a line without a
    /// gap of two spaces after its first words.
    static func listItem(_ line: String) -> (String, String, Int)? {
        let characters = Array(line)
        let start = characters.firstIndex { $0 != " " } ?? characters.count
        var index = start
        while index + 1 < characters.count {
            if characters[index] == " " && characters[index + 1] == " " {
                let column = characters[index...].firstIndex { $0 != " " } ?? characters.count
                guard column < characters.count else { return nil }
                return (String(characters[start..<index]), String(characters[column...]), column)
            }
            index += 1
        }
        return nil
    }

    /// "--device D": the first word bold, the rest (its value) italic.
    static func term(_ term: String) -> String {
        let words = term.split(separator: " ", maxSplits: 1).map(String.init)
        return bold(words[0]) + (words.count > 1 ? " " + italic(words[1]) : "")
    }

    /// "seek SECONDS", "queue-add PATH...": the name bold, the arguments italic.
    static func usage(_ usage: String) -> String { term(usage) }

    static func bold(_ text: String) -> String { "\\fB" + escaped(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escaped(text) + "\\fR" }

    /// Text for a filled paragraph, escaped and broken at spaces into lines
    /// of at most 78 bytes (mandoc's style check asks for 80), none starting a request.
    static func filled(_ text: String) -> String {
        var lines: [String] = []
        var current = ""
        for word in escaped(text).split(separator: " ") {
            if !current.isEmpty && current.utf8.count + 1 + word.utf8.count > 78 {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String { "\"" + text.replacingAll("\"", with: "\\(dq") + "\"" }

    /// Backslashes and hyphens escaped (a hyphen is a minus sign, so options
    /// copy and paste), characters beyond ASCII named, and a line that would
    /// start with a control character made safe.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7E || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}

extension Roff {
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
