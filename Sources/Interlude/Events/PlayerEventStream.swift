import PlayerModel

/// The one stream of `PlayerEvent`s: stamps each with the player's time and
/// hands it to every subscriber (the JSON printer with `--events json`, the
/// full-screen player's log and redraw; next the control socket and MPRIS).
/// Errors also go to stderr as one line each, unless the full-screen player
/// owns the terminal.
final class PlayerEventStream {
    let start = monotonicSeconds()
    /// Seconds since playback started on the player's clock (the frame clock for
    /// file sinks); real monotonic time until the player sets it.
    var timeSource: (() -> Double)?
    /// False while the full-screen UI owns the terminal: errors then reach the
    /// user through the subscribers only.
    var writesErrorsToStandardError = true
    private var subscribers: [(TimedPlayerEvent) -> Void] = []

    /// `--events json`'s standard output (a `LoopSource` for the host to list).
    private(set) var jsonOutput: EventLineOutput?

    /// `json`: print every event on stdout, one JSON line each.
    init(json: Bool) {
        guard json else { return }
        let output = EventLineOutput(report: { [weak self] in self?.error($0) })
        jsonOutput = output
        subscribe { output.write(JSONEventPrinter.line($0)) }
    }

    /// Called for every event from now on, in order, on the player's thread.
    func subscribe(_ subscriber: @escaping (TimedPlayerEvent) -> Void) {
        subscribers.append(subscriber)
    }

    /// The player's time now, in seconds: what the next event will carry.
    var now: Double { timeSource?() ?? monotonicSeconds() - start }

    func emit(_ event: PlayerEvent) {
        guard !subscribers.isEmpty else { return }
        let timed = TimedPlayerEvent(time: now, event: event)
        for subscriber in subscribers { subscriber(timed) }
    }

    /// A problem the user should see: stderr, and an `error` event.
    func error(_ message: String) {
        // Never waiting for a stopped terminal: the line is an event as well.
        if writesErrorsToStandardError { LoopStandardError.write("interlude: \(message)\n") }
        emit(.error(message))
    }
}
