/// An edit of the entries queued after the one that plays (MPD's `delete`,
/// `move` and `shuffle`, the socket's `queue-remove`, `queue-move`,
/// `queue-shuffle`). Positions count the whole queue from 0, those heard
/// included, as `queue-list` and MPD's `playlistinfo` do; the entry that
/// plays and those before it are heard, and stay as they are.
public enum QueueEdit: Equatable, Sendable {
    /// `count` entries from position `from`.
    case remove(from: Int, count: Int)
    /// `count` entries from position `from`, put back so that they begin at `to` (a position in the queue after the edit).
    case move(from: Int, count: Int, to: Int)
    /// The entries from `from`, `count` of them (clamped to those after the one that plays), in a random order.
    case shuffle(from: Int, count: Int)
    /// The whole queue, played and playing entries too, as MPD edits its
    /// queue: it becomes the entries at these positions (before the edit),
    /// in this order, each at most once. The entry that plays goes on where
    /// it went; gone, the entry after it plays (as paused if it was), and
    /// with none after it playback stops.
    case keep(positions: [Int])
    /// `count` entries from position `from`, anywhere in the queue, played
    /// and playing ones too (the queue pane's removal); as `keep` of the rest.
    case drop(from: Int, count: Int)
    /// `count` entries from position `from` moved `by` places (negative: up,
    /// towards the first), anywhere in the queue (the queue pane's moves), as
    /// far as the queue's ends let them; as `keep` of the queue in its new order.
    case shift(from: Int, count: Int, by: Int)

    public enum Outcome: Equatable, Sendable {
        /// The entries after the one that plays, edited.
        case upcoming([String])
        case refused(Refusal)
    }

    /// The entries after position `here` (the one that plays; -1 when none
    /// does) once the edit is made, or why it cannot be. `random` picks the shuffle's order.
    public func upcoming<Generator: RandomNumberGenerator>(of queue: [String], here: Int,
                                                           random: inout Generator) -> Outcome {
        let first = max(0, here + 1)
        var after = Array(queue.dropFirst(first))
        switch self {
        case .remove(let from, let count):
            if let refusal = Self.check(from, count, queue.count, first) { return .refused(refusal) }
            after.removeSubrange((from - first)..<(from - first + count))
        case .move(let from, let count, let to):
            if let refusal = Self.check(from, count, queue.count, first) { return .refused(refusal) }
            guard to >= 0, to + count <= queue.count else { return .refused(.noQueueEntry(position: to)) }
            guard to >= first else { return .refused(.queueEntryNotAhead(position: to)) }
            let moved = Array(after[(from - first)..<(from - first + count)])
            after.removeSubrange((from - first)..<(from - first + count))
            after.insert(contentsOf: moved, at: to - first)
        case .shuffle(let from, let count):
            guard from >= 0, count >= 0, from <= queue.count else { return .refused(.noQueueEntry(position: from)) }
            let start = max(from, first), end = min(queue.count, from + min(count, queue.count))
            guard start < end else { return .upcoming(after) }
            after[(start - first)..<(end - first)].shuffle(using: &random)
        case .keep(let positions):
            // The whole queue's edits are the runtime's (`PlayerRuntime.rearrangeQueue`), not the upcoming entries'.
            return .refused(.noQueueEntry(position: positions.first ?? 0))
        case .drop(let from, _), .shift(let from, _, _):
            return .refused(.noQueueEntry(position: from))
        }
        return .upcoming(after)
    }

    /// What an edit of the whole queue (`keep`, `drop`, `shift`) keeps of a
    /// queue of `count` entries: the positions before the edit, in their new
    /// order (`keep`'s), or why it cannot be made; nil for the edits of the
    /// upcoming entries alone.
    public func kept(count: Int) -> KeptOutcome? {
        switch self {
        case .keep(let positions):
            return .kept(positions)
        case .drop(let from, let count_):
            guard from >= 0, count_ >= 1, from < count, count_ <= count - from else { return .refused(.noQueueEntry(position: from)) }
            return .kept(Array(0..<from) + Array((from + count_)..<count))
        case .shift(let from, let count_, let by):
            guard from >= 0, count_ >= 1, from < count, count_ <= count - from else { return .refused(.noQueueEntry(position: from)) }
            // Past either end it goes as far as it can: the first entry moved up stays first, as in cmus.
            let places = min(max(by, -from), count - count_ - from)
            var rest = Array(0..<from) + Array((from + count_)..<count)
            rest.insert(contentsOf: from..<(from + count_), at: from + places)
            return .kept(rest)
        case .remove, .move, .shuffle:
            return nil
        }
    }

    public enum KeptOutcome: Equatable, Sendable {
        case kept([Int])
        case refused(Refusal)
    }

    private static func check(_ from: Int, _ count: Int, _ total: Int, _ first: Int) -> Refusal? {
        guard from >= 0, count >= 1, from < total, count <= total - from else { return .noQueueEntry(position: from) }
        guard from >= first else { return .queueEntryNotAhead(position: from) }
        return nil
    }
}
