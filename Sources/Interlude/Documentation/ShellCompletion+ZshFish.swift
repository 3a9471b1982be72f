import PlayerModel

extension ShellCompletion {
    // MARK: zsh

    public static var zsh: String {
        var lines = [
            "#compdef interlude",
            "# \(header)",
            "",
            "_interlude_themes() { local -a names; names=(${(f)\"$($_interlude_program themes 2>/dev/null)\"}); compadd -a names }",
            "_interlude_devices() {",
            "  local -a devices; devices=(pulse default ${(f)\"$(aplay -L 2>/dev/null | grep -v '^[[:space:]]')\"})",
            "  compadd -a devices",
            "}",
            "_interlude_alarm_ids() {",
            "  local -a ids; ids=(${(f)\"$($_interlude_program alarm list 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1 }')\"})",
            "  compadd -a ids",
            "}",
            "_interlude_remote_commands() {",
            "  local -a commands; commands=(",
        ]
        for entry in RemoteVocabulary.entries { lines.append("    " + singleQuoted(entry.name + ":" + zshEscaped(entry.summary))) }
        lines += [
            "  )",
            "  _describe -t commands 'remote command' commands",
            "}",
            "_interlude_remote_arguments() {",
            "  case $words[1] in",
            "    \(CommandLineReference.remoteCommandsTakingPaths.joined(separator: "|"))) _files ;;",
            "  esac",
            "}",
            "",
        ]
        for (path, command) in paths {
            lines.append("\(zshFunction(path))() {")
            if !command.subcommands.isEmpty {
                lines.append("  if (( CURRENT == 2 )); then")
                lines.append("    local -a subcommands; subcommands=(")
                for subcommand in command.subcommands {
                    lines.append("      " + singleQuoted(subcommand.name + ":" + zshEscaped(subcommand.summary)))
                }
                lines += ["    )", "    _describe -t commands 'interlude \(path) subcommand' subcommands", "    return", "  fi",
                          "  shift words; (( CURRENT-- ))", "  case $words[1] in"]
                for subcommand in command.subcommands {
                    lines.append("    \(subcommand.name)) \(zshFunction(path + " " + subcommand.name)) ;;")
                }
                lines += ["  esac", "}"]
                continue
            }
            var specs = command.options.map { option in zshSpec(option, command.summary(of: option.name)) }
            if path.isEmpty {
                specs += CommandLineReference.generalOptions.map { singleQuoted("(- *)" + $0.name + "[" + zshEscaped($0.summary) + "]") }
            }
            switch command.operands {
            case .remoteCommands?:
                specs += [singleQuoted("1:remote command:_interlude_remote_commands"), singleQuoted("*::argument:_interlude_remote_arguments")]
            case let operands?:
                specs.append(singleQuoted("*:" + zshMessage(operands) + ":" + zshAction(operands)))
            case nil:
                break
            }
            if path.isEmpty {
                lines += ["  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then",
                          "    local -a commands; commands=("]
                for subcommand in CommandLineReference.commands {
                    lines.append("      " + singleQuoted(subcommand.name + ":" + zshEscaped(subcommand.summary)))
                }
                lines += ["    )", "    _describe -t commands 'interlude command' commands", "  fi"]
            }
            lines.append("  _arguments -s -S \\")
            lines += specs.map { "    " + $0 + " \\" }
            lines.append("    && return 0")
            lines.append("}")
        }
        lines += [
            "",
            "_interlude() {",
            "  local _interlude_program=$words[1]",
            "  case $words[2] in",
        ]
        for command in CommandLineReference.commands {
            lines.append("    \(command.name)) shift words; (( CURRENT-- )); \(zshFunction(command.name)) ;;")
        }
        lines += [
            "    *) \(zshFunction("")) ;;",
            "  esac",
            "}",
            "",
            "_interlude \"$@\"",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func zshFunction(_ path: String) -> String {
        // Apart from the helpers' names (`_interlude_themes` completes theme names, not `interlude themes`).
        path.isEmpty ? "_interlude_player" : "_interlude_command_" + path.split(separator: " ").joined(separator: "_")
    }

    /// Text for a description inside `[...]` or after `name:`: brackets and colons would end it.
    static func zshEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "[", "]", ":", "\\": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }

    static func zshSpec(_ option: CommandLineOption, _ summary: String) -> String {
        let head = option.name + "[" + zshEscaped(summary) + "]"
        guard let value = option.value else { return singleQuoted(head) }
        return singleQuoted(head + ":" + zshMessage(value) + ":" + zshAction(value))
    }

    static func zshMessage(_ value: CommandLineValue) -> String {
        switch value {
        case .text: "value"
        case .files: "file"
        case .words: "value"
        case .themes: "theme"
        case .devices: "device"
        case .alarmIDs: "alarm id"
        case .remoteCommands: "remote command"
        }
    }

    static func zshAction(_ value: CommandLineValue) -> String {
        switch value {
        case .text: " "
        case .files(let words): words.isEmpty ? "_files" : "{_files; compadd \(words.joined(separator: " "))}"
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case .themes: "_interlude_themes"
        case .devices: "_interlude_devices"
        case .alarmIDs: "_interlude_alarm_ids"
        case .remoteCommands: "_interlude_remote_commands"
        }
    }

    // MARK: fish

    public static var fish: String {
        var lines = [
            "# fish completion for interlude",
            "# \(header)",
            "",
            "# The command path before the cursor: \"\", \"play\", \"alarm add\"; then how many operands follow it.",
            "function __interlude_path",
            "    set -l words (commandline -opc)",
            "    set -l path ''",
            "    set -l operands 0",
            "    set -l skip 0",
            "    for word in $words[2..-1]",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case \(CommandLineReference.allValuedOptions.joined(separator: " "))",
            "                set skip 1",
            "                continue",
            "            case '-*'",
            "                continue",
            "        end",
            "        switch \"$operands:$path:$word\"",
        ]
        for (path, _) in paths where !path.isEmpty {
            let parts = path.split(separator: " ")
            lines += ["            case \(singleQuoted("0:\(parts.dropLast().joined(separator: " ")):\(parts.last!)"))",
                      "                set path \(singleQuoted(path))"]
        }
        lines += [
            "            case '*'",
            "                set operands (math $operands + 1)",
            "        end",
            "    end",
            "    echo $path",
            "    echo $operands",
            "end",
            "function __interlude_at",
            "    set -l state (__interlude_path)",
            "    test \"$state[1]\" = \"$argv[1]\"; or return 1",
            "    test (count $argv) -lt 2; or test \"$state[2]\" = $argv[2]",
            "end",
            "function __interlude_program",
            "    set -l words (commandline -opc)",
            "    echo $words[1]",
            "end",
            "function __interlude_themes",
            "    set -l program (__interlude_program)",
            "    command -q -- $program; and command $program themes 2>/dev/null",
            "end",
            "function __interlude_devices",
            "    printf '%s\\n' pulse default",
            "    aplay -L 2>/dev/null | string match -rv '^\\s'",
            "end",
            "function __interlude_alarm_ids",
            "    set -l program (__interlude_program)",
            "    command -q -- $program; and command $program alarm list 2>/dev/null | string match -r '^[0-9]+'",
            "end",
            "",
            "complete -c interlude -f",
        ]
        for (path, command) in paths {
            let at = "__interlude_at \(singleQuoted(path))"
            let subcommands = path.isEmpty ? CommandLineReference.commands : command.subcommands
            for subcommand in subcommands {
                lines.append("complete -c interlude -n \(singleQuoted(at + " 0")) -a \(subcommand.name) -d \(singleQuoted(subcommand.summary))")
            }
            for option in command.options {
                var line = "complete -c interlude -n \(singleQuoted(at)) -l \(option.name.dropFirst(2))"
                let summary = command.summary(of: option.name)
                if let value = option.value {
                    line += " -r"
                    switch value {
                    case .files(let words): line += " -F" + (words.isEmpty ? "" : " -a \(singleQuoted(words.joined(separator: " ")))")
                    case .words(let words): line += " -x -a \(singleQuoted(words.joined(separator: " ")))"
                    case .themes: line += " -x -a '(__interlude_themes)'"
                    case .devices: line += " -x -a '(__interlude_devices)'"
                    case .alarmIDs: line += " -x -a '(__interlude_alarm_ids)'"
                    case .text, .remoteCommands: line += " -x"
                    }
                }
                if !summary.isEmpty { line += " -d \(singleQuoted(summary))" }
                lines.append(line)
            }
            if path.isEmpty {
                for option in CommandLineReference.generalOptions {
                    lines.append("complete -c interlude -n \(singleQuoted(at + " 0")) -l \(option.name.dropFirst(2)) -d \(singleQuoted(option.summary))")
                }
            }
            switch command.operands {
            case .remoteCommands?:
                for entry in RemoteVocabulary.entries {
                    lines.append("complete -c interlude -n \(singleQuoted(at + " 0")) -a \(entry.name) -d \(singleQuoted(entry.summary))")
                }
                for name in CommandLineReference.remoteCommandsTakingPaths {
                    lines.append("complete -c interlude -n \(singleQuoted("__interlude_at remote; and contains -- \(name) (commandline -opc)")) -F")
                }
            case .files?: lines.append("complete -c interlude -n \(singleQuoted(at)) -F")
            case .alarmIDs?: lines.append("complete -c interlude -n \(singleQuoted(at)) -a '(__interlude_alarm_ids)'")
            default: break
            }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
