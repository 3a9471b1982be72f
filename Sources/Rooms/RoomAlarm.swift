import InterludeCore

/// An alarm that names rooms, on the stream's timeline: the rooms it names
/// hear it; the others on the player's stream pause with the music, as every
/// room does for an alarm, and stay silent while it rings (their volume at
/// 0 through Snapcast's `Client.SetVolume`, never a stopped client); each is
/// given back its own volume after it.
///
/// Whatever the player writes reaches the rooms `latency` later (the pipe and
/// the server's `buffer`), but for a pause's fade, which reaches them
/// `pauseLatency` later (the pause takes back what the pipe holds, so the
/// server's `buffer` alone). For such an alarm the player leaves `gap` of
/// silence after the music's fade and before the alarm's first sound, and
/// again after its last sound before the music comes back (`PlaybackEngine`'s
/// voice lead-in and hold). The other rooms go silent in the middle of the
/// first gap, as the rooms hear it, and come back in the middle of the
/// second: a volume change, a message over the network applied by each
/// client to its next block (50 ms), lands well inside either.
///
/// Requests go out through `send`; answers come back through `statusArrived`
/// and `failed`. No room named matches: the alarm rings everywhere, and
/// `report` says so in one line.
public final class RoomAlarm {
    public enum Request: Sendable, Equatable {
        /// `Server.GetStatus`: the rooms and their volumes, before choosing.
        case status
        /// `Client.SetVolume`.
        case setVolume(client: String, percent: Int, muted: Bool)
    }

    /// What the coordinator is doing now.
    public enum Phase: Sendable, Equatable {
        case idle
        /// Rung; the rooms asked for.
        case asking
        /// The other rooms chosen; to be silenced at `silenceDue` unless done.
        case ringing(silenced: Bool)
        /// Ended; the others to be given back their volume.
        case restoring
    }

    public var send: (Request) -> Void = { _ in }
    public var report: (String) -> Void = { _ in }
    public private(set) var phase = Phase.idle
    /// The rooms silenced for this alarm, with what to give them back.
    public private(set) var silenced: [SnapcastRoom] = []
    let clock: any Clock
    let latency: Duration
    let pauseLatency: Duration
    let fade: Duration
    let gap: Duration
    /// The stream the player feeds: rooms on another stream do not hear the alarm anyway.
    let streamID: String
    private var names: [String] = []
    private var rangAt: MonotonicInstant?
    private var endedAt: MonotonicInstant?
    private var timer: TimerToken?
    private var others: [SnapcastRoom] = []

    /// The gap's default: longer than a client's block (50 ms) and the
    /// network's delay by far, short enough not to be felt.
    public static let defaultGapMilliseconds = 400
    public static let defaultGap = Duration.milliseconds(defaultGapMilliseconds)

    public init(clock: any Clock, latency: Duration, pauseLatency: Duration, fade: Duration, gap: Duration = defaultGap,
                streamID: String) {
        self.clock = clock
        self.latency = latency
        self.pauseLatency = pauseLatency
        self.fade = fade
        self.gap = gap
        self.streamID = streamID
    }

    /// An alarm naming `rooms` began ringing now (its sound goes into the
    /// stream after the music's fade and the gap).
    public func alarmBegan(naming rooms: [String]) {
        guard !rooms.isEmpty else { return }
        if case .restoring = phase { restoreNow() }
        names = rooms
        rangAt = clock.monotonicNow
        endedAt = nil
        phase = .asking
        send(.status)
    }

    /// The server's rooms, as asked in `alarmBegan`.
    public func statusArrived(_ rooms: [SnapcastRoom]) {
        guard case .asking = phase, let rangAt else { return }
        let named = rooms.filter { room in names.contains { room.isNamed($0) } }
        let unknown = names.filter { name in !rooms.contains { $0.isNamed(name) } }
        if named.isEmpty {
            report("snapcast: no room is named \(unknown.map { "'\($0)'" }.joined(separator: ", ")): the alarm rings in every room")
            phase = .idle
            return
        }
        if !unknown.isEmpty {
            report("snapcast: no room is named \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (the alarm rings in the others it names)")
        }
        others = rooms.filter { room in room.connected && room.streamID == streamID && !named.contains(room) }
        phase = .ringing(silenced: false)
        if let endedAt {
            // Ended before the rooms were known: nothing to silence any more.
            _ = endedAt
            phase = .idle
            return
        }
        // The middle of the silence between the music's fade and the alarm's first sound, as the rooms hear it.
        let due = rangAt + pauseLatency + fade + gap / 2
        timer = clock.schedule(at: max(due, clock.monotonicNow)) { [weak self] in self?.silenceOthers() }
    }

    /// The rooms could not be asked (no server, a refusal): the alarm rings everywhere.
    public func failed(_ reason: String) {
        guard case .asking = phase else { return }
        report("snapcast: \(reason): the alarm rings in every room")
        phase = .idle
    }

    private func silenceOthers() {
        timer = nil
        guard case .ringing(silenced: false) = phase else { return }
        silenced = others
        for room in others { send(.setVolume(client: room.id, percent: 0, muted: room.muted)) }
        phase = .ringing(silenced: true)
    }

    /// The alarm stopped sounding now (its last sound into the stream, the gap after it).
    public func alarmEnded() {
        switch phase {
        case .idle, .restoring:
            return
        case .asking:
            endedAt = clock.monotonicNow
            phase = .idle
        case .ringing(let done):
            if let timer { clock.cancel(timer) }
            timer = nil
            guard done else {
                phase = .idle
                return
            }
            phase = .restoring
            // The middle of the silence after the alarm's last sound, as the rooms hear it.
            let due = clock.monotonicNow + latency + gap / 2
            timer = clock.schedule(at: due) { [weak self] in self?.restoreNow() }
        }
    }

    /// Gives every silenced room its volume back at once (the alarm's end, or the player quitting).
    public func restoreNow() {
        if let timer { clock.cancel(timer) }
        timer = nil
        for room in silenced { send(.setVolume(client: room.id, percent: room.percent, muted: room.muted)) }
        silenced = []
        phase = .idle
    }
}
