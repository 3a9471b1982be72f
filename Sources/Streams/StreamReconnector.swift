import InterludeCore

/// Carries a `ReconnectPolicy` out on the main loop's `Clock`: after a drop
/// the next attempt is a timer, never a wait, so keys, alarms and the socket
/// are served meanwhile. The runtime opens the stream when `attempt` is
/// called and reports back with `connected()` or `failed(reason:)`.
///
/// Used from the main loop only, as its clock is.
public final class StreamReconnector {
    public enum Event: Equatable, Sendable {
        /// Attempt `number` is due: open the stream now.
        case attempt(number: Int)
        /// No attempt is left; `attempts` were made.
        case gaveUp(attempts: Int, reason: String)
    }

    public let stationName: String
    public let policy: ReconnectPolicy
    /// The attempt under way or scheduled; 0 while connected.
    public private(set) var attempt = 0
    /// The delay before the scheduled attempt, for the status line.
    public private(set) var pendingDelay: Duration?

    private let clock: any Clock
    private var generator: SeededGenerator
    private let onEvent: (Event) -> Void
    private var timer: TimerToken?

    public init(stationName: String, policy: ReconnectPolicy, clock: any Clock, seed: UInt64,
                onEvent: @escaping (Event) -> Void) {
        self.stationName = stationName
        self.policy = policy
        self.clock = clock
        self.generator = SeededGenerator(seed: seed)
        self.onEvent = onEvent
    }

    /// The line shown while waiting or trying: "reconnecting to NAME, attempt 3".
    public var statusLine: String? {
        attempt == 0 ? nil : "reconnecting to \(stationName), attempt \(attempt)"
    }

    /// The stream dropped (or an attempt failed): schedules the next attempt,
    /// or gives up when the policy allows no more.
    public func failed(reason: String) {
        cancelTimer()
        let next = attempt + 1
        guard policy.allows(attempt: next) else {
            let made = attempt
            attempt = 0
            pendingDelay = nil
            onEvent(.gaveUp(attempts: made, reason: reason))
            return
        }
        attempt = next
        let delay = policy.delay(beforeAttempt: next, using: &generator)
        pendingDelay = delay
        timer = clock.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.pendingDelay = nil
            self.onEvent(.attempt(number: next))
        }
    }

    /// The stream plays again: the count starts over at the next drop.
    public func connected() {
        cancelTimer()
        attempt = 0
        pendingDelay = nil
    }

    /// The listener stopped or chose another stream: nothing more is tried.
    public func cancel() { connected() }

    /// The sentence for giving up, for the front ends.
    public func gaveUpLine(attempts: Int, reason: String) -> String {
        "gave up on \(stationName) after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(reason)"
    }

    private func cancelTimer() {
        if let timer { clock.cancel(timer) }
        timer = nil
    }
}
