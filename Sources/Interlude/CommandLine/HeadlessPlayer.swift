import AudioEngine
#if canImport(Glibc)
import Glibc
#endif

/// The main loop of `interlude play`: pumps the engine, sleeps in `poll` on
/// the signal descriptor between pumps, prints events and a progress line.
final class HeadlessPlayer {
    let options: PlayCommand.Options
    let printer: EventPrinter
    private var progress: ProgressLine?

    init(options: PlayCommand.Options) {
        self.options = options
        printer = EventPrinter(json: options.jsonEvents)
        if isatty(2) != 0 { progress = ProgressLine() }
    }

    func run() -> Int32 {
        // Before any thread starts, so the writer thread inherits the blocked mask.
        let signals = SignalChannel([SIGINT, SIGTERM, SIGHUP])
        let engine = PlaybackEngine(paths: options.files, output: options.output)
        do {
            try engine.open()
        } catch {
            report(engine.feeder.takeEvents())
            switch error {
            case .device:
                printer.error("\(error.description) (choose another device with --device NAME, "
                              + "or render with --output wav:PATH or --output null)")
            default:
                printer.error(error.description)
            }
            return 1
        }
        var played = false
        var interrupted = false
        while !engine.isFinished {
            let events: [PlaybackEvent]
            do { events = try engine.pump() } catch {
                printer.error(error.description)
                return 1
            }
            for event in events {
                if case .trackStarted = event { played = true }
                if case .trackStarted(let index, _) = event { progress?.track = engine.feeder.tracks[index] }
                if case .deviceLost = event { progress?.clear() }
                printer.emit(event)
            }
            progress?.update(heard: engine.heardFrames, format: engine.format)
            let wait = engine.suggestedWaitMilliseconds
            if wait > 0 { _ = waitReadable([signals.fd], timeoutMilliseconds: wait) }
            if !signals.take().isEmpty {
                interrupted = true
                engine.stop()
                break
            }
        }
        progress?.clear()
        if interrupted { printer.emit("stopped") }
        return played ? 0 : 1
    }

    private func report(_ events: [TrackFeeder.Event]) {
        for event in events {
            if case .failed(let error) = event { printer.error("\(error.description) (skipped)") }
        }
    }
}

/// A one-line progress display on stderr: elapsed / total and a bar.
final class ProgressLine {
    var track: TrackFeeder.Track?
    private var lastText = ""
    private var lastUpdate = 0.0

    func update(heard: Int, format: AudioFormat) {
        let now = monotonicSeconds()
        // At most four redraws a second.
        guard now - lastUpdate >= 0.25, let track else { return }
        lastUpdate = now
        let elapsed = format.seconds(forFrames: max(0, heard - track.startFrame))
        let total = track.expectedFrames.map(format.seconds(forFrames:))
        let width = 30
        var bar = ""
        if let total, total > 0 {
            let filled = min(width, Int(Double(width) * elapsed / total))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        }
        let name = track.path.split(separator: "/").last.map(String.init) ?? track.path
        let text = "\(formatTime(elapsed)) / \(total.map(formatTime) ?? "?")\(bar) \(name)"
        guard text != lastText else { return }
        lastText = text
        writeStandardError("\r\u{1B}[K" + text)
    }

    func clear() {
        guard !lastText.isEmpty else { return }
        writeStandardError("\r\u{1B}[K")
        lastText = ""
    }
}
