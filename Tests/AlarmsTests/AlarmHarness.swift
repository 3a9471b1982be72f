import Alarms
import AudioSession
import FoundationEssentials
import InterludeCore

/// A playing music player, the arbiter and an alarm scheduler on one
/// virtual clock, recording the scheduler's events, the player's interruption
/// notifications and its actions.
final class AlarmHarness: PlayerActionSink {
    let clock: VirtualClock
    let arbiter: AudioSessionArbiter
    let timeZone: TimeZoneRules
    private(set) var player: PlayerSession!
    private(set) var scheduler: AlarmScheduler!
    private(set) var events: [AlarmEvent] = []
    private(set) var interruptions: [(time: MonotonicInstant, notification: InterruptionNotification)] = []
    private(set) var actions: [PlayerAction] = []

    init(startUTC: String, zone identifier: String = "Europe/Berlin", stateDirectory: String? = nil, startPlaying: Bool = true) {
        clock = virtualClock(atUTC: startUTC)
        arbiter = AudioSessionArbiter(clock: clock)
        timeZone = zone(identifier)
        player = PlayerSession(arbiter: arbiter, clock: clock, content: .music, sink: self)
        player.onSessionEvent = { [unowned self] event in
            if case .interruption(let notification) = event { interruptions.append((clock.monotonicNow, notification)) }
        }
        if startPlaying { player.play() }
        actions.removeAll()
        scheduler = makeScheduler(stateDirectory: stateDirectory)
    }

    /// A new scheduler instance, as after a restart of the program.
    func makeScheduler(stateDirectory: String?) -> AlarmScheduler {
        AlarmScheduler(
            clock: clock, timeZone: timeZone, arbiter: arbiter,
            store: stateDirectory.map { AlarmStore(stateDirectory: $0) },
            onEvent: { [unowned self] in events.append($0) })
    }

    func restart(stateDirectory: String) {
        scheduler = makeScheduler(stateDirectory: stateDirectory)
        scheduler.start()
    }

    /// Sees each action as the player takes it, before the scheduler goes on.
    var onAction: ((PlayerAction) -> Void)?

    func perform(_ action: PlayerAction) {
        actions.append(action)
        onAction?(action)
    }

    var began: [InterruptionNotification] { interruptions.map(\.notification).filter { $0.kind == .began } }
    var ended: [InterruptionNotification] { interruptions.map(\.notification).filter { $0.kind == .ended } }

    func ringingBegan() -> [[AlarmID]] {
        events.compactMap { if case .ringingBegan(let ids) = $0 { ids } else { nil } }
    }

    /// Wall seconds `seconds` from now, for relative alarms.
    func inSeconds(_ seconds: Int64) -> Int64 { clock.wallNow.secondsSince1970 + seconds }

    static func clockTime(_ hour: Int, _ minute: Int, _ repeatDays: RepeatDays = .never) -> AlarmSchedule {
        .clockTime(time: LocalTime(hour: hour, minute: minute), repeatDays: repeatDays)
    }
}

/// A fresh directory under the system temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.path + "/interlude-alarms-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
