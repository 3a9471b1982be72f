/// A linear gain ramp applied sample by sample on the real-time thread.
///
/// At unity gain with no ramp in progress the samples pass through untouched,
/// which keeps the output bit-identical to the decoder's (and to `mpg123 -w`).
public struct GainRamp: Sendable {
    public private(set) var current: Float
    /// Gain change per frame while moving toward a target.
    public var stepPerFrame: Float

    public init(current: Float = 1, stepPerFrame: Float = 1) {
        self.current = current
        self.stepPerFrame = stepPerFrame
    }

    /// Copies `frames` frames of `channels` samples from `source` to
    /// `destination`, moving the gain toward `target`.
    @_noLocks
    public mutating func apply(from source: UnsafePointer<Int16>, to destination: UnsafeMutablePointer<Int16>,
                               frames: Int, channels: Int, target: Float) {
        let samples = frames * channels
        if current == target && current == 1 {
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: samples * 2)
            return
        }
        if current == target && current == 0 {
            UnsafeMutableRawPointer(destination).initializeMemory(as: UInt8.self, repeating: 0, count: samples * 2)
            return
        }
        var index = 0
        for _ in 0..<frames {
            if current < target {
                current = min(target, current + stepPerFrame)
            } else if current > target {
                current = max(target, current - stepPerFrame)
            }
            for _ in 0..<channels {
                destination[index] = Self.scale(source[index], by: current)
                index += 1
            }
        }
    }

    @_noLocks
    @inline(__always)
    static func scale(_ sample: Int16, by gain: Float) -> Int16 {
        // Round half away from zero by hand: `rounded()` takes a rounding-rule enum
        // whose metadata @_noLocks rejects.
        let scaled = Float(sample) * gain
        let clamped = max(-32768, min(32767, scaled + (scaled >= 0 ? 0.5 : -0.5)))
        return Int16(clamped)
    }
}
