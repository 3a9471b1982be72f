/// Why `setActive(true)` was refused; AVAudioSession's `cannotInterruptOthers`.
public enum SessionActivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A higher-priority, non-mixable session is active.
    case cannotInterruptOthers(blockedBy: PriorityClass)
    case unknownSession(SessionID)

    public var description: String {
        switch self {
        case .cannotInterruptOthers(let blocker):
            "cannot start audio while a higher-priority \(blocker.rawValue) session is active"
        case .unknownSession(let id):
            "\(id) is not open"
        }
    }
}
