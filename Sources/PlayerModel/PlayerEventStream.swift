/// The one stream of `PlayerEvent`s: stamps each with the player's time and
/// hands it to every subscriber (the JSON printer with `--events json`, the
/// full-screen player's log and redraw, the control socket, MPRIS, MPD's
/// idle, the hook). Errors also go to the error line writer (stderr) as one
/// line each, unless the full-screen player owns the terminal.
public final class PlayerEventStream {
    /// Seconds since playback started on the player's clock (the frame clock for
    /// file sinks); the writer's monotonic time until the player sets it.
    public var timeSource: (() -> Double)?
    /// Where an error's line goes besides the `error` event (the loop's
    /// never-blocking stderr); nil while the full-screen UI owns the terminal,
    /// when errors reach the user through the subscribers only.
    public var errorLines: ((String) -> Void)?
    private var subscribers: [(TimedPlayerEvent) -> Void] = []
    private let monotonicSeconds: () -> Double
    private let start: Double

    /// `monotonicSeconds`: the system's monotonic clock, for the time before a player sets `timeSource`.
    public init(monotonicSeconds: @escaping () -> Double, errorLines: ((String) -> Void)?) {
        self.monotonicSeconds = monotonicSeconds
        self.errorLines = errorLines
        start = monotonicSeconds()
    }

    /// Called for every event from now on, in order, on the player's thread.
    public func subscribe(_ subscriber: @escaping (TimedPlayerEvent) -> Void) {
        subscribers.append(subscriber)
    }

    /// The player's time now, in seconds: what the next event will carry.
    public var now: Double { timeSource?() ?? monotonicSeconds() - start }

    public func emit(_ event: PlayerEvent) {
        guard !subscribers.isEmpty else { return }
        let timed = TimedPlayerEvent(time: now, event: event)
        for subscriber in subscribers { subscriber(timed) }
    }

    /// A line that is no problem: stderr as an error's, and a `notice` event.
    public func notice(_ message: String) {
        errorLines?("interlude: \(message)\n")
        emit(.notice(message))
    }

    /// A problem the user should see: stderr, and an `error` event.
    public func error(_ message: String) {
        // Never waiting for a stopped terminal: the line is an event as well.
        errorLines?("interlude: \(message)\n")
        emit(.error(message))
    }
}
