/// The event log pane's contents: the latest events, oldest first.
public struct EventLog: Equatable, Sendable {
    public enum Kind: Sendable { case began, ended, action, error }

    public static let capacity = 1000
    public private(set) var entries: [LoggedEvent] = []
    /// Counts every event ever appended; the view follows the newest unless scrolled.
    public private(set) var total = 0

    public init() {}

    public mutating func append(_ event: LoggedEvent) {
        entries.append(event)
        total += 1
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    public static func kind(of entry: LoggedEvent) -> Kind {
        guard case .player(let event) = entry.entry else { return .action }
        switch event {
        case .interruption(let notification): return notification.kind == .began ? .began : .ended
        case .ducking(let notification): return notification.kind == .began ? .began : .ended
        case .secondaryAudioHint(let kind): return kind == .began ? .began : .ended
        case .error, .resumeFailed, .playRefused, .underrun, .alarmSoundFallback: return .error
        default: return .action
        }
    }
}
