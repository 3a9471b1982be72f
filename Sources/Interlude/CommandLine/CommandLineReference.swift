import Alarms
import MusicLibrary
import PlayerModel
import ReplayGain

/// What a word on the command line may be, for the completions: its finite
/// values where it has them, found when completing (themes, devices, alarm ids).
public enum CommandLineValue: Sendable, Equatable {
    /// Anything the user types (a time, a note, a number).
    case text
    /// Paths, with these words beside them (`--sound`'s built-in tones).
    case files(orWords: [String] = [])
    case words([String])
    /// `interlude themes`: the user's and the shipped ones.
    case themes
    /// `pulse`, `default` and the ALSA devices of the running system.
    case devices
    /// The ids `interlude alarm list` shows.
    case alarmIDs
    /// The control socket's command names (`CommandTable`).
    case remoteCommands
}

/// One option: its name and, when it takes one, its value.
public struct CommandLineOption: Sendable, Equatable {
    public let name: String
    /// Nil for a flag.
    public let value: CommandLineValue?
}

/// A command of the command line (`play`, `alarm add`): its help as `--help`
/// prints it, its options as its parser takes them, what its operands are.
public struct CommandLineCommand: Sendable {
    public let name: String
    /// After the name in the top-level usage ("FILE...|BOOK").
    public let synopsis: String
    /// The top-level usage's line (and the man page's, the completions' descriptions).
    public let summary: String
    /// What `interlude NAME --help` prints.
    public let help: String
    public let options: [CommandLineOption]
    public let operands: CommandLineValue?
    public let subcommands: [CommandLineCommand]
    /// A top-level command's entry, given the words after its name: `CommandRouter`
    /// runs the command it finds here, so nothing runs that the reference lacks.
    let run: (@Sendable ([String]) -> Int32)?

    init(_ name: String, _ synopsis: String, _ summary: String, help: String, spec: ArgumentSpec? = nil,
         options: [String] = [], operands: CommandLineValue? = nil, subcommands: [CommandLineCommand] = [],
         run: (@Sendable ([String]) -> Int32)? = nil) {
        self.name = name
        self.run = run
        self.synopsis = synopsis
        self.summary = summary
        self.help = help
        // The parser's own option set where there is one (sorted, so the outputs are stable),
        // else the named ones; `options` narrows a shared spec to what one subcommand takes.
        let all = (spec.map { $0.valued.union($0.flags) } ?? []).subtracting(["--help", "-h"]).union(options)
        self.options = all.filter { options.isEmpty || options.contains($0) }.sorted().map { name in
            let valued = spec?.valued.contains(name) ?? !CommandLineReference.valueless.contains(name)
            return CommandLineOption(name: name, value: valued ? CommandLineReference.value(of: name) : nil)
        }
        self.operands = operands
        self.subcommands = subcommands
    }
}

/// Every command of the command line, once: the top-level usage is printed
/// from it, and the man page and the bash, zsh and fish completions are made
/// from it and from `CommandTable` (the remote commands, the keys) and
/// `PlayerConfigFile` (the config keys) by `interlude-docgen` at build time,
/// so none of them can say other than `--help` does.
public enum CommandLineReference {
    /// Options without a value where a command has no `ArgumentSpec`.
    static let valueless: Set<String> = ["--json", "--version"]

    /// What an option's value is, by its name (the same name means the same thing everywhere).
    static func value(of option: String) -> CommandLineValue {
        switch option {
        case "--device": .devices
        case "--theme": .themes
        case "--output": .words(["null", "wav:"])
        case "--events": .words(["json"])
        case "--replaygain": .words(ReplayGainMode.allCases.map(\.rawValue))
        case "--repeat": .words(["weekdays", "weekends", "daily"])
        case "--sound": .files(orWords: AlarmSound.builtInTones)
        case "--alarm-sound": .files()
        case "--sort": .words(TrackSort.Column.allCases.map(\.rawValue))
        default: .text
        }
    }

    /// `interlude [PATH...] [options]`: the full-screen player.
    public static var fullScreen: CommandLineCommand {
        CommandLineCommand("", "[PATH...]", "the full-screen player", help: FullScreenCommand.help, spec: FullScreenCommand.spec,
                           operands: .files())
    }

    public static var commands: [CommandLineCommand] {
        [
            CommandLineCommand("play", "FILE...|URL|BOOK", "play files, a station or a book without the TUI (see 'interlude play --help')",
                               help: PlayCommand.help, spec: PlayCommand.spec, operands: .files(), run: PlayCommand.run),
            CommandLineCommand("info", "FILE", "format, duration, bitrate and tags of an audio file",
                               help: InfoCommand.help, spec: InfoCommand.spec, operands: .files(), run: InfoCommand.run),
            CommandLineCommand("alarm", "...", "add, list, remove, enable, disable and skip alarms", help: AlarmCommand.usage,
                               subcommands: [
                                   CommandLineCommand("add", "WHEN", "add an alarm", help: AlarmCommand.addUsage,
                                                      spec: AlarmCommand.addSpec, operands: .text),
                                   CommandLineCommand("list", "", "list the alarms", help: AlarmCommand.listUsage,
                                                      spec: AlarmCommand.listSpec),
                               ] + AlarmCommand.idSubcommands.map { subcommand, what in
                                   CommandLineCommand(subcommand, "ID", what.lowercased(), help: AlarmCommand.idUsage(subcommand, what),
                                                      spec: ArgumentSpec(command: "alarm \(subcommand)"), operands: .alarmIDs)
                               }, run: AlarmCommand.run),
            CommandLineCommand("bookmark", "...", "add, list and delete a book's bookmarks", help: BookmarkCommand.usage,
                               subcommands: [
                                   CommandLineCommand("add", "BOOK", "bookmark a book", help: BookmarkCommand.usage,
                                                      spec: BookmarkCommand.spec, options: ["--at", "--note"], operands: .files()),
                                   CommandLineCommand("list", "BOOK", "a book's bookmarks", help: BookmarkCommand.usage,
                                                      spec: BookmarkCommand.spec, options: ["--json"], operands: .files()),
                                   CommandLineCommand("delete", "BOOK N", "delete a bookmark", help: BookmarkCommand.usage,
                                                      spec: BookmarkCommand.spec, options: ["--json"], operands: .files()),
                               ], run: BookmarkCommand.run),
            CommandLineCommand("service", "", "run the player as the user's service, with no terminal (screens attach to it)",
                               help: PlayerService.help, spec: PlayerService.spec, run: PlayerService.run),
            CommandLineCommand("quit", "", "stop the player (the service and its screens)", help: QuitCommand.help,
                               spec: ArgumentSpec(command: "quit"), run: QuitCommand.run),
            CommandLineCommand("remote", "COMMAND", "control the running player (see 'interlude remote --help')",
                               help: RemoteCommand.usage, spec: RemoteCommand.spec, operands: .remoteCommands,
                               run: RemoteCommand.run),
            CommandLineCommand("library", "scan|stats|search QUERY", "the music library's index (see 'interlude library --help')",
                               help: LibraryCommand.help,
                               subcommands: [
                                   CommandLineCommand("scan", "", "read new and changed files", help: LibraryCommand.help,
                                                      spec: LibraryCommand.spec, options: ["--loudness", "--json"]),
                                   CommandLineCommand("stats", "", "tracks, artists, albums, total time", help: LibraryCommand.help,
                                                      spec: LibraryCommand.spec, options: ["--json"]),
                                   CommandLineCommand("search", "QUERY...", "search the library", help: LibraryCommand.help,
                                                      spec: LibraryCommand.spec, options: ["--sort", "--reverse", "--limit", "--json"],
                                                      operands: .text),
                               ], run: LibraryCommand.run),
            CommandLineCommand("podcast", "...", "podcast subscriptions (see 'interlude podcast --help')",
                               help: PodcastCommand.help,
                               subcommands: [
                                   CommandLineCommand("add", "URL", "subscribe to a feed", help: PodcastCommand.help,
                                                      spec: ArgumentSpec(command: "podcast add"), operands: .text),
                                   CommandLineCommand("list", "[NAME]", "the podcasts, or one podcast's episodes", help: PodcastCommand.help,
                                                      spec: PodcastCommand.spec, options: ["--json"], operands: .text),
                                   CommandLineCommand("refresh", "[NAME...]", "fetch what changed in the feeds", help: PodcastCommand.help,
                                                      spec: PodcastCommand.spec, options: ["--parallel"], operands: .text),
                                   CommandLineCommand("remove", "NAME", "unsubscribe", help: PodcastCommand.help,
                                                      spec: ArgumentSpec(command: "podcast remove"), operands: .text),
                                   CommandLineCommand("import", "FILE", "subscribe to an OPML file's feeds", help: PodcastCommand.help,
                                                      spec: PodcastCommand.spec, options: ["--parallel"], operands: .files()),
                                   CommandLineCommand("export", "[FILE]", "the subscriptions as OPML", help: PodcastCommand.help,
                                                      spec: ArgumentSpec(command: "podcast export"), operands: .files()),
                                   // play takes play's options, which its help leaves to 'interlude play --help': none listed here.
                                   CommandLineCommand("play", "NAME [EPISODE]", "play an episode as a book", help: PodcastCommand.help,
                                                      operands: .text),
                                   CommandLineCommand("download", "NAME [EPISODE]", "download an episode", help: PodcastCommand.help,
                                                      spec: ArgumentSpec(command: "podcast download"), operands: .text),
                               ], run: PodcastCommand.run),
            CommandLineCommand("bench", "decode FILE", "decode speed in seconds of audio per CPU second", help: BenchCommand.help,
                               subcommands: [
                                   CommandLineCommand("decode", "FILE", "decode speed", help: BenchCommand.help,
                                                      spec: ArgumentSpec(command: "bench decode"), operands: .files()),
                                   CommandLineCommand("seek", "FILE", "seek times", help: BenchCommand.help,
                                                      spec: ArgumentSpec(command: "bench seek", valued: ["--points"]), operands: .files()),
                                   CommandLineCommand("cover", "FILE", "the CPU a cover takes to draw", help: BenchCommand.help,
                                                      spec: ArgumentSpec(command: "bench cover"), operands: .files()),
                                   CommandLineCommand("feed", "FILE", "the CPU a podcast feed takes to read", help: BenchCommand.help,
                                                      spec: ArgumentSpec(command: "bench feed", valued: ["--runs"]), operands: .files()),
                               ], run: BenchCommand.run),
            CommandLineCommand("loudness", "FILE...", "EBU R 128 loudness and the ReplayGain gain to -18 LUFS (writes nothing)",
                               help: LoudnessCommand.help, spec: LoudnessCommand.spec, operands: .files(), run: LoudnessCommand.run),
            CommandLineCommand("themes", "", "the colour themes --theme takes", help: ThemesCommand.help,
                               spec: ThemesCommand.spec, run: ThemesCommand.run),
            CommandLineCommand("help", "", "this text", help: "") { _ in
                writeStandardOutput(CommandRouter.usage + "\n")
                return 0
            },
        ]
    }

    /// Top-level options that are not the full-screen player's.
    public static let generalOptions: [(name: String, summary: String)] = [
        ("--help", "this text (also -h)"),
        ("--help-player", "the full-screen player's options"),
        ("--version", "the version: the tree it was built from, as the package and the man page give it"),
    ]

    /// The top-level usage's command list, aligned as it always was.
    static var commandLines: String {
        commands.map { command in
            let left = command.synopsis.isEmpty ? command.name : command.name + " " + command.synopsis
            return "  " + left + String(repeating: " ", count: max(3, 20 - left.count)) + command.summary
        }.joined(separator: "\n")
    }
}

extension CommandLineCommand {
    /// The line of the help that describes `option` ("--device D   where to play: ..."),
    /// its first line only, for the completions' descriptions; empty when the help has none.
    public func summary(of option: String) -> String {
        for line in help.split(separator: "\n").map(String.init) {
            guard let (term, first, _) = Roff.listItem(line), term.split(separator: " ").first.map(String.init) == option
            else { continue }
            return first
        }
        return ""
    }

    /// The options that take a value, their names.
    var valuedOptions: [String] { options.filter { $0.value != nil }.map(\.name) }
}

extension CommandLineReference {
    /// Every option that takes a value, in any command (a name means the same everywhere).
    static var allValuedOptions: [String] {
        var names: Set<String> = []
        func visit(_ command: CommandLineCommand) {
            names.formUnion(command.valuedOptions)
            command.subcommands.forEach(visit)
        }
        ([fullScreen] + commands).forEach(visit)
        return names.sorted()
    }

    /// The socket's commands that take paths, whose later words complete to files.
    static var remoteCommandsTakingPaths: [String] {
        RemoteVocabulary.entries.filter { $0.arguments.contains { $0.kind == .path } }.map(\.name)
    }
}
