import InterludeCore

/// What a station's decoder says happened on its connection.
public enum StreamEvent: Equatable, Sendable {
    /// Audio decoded on a new connection: `station` is `icy-name`, `codec` what it sends.
    case connected(station: String?, codec: String)
    /// The station's `StreamTitle` changed.
    case title(String)
    /// The connection failed after audio had played (FFmpeg's words).
    case dropped(reason: String)
    /// A reconnection did not get as far as audio.
    case attemptFailed(reason: String)
}

/// What the supervisor asks of the station's connection.
public protocol StationConnection: AnyObject {
    /// Opens a new connection (after a drop); decoding goes on in the format
    /// the stream now has.
    func reconnect()
    /// No more attempts: the entry ends once what was decoded is out.
    func giveUp()
}

/// One station that plays, from the player's side: its events turned into
/// what the listener is told, and a drop after it played retried with
/// `ReconnectPolicy`'s backoff on the loop's `Clock` (a `StreamReconnector`:
/// the next attempt a timer, never a wait), then given up with a line.
/// Main loop only.
public final class StationSupervisor {
    public enum Report: Equatable, Sendable {
        /// Audio came (again, after a drop: `again`).
        case connected(station: String?, codec: String, again: Bool)
        case title(String, station: String?)
        /// One line for the listener: a drop naming the URL, an attempt, giving up.
        case line(String)
    }

    public let url: String
    private let clock: any Clock
    private let policy: ReconnectPolicy
    private let seed: UInt64
    private let report: (Report) -> Void
    private var reconnector: StreamReconnector?
    private var station: String?
    private var title: String?
    private weak var connection: StationConnection?

    public init(url: String, clock: any Clock, policy: ReconnectPolicy = .standard, seed: UInt64,
                report: @escaping (Report) -> Void) {
        self.url = url
        self.clock = clock
        self.policy = policy
        self.seed = seed
        self.report = report
    }

    /// The line while a reconnection is scheduled or under way.
    public var statusLine: String? { reconnector?.statusLine }

    public func handle(_ event: StreamEvent, from connection: StationConnection) {
        self.connection = connection
        switch event {
        case .connected(let name, let codec):
            if let name { station = name }
            let again = reconnector != nil
            reconnector?.connected()
            report(.connected(station: name, codec: codec, again: again))
        case .title(let text):
            title = text
            report(.title(text, station: station))
        case .dropped(let reason):
            report(.line("\(url): \(reason)"))
            reconnecting().failed(reason: reason)
        case .attemptFailed(let reason):
            reconnecting().failed(reason: reason)
        }
    }

    /// The listener chose something else: no attempt is made any more.
    public func cancel() {
        reconnector?.cancel()
    }

    private func reconnecting() -> StreamReconnector {
        if let reconnector { return reconnector }
        let made = StreamReconnector(stationName: station ?? Self.host(of: url), policy: policy, clock: clock,
                                     seed: seed) { [weak self] event in
            guard let self, let reconnector = self.reconnector else { return }
            switch event {
            case .attempt:
                if let line = reconnector.statusLine { self.report(.line(line)) }
                self.connection?.reconnect()
            case .gaveUp(let attempts, let reason):
                self.report(.line(reconnector.gaveUpLine(attempts: attempts, reason: reason)))
                self.connection?.giveUp()
            }
        }
        reconnector = made
        return made
    }

    private static func host(of url: String) -> String {
        if case .url(let parsed) = StreamLocation.classify(url) { return parsed.host }
        return url
    }
}
