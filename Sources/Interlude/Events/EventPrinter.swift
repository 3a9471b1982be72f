import AudioEngine

/// One event as printed: its time, name and fields (encoded JSON values, in
/// order), for a display such as the player's event log.
struct EventRecord: Sendable {
    let time: Double
    let name: String
    /// The fields after `t` and `event`.
    let fields: [(key: String, value: String)]
}

/// Prints player events: JSON lines on stdout when asked for, and errors as one
/// line each on stderr, unless the full-screen UI owns the terminal.
final class EventPrinter {
    let json: Bool
    let start = monotonicSeconds()
    /// Seconds since playback started on the player's clock (the frame clock for
    /// file sinks); real monotonic time until the player sets it.
    var timeSource: (() -> Double)?
    /// Sees every event, printed or not.
    var observer: ((EventRecord) -> Void)?
    /// False while the full-screen UI owns the terminal: errors then reach the
    /// user through the observer only.
    var writesErrorsToStandardError = true

    init(json: Bool) { self.json = json }

    func emit(_ event: String, _ fill: (inout JSONLine) -> Void = { _ in }) {
        guard json || observer != nil else { return }
        var line = JSONLine()
        let time = timeSource?() ?? monotonicSeconds() - start
        line.add("t", time, decimals: 6)
        line.add("event", event)
        fill(&line)
        if json { writeStandardOutput(line.text + "\n") }
        observer?(EventRecord(time: time, name: event, fields: Array(line.fields.dropFirst(2))))
    }

    /// A problem the user should see: stderr, and an `error` event.
    func error(_ message: String) {
        if writesErrorsToStandardError { writeStandardError("interlude: \(message)\n") }
        emit("error") { $0.add("message", message) }
    }

    func emit(_ event: PlaybackEvent) {
        switch event {
        case .trackStarted(let index, let path):
            emit("trackStarted") { $0.add("path", path); $0.add("index", index) }
        case .trackEnded(let index, let path):
            emit("trackEnded") { $0.add("path", path); $0.add("index", index) }
        case .skipped(let error):
            self.error("\(error.description) (skipped)")
        case .truncated(let path, let seconds, let expected):
            self.error("\(path): file is truncated: it ends at \(formatTime(seconds)) of \(formatTime(expected))")
        case .underrun:
            emit("underrun") { $0.add("cause", "xrun") }
        case .starved:
            emit("underrun") { $0.add("cause", "starved") }
        case .deviceLost(let message):
            self.error(message)
        case .outputFailed(let message):
            self.error(message)
        case .mediaStopped:
            break  // Reported by the controller as `paused`, with the position.
        case .finished(let underruns):
            emit("finished") { $0.add("underruns", underruns) }
        }
    }
}

/// m:ss or h:mm:ss.
func formatTime(_ seconds: Double) -> String {
    let total = max(0, Int(seconds))
    let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
    let ss = secs < 10 ? "0\(secs)" : "\(secs)"
    if hours > 0 {
        let mm = minutes < 10 ? "0\(minutes)" : "\(minutes)"
        return "\(hours):\(mm):\(ss)"
    }
    return "\(minutes):\(ss)"
}
