/// Where each trimmed frame came from: frames out of the silence trimmer
/// ("trimmed frames", counted from the last seek) against the file's own
/// frames (source frames from the seek's target). A piecewise shift: from a
/// point's `trimmed` frame on, source = trimmed + `dropped`, the frames cut
/// so far. With nothing cut the map is the identity, so every position is
/// the file's own sample whatever was trimmed.
public struct TrimMap: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var trimmed: Int
        public var dropped: Int
    }

    public private(set) var points = [Point(trimmed: 0, dropped: 0)]
    /// Trimmed frames handed on so far.
    public private(set) var trimmedCount = 0

    public init() {}

    /// `frames` frames from source frame `source` on were handed on, next
    /// after the ones before (source frames only go up: what is between is cut).
    public mutating func append(source: Int, frames: Int) {
        guard frames > 0 else { return }
        let dropped = source - trimmedCount
        let last = points.count - 1
        if dropped != points[last].dropped {
            if points[last].trimmed == trimmedCount {
                points[last].dropped = dropped
            } else {
                points.append(Point(trimmed: trimmedCount, dropped: dropped))
            }
        }
        trimmedCount += frames
    }

    private func index(atTrimmed trimmed: Int) -> Int {
        // Binary search: the last point at or before `trimmed` (points are few, but a long pause-ridden book piles them up between forgets).
        var low = 0
        var high = points.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if points[middle].trimmed <= trimmed { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The source frame of trimmed frame `trimmed`.
    public func source(atTrimmed trimmed: Int) -> Int { trimmed + dropped(atTrimmed: trimmed) }

    /// Source frames cut before trimmed frame `trimmed`: the time it saved.
    public func dropped(atTrimmed trimmed: Int) -> Int { points[index(atTrimmed: trimmed)].dropped }

    /// The first trimmed frame at or after source frame `source` (a frame that
    /// was cut plays as the first one kept after it).
    public func trimmed(atSource source: Int) -> Int {
        var found = 0
        for (offset, point) in points.enumerated() where point.trimmed + point.dropped <= source { found = offset }
        let point = points[found]
        let trimmed = max(point.trimmed, source - point.dropped)
        return found + 1 < points.count ? min(trimmed, points[found + 1].trimmed) : trimmed
    }

    /// Drops the points wholly before trimmed frame `trimmed` (heard already).
    public mutating func forget(before trimmed: Int) {
        let index = index(atTrimmed: trimmed)
        if index > 0 { points.removeFirst(index) }
    }
}
