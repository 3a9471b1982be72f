/// When the player draws: at once after anything changed (a key, an event,
/// a resize), and while something moves by itself (the clock and progress
/// bar while playing, the banner's countdown) at most every `interval`
/// seconds. Nothing else wakes it, so a paused player draws nothing.
public struct RedrawPolicy: Sendable {
    /// Four redraws a second at most for the clock and the progress bar.
    public static let interval = 0.25

    private var lastDraw = -Double.infinity
    private var changed = true

    public init() {}

    /// Something on screen may have changed: draw after this turn.
    public mutating func setNeedsDraw() { changed = true }

    /// Whether to draw now (monotonic seconds); when it says yes, it counts as drawn.
    public mutating func shouldDraw(now: Double, moving: Bool) -> Bool {
        guard changed || (moving && now - lastDraw >= Self.interval) else { return false }
        changed = false
        lastDraw = now
        return true
    }

    /// How long the loop may sleep: until the next timed redraw while
    /// something moves, for ever (nil) otherwise.
    public func maximumWaitMilliseconds(moving: Bool) -> Int? {
        moving ? Int(Self.interval * 1000) : nil
    }
}
