import DesktopIntegration
import Interlude
import PlayerModel
import Testing

/// The man page and the completions are only as true as `CommandLineReference`:
/// its options are each parser's own, and here each one is named in the help
/// the command prints, and every option its help names is one its parser takes.
@Suite struct CommandLineReferenceTests {
    static var everyCommand: [CommandLineCommand] {
        var all: [CommandLineCommand] = []
        func visit(_ command: CommandLineCommand) {
            all.append(command)
            command.subcommands.forEach(visit)
        }
        ([CommandLineReference.fullScreen] + CommandLineReference.commands).forEach(visit)
        return all
    }

    /// "--device", "--json" in a help text, as words (not inside "wav:PATH").
    static func options(in help: String) -> Set<String> {
        var found: Set<String> = []
        let characters = Array(help)
        var index = 0
        while index + 2 < characters.count {
            let starts = characters[index] == "-" && characters[index + 1] == "-" && characters[index + 2].isLetter
                && (index == 0 || " [(\n".contains(characters[index - 1]))
            guard starts else { index += 1; continue }
            var end = index + 2
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "-" { end += 1 }
            found.insert(String(characters[index..<end]))
            index = end
        }
        return found
    }

    /// The options a help lists as its own: each line that starts with one
    /// ("  --device D   where to play"), each "[--json]" of its usage lines
    /// (not one named in passing, as "see 'interlude play --bookmark N'").
    static func listedOptions(in help: String) -> Set<String> {
        var listed: Set<String> = []
        var inUsage = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            inUsage = line.hasPrefix("usage:") || (inUsage && line.hasPrefix(" "))
            if trimmed.hasPrefix("--") { listed.insert(String(trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "-" })) }
            if inUsage {
                for piece in line.split(separator: "[").dropFirst() where piece.hasPrefix("--") {
                    listed.insert(String(piece.prefix { $0.isLetter || $0.isNumber || $0 == "-" }))
                }
            }
        }
        return listed
    }

    @Test("every option a parser takes is in its command's help", arguments: everyCommand.map { ($0.name, $0) })
    func everyOptionIsInTheHelp(name: String, command: CommandLineCommand) {
        let named = Self.options(in: command.help)
        for option in command.options { #expect(named.contains(option.name), "\(name): \(option.name) is not in its --help") }
    }

    @Test("every option a help text lists is one its parser takes")
    func everyOptionInAHelpIsTaken() {
        for command in Self.everyCommand where !command.options.isEmpty {
            let taken = Set(command.options.map(\.name))
            // A help shared by subcommands names the others' options too; the full-screen player's names play's.
            let siblings = CommandLineReference.commands.first { $0.subcommands.contains { $0.help == command.help } }
            let shared = Set((siblings?.subcommands ?? []).flatMap { $0.options.map(\.name) })
            let listed = Self.listedOptions(in: command.help)
            #expect(listed.subtracting(taken).subtracting(shared).isEmpty,
                    "\(command.name): --help names \(listed.subtracting(taken).subtracting(shared).sorted()), its parser does not take them")
        }
    }

    /// The subcommands a command's help gives usage lines for ("interlude podcast play NAME" -> "play"),
    /// in the order it gives them.
    static func usageSubcommands(of command: String, in help: String) -> [String] {
        var names: [String] = []
        var inUsage = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            inUsage = line.hasPrefix("usage:") || (inUsage && line.hasPrefix(" "))
            guard inUsage, let range = line.range(of: "interlude \(command) ") else { continue }
            let word = String(line[range.upperBound...].prefix { $0.isLetter })
            if !word.isEmpty && !names.contains(word) { names.append(word) }
        }
        return names
    }

    @Test("a command's subcommands in the reference (the completions', the man page's) are those its help's usage gives")
    func everySubcommandInAHelpIsInTheReference() {
        for command in CommandLineReference.commands where !command.subcommands.isEmpty {
            let inHelp = Self.usageSubcommands(of: command.name, in: command.help)
            #expect(!inHelp.isEmpty, "\(command.name): its help has no usage lines")
            #expect(Set(inHelp) == Set(command.subcommands.map(\.name)),
                    "\(command.name): --help gives \(inHelp), the reference \(command.subcommands.map(\.name))")
        }
        let podcast = CommandLineReference.commands.first { $0.name == "podcast" }
        #expect(podcast?.subcommands.map(\.name).contains("play") == true && podcast?.subcommands.map(\.name).contains("download") == true)
    }

    @Test func theTopLevelUsageListsEveryCommandWithItsSummary() {
        for command in CommandLineReference.commands {
            #expect(CommandRouter.usage.contains("  \(command.name)"), "\(command.name)")
            #expect(CommandRouter.usage.contains(command.summary), "\(command.name)")
        }
    }

    @Test func theDesktopEntryIsATerminalProgramNamedAsMprisSaysIt() {
        let lines = DesktopFiles.desktopEntryFile.split(separator: "\n")
        #expect(lines.contains("Terminal=true"))
        #expect(lines.contains("Name=\(DesktopFiles.identity)"))
        #expect(DesktopFiles.desktopEntry == "interlude")
    }

    @Test func theUserUnitStartsTheServiceByTheBinarysAbsolutePathAndRefusesOneSystemdWouldReadOtherwise() throws {
        let unit = try #require(UserServiceUnit.serviceFile(binary: "/opt/interlude/bin/interlude"))
        let lines = unit.split(separator: "\n")
        #expect(lines.contains("ExecStart=/opt/interlude/bin/interlude service"))
        #expect(lines.contains("Restart=on-failure") && lines.contains("WantedBy=default.target"))
        #expect(UserServiceUnit.serviceName == "interlude.service")
        for path in ["interlude", "bin/interlude", "/home/a b/interlude", "/home/100%/interlude", "/x\"y/interlude",
                     "/x\\y/interlude", "/x\ty/interlude", "/x'y/interlude"] {
            #expect(UserServiceUnit.serviceFile(binary: path) == nil, "\(path)")
        }
        #expect(UserServiceUnit.serviceFile(binary: "/home/ä/.local/bin/interlude") != nil)
    }
}
