import PlayerModel

/// The queue pane's edits: remove, move up and down, mark. Each acts on the
/// selection, or on every entry from the mark to the selection when one is
/// marked, anywhere in the queue (played and playing entries too, as
/// ncmpcpp's and cmus's do); the selection and the mark follow the entries
/// they were on.
extension InterfaceState {
    /// The entries the queue pane's edits take now (positions in the whole
    /// queue): from the mark to the selection, or the selection; nil when the
    /// pane shows no entry.
    public func queueEditRange(_ snapshot: PlayerSnapshot) -> ClosedRange<Int>? {
        let rows = visibleQueue(snapshot)
        guard !rows.isEmpty else { return nil }
        let here = rows[min(max(0, queueCursor.selection), rows.count - 1)].index
        guard let mark = queueMark, snapshot.queue.indices.contains(mark) else { return here...here }
        return min(mark, here)...max(mark, here)
    }

    /// The marked entries, for the pane to show; nil when none is marked.
    public func queueMarkedRange(_ snapshot: PlayerSnapshot) -> ClosedRange<Int>? {
        queueMark == nil ? nil : queueEditRange(snapshot)
    }

    mutating func editQueue(_ action: KeyAction, snapshot: PlayerSnapshot) -> [InterfaceAction] {
        guard focus == .queue else {
            message = Message(text: "select entries in the queue pane\(inParentheses(.pane2)) first", isError: false)
            return []
        }
        let rows = visibleQueue(snapshot)
        queueCursor.clamp(count: rows.count)
        guard let range = queueEditRange(snapshot) else {
            message = Message(text: snapshot.queue.isEmpty ? "the queue is empty" : "nothing matches the filter", isError: false)
            return []
        }
        if action == .queueMark {
            let here = rows[queueCursor.selection].index
            queueMark = queueMark == here ? nil : here
            return []
        }
        if snapshot.book != nil {
            message = Message(text: sentence(for: .clearQueueDuringBook), isError: false)
            return []
        }
        let edit: QueueEdit
        switch action {
        case .queueRemove:
            queueMark = nil
            return [.player(.editQueue(.drop(from: range.lowerBound, count: range.count)))]
        case .queueMoveUp:
            guard range.lowerBound > 0 else { return [] }
            edit = .shift(from: range.lowerBound, count: range.count, by: -1)
        default:
            guard range.upperBound + 1 < snapshot.queue.count else { return [] }
            edit = .shift(from: range.lowerBound, count: range.count, by: 1)
        }
        // The selection and the mark follow their entries, into the queue as it will be.
        guard case .kept(let order)? = edit.kept(count: snapshot.queue.count) else { return [] }
        let here = rows[queueCursor.selection].index
        var moved = snapshot
        moved.queue = order.map { snapshot.queue[$0] }
        if let place = order.firstIndex(of: here) {
            let shown = visibleQueue(moved)
            queueCursor.select(shown.firstIndex { $0.index == place } ?? queueCursor.selection, count: shown.count)
        }
        queueMark = queueMark.flatMap { order.firstIndex(of: $0) }
        return [.player(.editQueue(edit))]
    }
}
