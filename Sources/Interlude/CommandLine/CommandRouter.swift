#if canImport(Glibc)
import Glibc
#endif
import BookFormat
import CInterludeShims
import InterludeCore

/// The top-level command line: `interlude COMMAND ...`.
public enum CommandRouter {
    /// The command list from `CommandLineReference`, which the man page and completions read too.
    public static let usage = """
    usage: interlude [PATH...] [--theme NAME] [--device D] ...
           interlude COMMAND [ARGS...]
           interlude --version

    Without a command, on a terminal: the full-screen player on the files or
    folder given, or on the music folder (see 'interlude --help-player').

    commands:
    \(CommandLineReference.commandLines)

    'interlude COMMAND --help' describes each command.
    """

    /// `interlude --version`: "interlude " and the version of the tree make built (`scripts/version.sh`).
    public static var version: String { "interlude " + String(cString: interlude_version()) }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        // A reader that left (`interlude play --events json | head -1`) is an
        // EPIPE for the writer to handle, keeping the place, not a death by signal.
        signal(SIGPIPE, SIG_IGN)
        guard let command = arguments.first else {
            if isatty(0) != 0 && isatty(1) != 0 { return FullScreenCommand.run([]) }
            writeStandardError(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        // Every command runs from the one reference the usage, the man page and the completions are made from.
        if let run = CommandLineReference.commands.first(where: { $0.name == command })?.run { return run(rest) }
        switch command {
        case "--version":
            writeStandardOutput(version + "\n")
            return 0
        case "--help-player":
            writeStandardOutput(FullScreenCommand.help + "\n")
            return 0
        case "--help", "-h":
            writeStandardOutput(usage + "\n")
            return 0
        default:
            // A path or an option: the full-screen player.
            // (Or what looks like one, so a mistyped file is reported as a file, not a command.)
            if command.hasPrefix("-") || access(command, F_OK) == 0 || command.contains("/")
                || AudioFileNames.isAudio(command) {
                return FullScreenCommand.run(arguments)
            }
            writeStandardError("interlude: unknown command '\(command)' (see 'interlude help')\n")
            return 2
        }
    }
}

/// Unbuffered writes to the standard streams; no Foundation needed. Every
/// text printed goes through these two, and what it holds of tags, file
/// names and labels may hold terminal escapes: control characters are shown
/// escaped (`TerminalText`), so nothing from a file reaches the terminal raw.
/// `clearingLine`: the line is first cleared with our own `CR ESC [ K` (a
/// progress line), sent as it is.
public func writeStandardError(_ text: String, clearingLine: Bool = false) {
    var text = (clearingLine ? "\r\u{1B}[K" : "") + TerminalText.escaped(text)
    text.withUTF8 { bytes in writeAll(fd: 2, bytes) }
}

public func writeStandardOutput(_ text: String) {
    var text = TerminalText.escaped(text)
    text.withUTF8 { bytes in writeAll(fd: 1, bytes) }
}

private func writeAll(fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
        // A closed or full stream has nowhere to report its own failure: stop writing.
        guard let written = try? SystemCall.retrying({ write(fd, base, remaining) }) else { return }
        remaining -= written
        base += written
    }
}
