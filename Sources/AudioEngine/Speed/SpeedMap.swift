/// Maps output frames (what went into the media ring since the last seek) to
/// source frames (the decoded file's own frames, book time) across speed
/// changes, so every position stays in source frames at any speed.
///
/// A piecewise-linear map: each point says "output frame `output` is source
/// frame `source`, and from here on one output frame stands for `speed` source
/// frames". Between two points the map interpolates; after the last it
/// extrapolates at the last speed. A speed change adds a point where the map
/// already was (no jump). libsonic keeps a few milliseconds of input in its
/// buffers, so the map can stray from the truth by that much; where the
/// correspondence is known exactly (the stretcher drained at a return to 1.0x,
/// or at the end of the queue) an `anchor` puts the map back on it, and the
/// interpolation spreads the correction over the segment before.
public struct SpeedMap: Equatable, Sendable {
    public struct Point: Equatable, Sendable {
        public var output: Int
        public var source: Int
        public var speed: PlaybackSpeed
    }

    public private(set) var points: [Point]

    public init(speed: PlaybackSpeed = .normal) {
        points = [Point(output: 0, source: 0, speed: speed)]
    }

    /// The source frame (relative to the last seek) of output frame `output`.
    public func source(atOutput output: Int) -> Int {
        guard let index = points.lastIndex(where: { $0.output <= output }) else { return points[0].source }
        let point = points[index]
        if index + 1 < points.count {
            let next = points[index + 1]
            let span = next.output - point.output
            guard span > 0 else { return next.source }
            return point.source + (next.source - point.source) * (output - point.output) / span
        }
        return point.source + point.speed.sourceFrames(forOutput: output - point.output)
    }

    /// The first output frame (relative to the last seek) that reaches source
    /// frame `source`: the inverse of `source(atOutput:)`, extrapolated at the last
    /// speed past the last point (what is not decoded yet plays at the speed now).
    public func output(atSource source: Int) -> Int {
        guard let index = points.lastIndex(where: { $0.source <= source }) else { return points[0].output }
        let point = points[index]
        if index + 1 < points.count {
            let next = points[index + 1]
            let span = next.source - point.source
            guard span > 0 else { return next.output }
            // Rounded up, as `source(atOutput:)` rounds down: the first output frame that reaches it.
            return point.output + ((next.output - point.output) * (source - point.source) + span - 1) / span
        }
        return point.output + point.speed.outputFrames(forSource: source - point.source)
    }

    /// From output frame `output` on, one output frame stands for `speed` source frames.
    public mutating func change(to speed: PlaybackSpeed, atOutput output: Int) {
        let source = self.source(atOutput: output)
        if points[points.count - 1].output == output {
            points[points.count - 1].speed = speed
            points[points.count - 1].source = source
        } else {
            points.append(Point(output: max(output, points[points.count - 1].output), source: source, speed: speed))
        }
    }

    /// Output frame `output` is exactly source frame `source` (never moved backwards).
    public mutating func anchor(output: Int, source: Int) {
        let last = points.count - 1
        if points[last].output == output {
            points[last].source = max(source, last > 0 ? points[last - 1].source : source)
        } else if output > points[last].output {
            points.append(Point(output: output, source: max(source, points[last].source), speed: points[last].speed))
        }
    }

    /// Drops points wholly before `output` (heard already), keeping the map's value there.
    public mutating func forget(before output: Int) {
        guard let index = points.lastIndex(where: { $0.output <= output }), index > 0 else { return }
        points.removeFirst(index)
    }
}
