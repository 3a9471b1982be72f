import PlayerModel
import LoopIO
import InterludeCore
import Themes

/// `interlude themes`: the names `--theme` takes, one a line, as the
/// full-screen player finds them (the user's folder, then the shipped ones);
/// the shells' completions of `--theme` read it.
enum ThemesCommand {
    static let help = """
    usage: interlude themes [--paths]

    Lists the colour themes the full-screen player takes, one name a line,
    default first: yours in $XDG_CONFIG_HOME/interlude/themes (a theme there
    hides a shipped one of the same name), then the shipped ones in
    PREFIX/share/interlude/themes beside the binary (PREFIX/bin/interlude).
      --paths    also the file each name reads, after a tab (default: built in)
    """

    static let spec = ArgumentSpec(command: "themes", flags: ["--paths"])

    static func run(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch spec.start(arguments, help: help) {
        case .parsed(let arguments): parsed = arguments
        case .finished(let status): return status
        }
        guard parsed.positionals.isEmpty else {
            writeStandardError("interlude themes: unexpected '\(parsed.positionals[0])' (see 'interlude themes --help')\n")
            return 2
        }
        let directories = XDGDirectories(environment: ProcessEnvironment.current())
        let catalog = ThemeCatalog(directories: ThemeDirectories.standard(configHome: directories.configHome,
                                                                          executablePath: FullScreenPlayer.executablePath()))
        let lines = catalog.names().map { name in
            parsed.has("--paths") ? name + "\t" + (catalog.path(of: name) ?? "built in") : name
        }
        writeStandardOutput(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
