/// A linear gain envelope stepped once per frame on the real-time thread.
public struct GainRamp: Sendable {
    public private(set) var current: Float
    /// Gain change per frame while moving toward a target.
    public var stepPerFrame: Float

    public init(current: Float = 1, stepPerFrame: Float = 1) {
        self.current = current
        self.stepPerFrame = stepPerFrame
    }

    /// Moves one frame toward `target` and returns the new gain.
    @_noLocks
    @inline(__always)
    public mutating func next(toward target: Float) -> Float {
        if current < target {
            current = min(target, current + stepPerFrame)
        } else if current > target {
            current = max(target, current - stepPerFrame)
        }
        return current
    }

    /// True when the gain sits at `target` and will not move.
    @_noLocks
    @inline(__always)
    public func isSettled(at target: Float) -> Bool { current == target }

    /// The per-frame step that crosses the full 0...1 range in `frames` frames.
    public static func step(overFrames frames: Int) -> Float { frames <= 0 ? 1 : 1 / Float(frames) }

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
