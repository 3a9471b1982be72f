import DesktopIntegration
import Interlude
#if canImport(Glibc)
import Glibc
#endif

// `interlude-docgen WHAT [--version V --date YYYY-MM-DD]`: what `make install`
// and `make deb` install, printed from the command line's and the player's
// tables (see `CommandLineReference`), so it says what `--help` says.
let usage = "usage: interlude-docgen man|bash|zsh|fish|desktop|metainfo [--version V] [--date YYYY-MM-DD]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
var version = "0~unknown"
var date = "1970-01-01"
var what: String?
while !arguments.isEmpty {
    let word = arguments.removeFirst()
    switch word {
    case "--version" where !arguments.isEmpty: version = arguments.removeFirst()
    case "--date" where !arguments.isEmpty: date = arguments.removeFirst()
    case _ where what == nil && !word.hasPrefix("-"): what = word
    default:
        writeStandardError(usage)
        exit(2)
    }
}
let text: String
switch what {
case "man": text = ManualPage.text(version: version, date: date)
case "bash": text = ShellCompletion.bash
case "zsh": text = ShellCompletion.zsh
case "fish": text = ShellCompletion.fish
case "desktop": text = DesktopFiles.desktopEntryFile
case "metainfo": text = DesktopFiles.metainfo(version: version, date: date)
default:
    writeStandardError(usage)
    exit(2)
}
// Only tables' text, no file's: the terminal-safe writer passes it as it is.
writeStandardOutput(text)
exit(0)
