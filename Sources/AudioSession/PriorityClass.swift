/// Who a session is, in the order the arbiter lets them preempt each other
/// (design.md §3.1). Higher priority wins; equal priorities mix.
public enum PriorityClass: String, Sendable, Equatable, CaseIterable, Comparable {
    case alarm
    case call
    case timer
    case navigation
    case notification
    case media

    public var priority: Int {
        switch self {
        case .alarm: 100
        case .call: 50
        case .timer: 45
        case .navigation: 30
        case .notification: 20
        case .media: 10
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.priority < rhs.priority }
}
