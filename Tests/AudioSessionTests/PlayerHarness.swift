import AudioSession
import InterludeCore

/// One arbiter, one player and a virtual clock, with everything the player
/// did and was told recorded together with the virtual time it happened at.
final class PlayerHarness: PlayerActionSink {
    let clock = VirtualClock(wall: WallInstant(secondsSince1970: 1_750_000_000))
    let arbiter: AudioSessionArbiter
    private(set) var player: PlayerSession!
    private(set) var actions: [(time: MonotonicInstant, action: PlayerAction)] = []
    private(set) var notifications: [SessionEvent] = []

    init(content: SessionContent = .music, settings: ResumeSettings = ResumeSettings()) {
        arbiter = AudioSessionArbiter(clock: clock)
        player = PlayerSession(arbiter: arbiter, clock: clock, content: content, settings: settings, sink: self)
        player.onSessionEvent = { [unowned self] in notifications.append($0) }
    }

    func perform(_ action: PlayerAction) {
        actions.append((clock.monotonicNow, action))
    }

    var actionList: [PlayerAction] { actions.map(\.action) }

    var interruptionNotifications: [InterruptionNotification] {
        notifications.compactMap { if case .interruption(let n) = $0 { n } else { nil } }
    }

    var automaticResumes: [MonotonicInstant] {
        actions.filter { $0.action == .resume(.automatic) }.map(\.time)
    }

    func forgetHistory() {
        actions.removeAll()
        notifications.removeAll()
    }

    /// Starts playback the way the user would, and forgets that it did.
    func startPlaying() {
        precondition(player.play() == .started)
        forgetHistory()
    }

    /// A session of `priorityClass` with the options an app of that class would use.
    func openInterrupter(_ priorityClass: PriorityClass) -> Session {
        arbiter.openSession(.typical(priorityClass))
    }
}

extension SessionConfiguration {
    /// Alarms, calls and timers are non-mixable; navigation ducks others and
    /// interrupts spoken audio; notifications duck.
    static func typical(_ priorityClass: PriorityClass) -> SessionConfiguration {
        switch priorityClass {
        case .navigation:
            SessionConfiguration(mode: .spokenAudio, options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers], priorityClass: .navigation)
        case .notification:
            SessionConfiguration(category: .ambient, options: [.duckOthers], priorityClass: .notification)
        default:
            SessionConfiguration(priorityClass: priorityClass)
        }
    }
}
