import LoopIO
import Core
import AudioEngine
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `interlude play`: the player runtime without the full-screen UI. Commands
/// come one word per line on standard input, translated into player commands
/// (`StandardInputVocabulary`); a progress line goes to stderr when it is a
/// terminal.
final class HeadlessPlayer: PlayerHost {
    let options: PlayCommand.Options
    let events: PlayerEventStream
    /// `--events json`'s standard output, written without blocking the loop.
    private var jsonOutput: EventLineOutput?
    private var progress: ProgressLine?
    private var runtime: PlayerRuntime?
    /// Set when the arguments name a book.
    private var book: BookSession?
    private let input = StandardInputLines()

    /// A test's late loop: each turn ends this many milliseconds late
    /// (`INTERLUDE_TEST_LATE_TURN_MS`, up to a second), as a loaded machine's
    /// turns may, so that what must not depend on the loop's latency is shown not to.
    private let lateTurnMicroseconds: UInt32

    init(options: PlayCommand.Options) {
        self.options = options
        events = PlayerEventStream()
        if options.jsonEvents {
            let output = EventLineOutput(report: { [events] in events.error($0) })
            events.subscribe { output.write(JSONEventPrinter.line($0)) }
            jsonOutput = output
        }
        if isatty(2) != 0 && !options.jsonEvents { progress = ProgressLine() }
        let late = getenv("INTERLUDE_TEST_LATE_TURN_MS").flatMap { Int(String(cString: $0)) } ?? 0
        lateTurnMicroseconds = UInt32(min(max(0, late), 1000) * 1000)
    }

    func run() -> Int32 {
        var configuration = PlayerRuntime.Configuration(output: options.output, scenario: options.scenario)
        configuration.speed = options.speed
        configuration.trimSilence = options.trimSilence
        configuration.voiceBoost = options.voiceBoost
        // The config file, read once for the run.
        configuration.settings = UserConfigFile.load()
        // Before an episode's chapters are fetched (`podcast play`).
        configuration.settings.useNetworkLimits()
        configuration.replayGain = configuration.settings.replayGainSettings(mode: options.replayGain, preamp: options.replayGainPreamp)
        var paths = options.files
        switch BookSession.prepare(options, configuration: &configuration, events: events) {
        case .music: break
        case .book(let session):
            if options.start != nil {
                events.error("play: --start is for files; a book starts where it was left (or at --bookmark N)")
                return 2
            }
            book = session
            paths = session.paths
        case .failed(let status): return status
        }
        let signals: SignalChannel
        do { signals = try SignalChannel.open([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT]) } catch {
            events.error(error.description)
            return 1
        }
        guard let runtime = PlayerRuntime.open(configuration: configuration, paths: paths, events: events,
                                               signals: signals)
        else { return 1 }
        // Beside a running player the socket takes the next free name; a render to a file is no player to control.
        let services = runtime.startServices(instance: 1, buses: runtime.frameClock == nil, eventOutput: jsonOutput)
        defer { services.shutDown() }
        self.runtime = runtime
        book?.begin(with: runtime)
        if book == nil, let start = options.start, start > 0 {
            // Before the first frame: the engine decodes from there (no fade: nothing played yet).
            _ = runtime.start(atQueueIndex: 0, seconds: start)
        }
        let status = runtime.run(host: self)
        book?.finish()
        progress?.clear()
        jsonOutput?.finish()
        return status
    }

    // MARK: PlayerHost

    func handleSignal(_ number: Int32) -> Bool {
        // SIGINT, SIGTERM, SIGHUP end the run: keep the book's place first.
        book?.save()
        return false
    }

    func afterIteration() {
        guard let runtime else { return }
        book?.tick()
        // The place heard is worked out only for a line to show it (every turn, an MPD request's among them).
        if let progress, let current = runtime.current { progress.update(current) }
        if lateTurnMicroseconds > 0 { usleep(lateTurnMicroseconds) }
    }

    var maximumWaitMilliseconds: Int? { nil }
    var keepsRunningWhenQueueEnds: Bool { false }
    func willStop() { progress?.clear() }

    var loopSources: [LoopSource] { [self] }

    func playbackEvent(_ event: PlaybackEvent) {
        switch event {
        case .deviceLost:
            progress?.clear()
        default:
            break
        }
    }
}

/// Standard input's words: the loop's first source.
extension HeadlessPlayer: LoopSource {
    /// Commands are read while the player runs in real time. A terminal is read
    /// only while we are its foreground job: a background read would stop the
    /// process with SIGTTIN. On the frame clock a render takes no account of
    /// input, so that it comes out the same every time.
    var pollRequests: [LoopPollRequest] {
        guard runtime?.frameClock == nil, input.isOpen, isatty(0) == 0 || tcgetpgrp(0) == getpgrp() else { return [] }
        return [LoopPollRequest(fd: 0)]
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        for word in input.take() {
            guard let command = StandardInputVocabulary.command(for: word) else {
                events.error(StandardInputVocabulary.unknown(word))
                continue
            }
            if command.needsBook && core.snapshot(.playback).bookPath == nil {
                events.error("'\(word)' works only while playing a book")
                continue
            }
            // A refused play is reported by the player itself (`playRefused`).
            _ = core.perform(command)
        }
    }
}

/// A one-line progress display on stderr: elapsed / total and a bar, of
/// where the listener is (`PlayerRuntime.current`: a seek or a choice of
/// track shows at once, paused or not).
final class ProgressLine {
    private var lastText = ""
    private var lastUpdate = 0.0
    private var last: (index: Int, elapsed: Double)?

    func update(_ current: (index: Int, path: String, elapsed: Double, duration: Double?)) {
        let now = monotonicSeconds()
        let (elapsed, total) = (current.elapsed, current.duration)
        // At most four redraws a second while the time runs; a move (another
        // track, a seek) at once, as no later redraw may come while paused.
        let moved = last.map { $0.index != current.index || abs($0.elapsed - elapsed) > 1 } ?? true
        guard moved || now - lastUpdate >= 0.25 else { return }
        lastUpdate = now
        last = (current.index, elapsed)
        let width = 30
        var bar = ""
        if let total, total > 0 {
            let filled = min(width, Int(Double(width) * elapsed / total))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        }
        let name = current.path.split(separator: "/").last.map(String.init) ?? current.path
        let text = "\(clockText(elapsed)) / \(total.map(clockText) ?? "?")\(bar) \(name)"
        guard text != lastText else { return }
        // A terminal that took none or part of it (its output stopped) shows
        // something else: the next update draws the line again.
        lastText = LoopStandardError.write(text, clearingLine: true) ? text : Self.partlyShown
    }

    /// No text the line shows: what the terminal holds is unknown.
    private static let partlyShown = "\u{0}"

    func clear() {
        guard !lastText.isEmpty else { return }
        LoopStandardError.write("", clearingLine: true)
        lastText = ""
    }
}
