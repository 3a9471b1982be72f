/// Pending one-shot timers ordered by deadline, shared by the virtual and the
/// system clock so both fire timers with the same rules: earliest deadline
/// first, and timers with equal deadlines in the order they were scheduled.
public struct TimerQueue {
    public struct Entry {
        public let token: TimerToken
        public let deadline: MonotonicInstant
        public let action: () -> Void
    }

    private var entries: [Entry] = []
    private var nextToken: UInt64 = 1

    public init() {}

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var earliestDeadline: MonotonicInstant? { entries.first?.deadline }

    public mutating func insert(deadline: MonotonicInstant, action: @escaping () -> Void) -> TimerToken {
        let token = TimerToken(rawValue: nextToken)
        nextToken += 1
        // Insert after every entry with a deadline <= this one: keeps FIFO order among equals.
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(Entry(token: token, deadline: deadline, action: action), at: index)
        return token
    }

    public mutating func remove(_ token: TimerToken) {
        entries.removeAll { $0.token == token }
    }

    /// Removes and returns the earliest timer whose deadline is at or before `instant`.
    public mutating func popDue(atOrBefore instant: MonotonicInstant) -> Entry? {
        guard let first = entries.first, first.deadline <= instant else { return nil }
        return entries.removeFirst()
    }
}
