/// A linear gain envelope stepped once per frame on the real-time thread.
///
/// A ramp toward a new target lasts exactly `round(|target - current| / step)`
/// frames: the gain is computed from the frame count, not accumulated, because
/// summing a float step over a thousand frames drifts enough to add a frame,
/// and an exact stop frame is what makes resume positions exact.
public struct GainRamp: Sendable {
    public private(set) var current: Float
    /// Gain change per frame, used to size a ramp when its target changes.
    public var stepPerFrame: Float
    private var rampTarget: Float
    private var rampFrom: Float
    private var rampFrames = 0
    private var rampDone = 0

    public init(current: Float = 1, stepPerFrame: Float = 1) {
        self.current = current
        self.stepPerFrame = stepPerFrame
        rampTarget = current
        rampFrom = current
    }

    /// Moves one frame toward `target` and returns the new gain.
    @_noLocks
    @inline(__always)
    public mutating func next(toward target: Float) -> Float {
        if target != rampTarget {
            rampTarget = target
            rampFrom = current
            rampDone = 0
            // Round by hand: `rounded()` takes an enum whose metadata @_noLocks rejects.
            rampFrames = max(1, Int(abs(target - current) / max(stepPerFrame, 1e-9) + 0.5))
        }
        if current == target { return current }
        rampDone += 1
        current = rampDone >= rampFrames
            ? target : rampFrom + (target - rampFrom) * (Float(rampDone) / Float(rampFrames))
        return current
    }

    /// Starts a ramp from the gain now to `target` lasting exactly `frames` frames,
    /// whatever the step (an aimed pause's fade, which must end on a given frame).
    @_noLocks
    @inline(__always)
    public mutating func ramp(toward target: Float, overFrames frames: Int) {
        rampTarget = target
        rampFrom = current
        rampDone = 0
        rampFrames = max(1, frames)
    }

    /// True when the gain sits at `target` and will not move.
    @_noLocks
    @inline(__always)
    public func isSettled(at target: Float) -> Bool { current == target }

    /// The per-frame step that crosses the full 0...1 range in `frames` frames.
    public static func step(overFrames frames: Int) -> Float { frames <= 0 ? 1 : 1 / Float(frames) }

    /// The per-frame step that goes from `from` to `to` in `frames` frames (at
    /// least one; a change too small to measure still gets a step).
    public static func step(from: Float, to: Float, overFrames frames: Int) -> Float {
        max(0.001, abs(to - from)) / Float(max(1, frames))
    }

    /// Scales a sample, rounding half away from zero and clipping. A gain of
    /// exactly 1 returns the sample unchanged, which keeps unity playback
    /// bit-identical to the decoder's output (and to `mpg123 -w`).
    @_noLocks
    @inline(__always)
    static func scale(_ sample: Int16, by gain: Float) -> Float {
        Float(sample) * gain
    }

    /// Rounds and clips a mixed value to a sample. Rounding is done by hand:
    /// `rounded()` takes a rounding-rule enum whose metadata @_noLocks rejects.
    @_noLocks
    @inline(__always)
    static func sample(_ value: Float) -> Int16 {
        let clamped = max(-32768, min(32767, value + (value >= 0 ? 0.5 : -0.5)))
        return Int16(clamped)
    }
}
