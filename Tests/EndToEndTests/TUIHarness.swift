import Foundation
import Testing
import TestSupport
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player in a private tmux server: keys in with
/// `send-keys`, the screen out with `capture-pane`.
///
/// Audio goes to a PulseAudio null sink (`--device pulse`), not to
/// `--output null`: the null and WAV sinks render on a frame clock as fast
/// as they can, so a 20 s track would end in milliseconds and a "3 s" alarm
/// would ring at once. The pulse null sink plays in real time, which is what
/// someone at the keyboard sees.
///
/// The player runs under `bash`, so after it exits the pane stays, showing
/// `EXITED <status>` and whatever the terminal looks like then.
final class TUISession {
    let socket: String
    let directory: String
    let configHome: String
    /// The null sink the player plays to (unless the environment sends it elsewhere).
    let sink: NullSink
    /// `XDG_RUNTIME_DIR` of the player: its control socket is under it.
    var runtimeDirectory: String { "\(directory)/run" }
    /// The command that started the player (environment included), to start it again in the same pane.
    private(set) var commandLine = ""
    /// `interlude` with the player's environment and no arguments: what a user types to attach another screen.
    private(set) var interludeCommand = ""
    /// `XDG_RUNTIME_DIR` as the player got it (a test may hand it another's).
    private(set) var playerRuntimeDirectory = ""
    /// Whether each step is checked against the engine (`TUIEngineAgreement`):
    /// the full-screen player's status line carries the state word; the
    /// headless `play` has none.
    let checksEngineAgreement: Bool
    var engineChecks = 0
    /// Checks whose player answered while the screen showed no state word, and
    /// checks that found the word and the engine settled and agreeing: a
    /// session with the first and none of the second is reported, since its
    /// checks compared nothing (the status line's format changed, say).
    var wordlessReads = 0
    var engineComparisons = 0
    var cachedPlayerPID: Int32?

    /// Whether the screen attaches to the player service (`interlude` as a
    /// user types it), rather than a player of its own in the foreground
    /// (`--foreground`, the screen's tests: the player is the pane's child).
    let attachesToService: Bool

    /// Starts the player at `columns`x`rows` with `arguments`.
    init(columns: Int, rows: Int, arguments: [String], environment: [String: String] = [:], standardInput: String? = nil,
         service: Bool = false,
         sourceLocation: SourceLocation = #_sourceLocation, configure: (String) throws -> Void = { _ in }) throws {
        creation = sourceLocation
        attachesToService = service
        // A screen of the service is not the player's own: its word is checked by its tests against `status`.
        checksEngineAgreement = arguments.first != "play" && !service
        directory = ScratchFiles.makeDirectory("tui")
        socket = "\(directory)/tmux.sock"
        configHome = "\(directory)/config"
        try FileManager.default.createDirectory(atPath: configHome + "/interlude/themes", withIntermediateDirectories: true)
        try configure(configHome)
        let sink = try PulseServer.shared().makeSink()
        self.sink = sink
        sinkRemoval = { sink.remove() }
        var variables = sink.environment
        variables["XDG_CONFIG_HOME"] = configHome
        variables["XDG_STATE_HOME"] = "\(directory)/state"
        // The library's index (a cache) stays with the test, never in the user's ~/.cache.
        variables["XDG_CACHE_HOME"] = "\(directory)/cache"
        // Each player its own control socket's place: players of tests running side
        // by side must not hand their files to each other (one player per user).
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        variables["XDG_RUNTIME_DIR"] = runtimeDirectory
        variables["LANG"] = "C.UTF-8"
        variables["TZ"] = "UTC"
        for (key, value) in environment { variables[key] = value }
        playerRuntimeDirectory = variables["XDG_RUNTIME_DIR"] ?? runtimeDirectory
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let foreground = !service && arguments.first != "play" ? ["--foreground"] : []
        interludeCommand = "env " + assignments.joined(separator: " ") + " " + Self.quoted(InterludeBinary.path())
        let command = "env " + assignments.joined(separator: " ") + " " + Self.quoted(InterludeBinary.path()) + " "
            + (arguments + ["--device", "pulse"] + foreground).map(Self.quoted).joined(separator: " ")
            + (standardInput.map { " < " + Self.quoted($0) } ?? "")
        commandLine = command
        // -u: the tmux server is told the terminal is UTF-8, so wide characters keep their two columns.
        try tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "bash", "--norc", "--noprofile"])
        try tmux(["set-option", "-g", "status", "off"])
        try tmux(["send-keys", "-l", "stty sane; PS1='$ '; clear; " + command + "; echo EXITED $?"])
        try tmux(["send-keys", "Enter"])
    }

    private var sinkRemoval: () -> Void = {}
    /// Where the test made the session: the end-of-session check's issue points there.
    private let creation: SourceLocation

    deinit {
        // The session's end is a step too: whatever the test left running must agree.
        expectScreenAgreesWithEngine(step: "end of the session", sourceLocation: creation)
        if wordlessReads > 0 && engineComparisons == 0 {
            let why = "the engine answered \(wordlessReads) time(s) with no state word on screen, and no word was ever "
                + "compared with it:\n\(screen())"
            Issue.record(Comment(rawValue: why), sourceLocation: creation)
        }
        _ = try? ProcessRunner.run("tmux", ["-u", "-S", socket, "kill-server"], timeout: 10)
        // A service the screen started outlives its tmux server: stopped by the pid it recorded.
        if attachesToService { ScratchFiles.stopPlayerServices(below: directory) }
        sinkRemoval()
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", ["-u", "-S", socket] + arguments, environment: ["LANG": "C.UTF-8"], timeout: 10)
    }

    /// Key names as tmux knows them: "a", "Enter", "Space", "C-z", "Tab", "Left".
    /// Then the state word must agree with the engine (`expectScreenAgreesWithEngine`).
    func press(_ keys: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        for key in keys { try tmux(["send-keys", key]) }
        expectScreenAgreesWithEngine(step: "press " + keys.joined(separator: " "), sourceLocation: sourceLocation)
    }

    /// Text typed as it is; then the state word is checked as after `press`.
    func type(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        // "--": text that starts with "-" ("-10") is typed, not read as tmux's options.
        try tmux(["send-keys", "-l", "--", text])
        expectScreenAgreesWithEngine(step: "type \"\(text.count > 40 ? text.prefix(40) + "..." : text)\"",
                                     sourceLocation: sourceLocation)
    }

    /// The screen as text, one line per row (tmux trims trailing spaces).
    func screen(escapes: Bool = false) -> String {
        (try? tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : [])).stdoutText) ?? ""
    }

    var lines: [String] { Self.rows(screen()) }

    /// The screen's rows (capture-pane ends the last one with a newline too).
    static func rows(_ screen: String) -> [String] {
        var rows = screen.components(separatedBy: "\n")
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-x", String(columns), "-y", String(rows)])
    }

    /// Polls the screen until `condition` holds or `timeout` passes; returns the last screen.
    @discardableResult
    func waitFor(_ timeout: Double = 15, _ condition: (String) -> Bool) -> (met: Bool, screen: String) {
        let deadline = monotonicSeconds() + timeout
        var text = screen()
        while monotonicSeconds() < deadline {
            if condition(text) { return (true, text) }
            usleep(50_000)
            text = screen()
        }
        return (condition(text), text)
    }

    func waitFor(_ text: String, timeout: Double = 15) -> (met: Bool, screen: String) {
        waitFor(timeout) { $0.contains(text) }
    }

    /// The player's process id: the child of the pane's shell, or the service the screen attached to.
    func playerPID() throws -> Int32? {
        if attachesToService { return servicePID() }
        let shell = try tmux(["display-message", "-p", "#{pane_pid}"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try ProcessRunner.run("pgrep", ["-P", shell], timeout: 5).stdoutText
        return children.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// The pid the player service recorded in its runtime folder, while it runs.
    func servicePID() -> Int32? {
        guard let text = try? String(contentsOfFile: playerRuntimeDirectory + "/interlude/service.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0 else { return nil }
        return pid
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Event-log lines on screen whose text contains `text`.
    static func logLines(_ screen: String, containing text: String) -> [String] {
        screen.components(separatedBy: "\n").filter { $0.contains(text) }
    }

    /// The time printed at the start of a log line (after the pane separator).
    static func logTime(_ line: String) -> Double? {
        guard let bar = line.range(of: "│") else { return nil }
        return line[bar.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    }

    /// The elapsed time in the now-playing pane ("0:07 / 0:30"), in seconds.
    static func elapsed(_ screen: String) -> Int? {
        for line in screen.components(separatedBy: "\n") where line.contains(" / ") && line.contains("--") || line.contains("==") {
            let words = line.split(separator: " ")
            guard let slash = words.firstIndex(of: "/"), slash > 0 else { continue }
            let parts = words[slash - 1].split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 { return parts[0] * 60 + parts[1] }
        }
        return nil
    }
}

/// MP3s with ID3v2 tags written by lame at test time (UTF-16 frames, so CJK titles survive).
enum TaggedLibrary {
    struct Track { var folder: String; var file: String; var title: String; var artist: String }

    static let standard: [Track] = [
        Track(folder: "Tones", file: "1 Morning.mp3", title: "Morning", artist: "Interlude"),
        Track(folder: "Tones", file: "2 Noon.mp3", title: "Noon", artist: "Interlude"),
        Track(folder: "唐詩", file: "1.mp3", title: "静夜思", artist: "李白"),
        Track(folder: "唐詩", file: "2.mp3", title: "春晓 孟浩然の詩", artist: "孟浩然"),
        Track(folder: "日本", file: "1.mp3", title: "さくらさくら", artist: "日本古謡"),
        Track(folder: "日本", file: "2.mp3", title: "ふるさと 🎵", artist: "高野辰之"),
    ]

    /// A library folder with the tracks, each `seconds` long.
    static func make(_ tracks: [Track] = standard, seconds: Double = 30) throws -> String {
        let root = ScratchFiles.makeDirectory("library")
        let wav = try Fixtures.wav(.tone(frequency: 330), seconds: seconds)
        for track in tracks {
            let folder = "\(root)/\(track.folder)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try ProcessRunner.check("lame", ["--quiet", "-b", "64", "--id3v2-only", "--id3v2-utf16", "--tt", track.title,
                                             "--ta", track.artist, "--tl", track.folder, wav, "\(folder)/\(track.file)"],
                                    timeout: 60)
        }
        return root
    }
}

/// Display columns of a screen line, as the player measures them.
func displayWidth(_ line: String) -> Int {
    _ = TextWidth.prepareLocale()
    return TextWidth.columns(of: line)
}
