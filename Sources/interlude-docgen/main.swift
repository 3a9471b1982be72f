import DesktopIntegration
import Interlude
#if canImport(Glibc)
import Glibc
#endif

// `interlude-docgen WHAT [--version V --date YYYY-MM-DD] [--bindir DIR]`: what
// `make install` and `make deb` install, printed from the command line's and
// the player's tables (see `CommandLineReference`), so it says what `--help`
// says; the systemd user unit with the installed binary's folder.
let usage = "usage: interlude-docgen man|bash|zsh|fish|desktop|metainfo|service [--version V] [--date YYYY-MM-DD] [--bindir DIR]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
var version = "0~unknown"
var date = "1970-01-01"
var bindir = "/usr/local/bin"
var what: String?
while !arguments.isEmpty {
    let word = arguments.removeFirst()
    switch word {
    case "--version" where !arguments.isEmpty: version = arguments.removeFirst()
    case "--date" where !arguments.isEmpty: date = arguments.removeFirst()
    case "--bindir" where !arguments.isEmpty: bindir = arguments.removeFirst()
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
case "service":
    guard let unit = UserServiceUnit.serviceFile(binary: (bindir.hasSuffix("/") ? String(bindir.dropLast()) : bindir) + "/interlude") else {
        writeStandardError("interlude-docgen: --bindir must be an absolute path without spaces, quotes, backslashes or %\n")
        exit(2)
    }
    text = unit
default:
    writeStandardError(usage)
    exit(2)
}
// Only tables' text, no file's: the terminal-safe writer passes it as it is.
writeStandardOutput(text)
exit(0)
