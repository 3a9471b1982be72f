/// The levelled samples of a run of frames whose limiter gain holds
/// (`VoiceLeveller.read`'s batch), eight samples at a time: each lane does
/// the scalar frame's operations in the same order on the same values (no
/// fused multiply-add: Swift asks for none), so every sample is the one
/// `VoiceLeveller.clampedRounded` gives, bit for bit.
struct LevelledRun {
    let delay: UnsafeMutablePointer<Int16>
    let delayMask: Int
    let channels: Int
    /// `VoiceLeveller.through`: where each frame of a block lies between its two gains.
    let through: UnsafeMutablePointer<Float>
    /// The limiter's released gain for each frame of the run, from its first.
    let releases: UnsafeMutablePointer<Float>
    let previous: Float
    let delta: Float

    /// Writes frames `first` ..< `first + count` (their block's frames from
    /// `inBlock` on) to `output`; returns how many it did, from the first: it
    /// stops where eight samples would cross the ring's end or the run's, and
    /// the caller does the rest frame by frame.
    func write(first: Int, count: Int, inBlock: Int, to output: UnsafeMutablePointer<Int16>) -> Int {
        switch channels {
        case 1: return writeMono(first: first, count: count, inBlock: inBlock, to: output)
        case 2: return writeStereo(first: first, count: count, inBlock: inBlock, to: output)
        default: return 0
        }
    }

    private func writeMono(first: Int, count: Int, inBlock: Int, to output: UnsafeMutablePointer<Int16>) -> Int {
        let slot = first & delayMask
        let frames = min(count, delayMask + 1 - slot) & ~7
        var index = 0
        while index < frames {
            let gains = gainsOf(UnsafeRawPointer(through + inBlock + index).loadUnaligned(as: SIMD8<Float>.self),
                                UnsafeRawPointer(releases + index).loadUnaligned(as: SIMD8<Float>.self))
            let samples = UnsafeRawPointer(delay + slot + index).loadUnaligned(as: SIMD8<Int16>.self)
            UnsafeMutableRawPointer(output + index).storeBytes(of: Self.clampedRounded(Self.float(samples) * gains),
                                                               as: SIMD8<Int16>.self)
            index += 8
        }
        return frames
    }

    private func writeStereo(first: Int, count: Int, inBlock: Int, to output: UnsafeMutablePointer<Int16>) -> Int {
        let slot = first & delayMask
        let frames = min(count, delayMask + 1 - slot) & ~3
        var index = 0
        while index < frames {
            let gains = gainsOf(UnsafeRawPointer(through + inBlock + index).loadUnaligned(as: SIMD4<Float>.self),
                                UnsafeRawPointer(releases + index).loadUnaligned(as: SIMD4<Float>.self))
            let pairs = SIMD8<Float>(lowHalf: SIMD4(gains[0], gains[0], gains[1], gains[1]),
                                     highHalf: SIMD4(gains[2], gains[2], gains[3], gains[3]))
            let samples = UnsafeRawPointer(delay + 2 * (slot + index)).loadUnaligned(as: SIMD8<Int16>.self)
            UnsafeMutableRawPointer(output + 2 * index).storeBytes(of: Self.clampedRounded(Self.float(samples) * pairs),
                                                                   as: SIMD8<Int16>.self)
            index += 4
        }
        return frames
    }

    /// `(previous + delta * through) * released`, lane by lane.
    @inline(__always)
    private func gainsOf<V: SIMD>(_ through: V, _ released: V) -> V where V.Scalar == Float {
        (V(repeating: previous) + V(repeating: delta) * through) * released
    }

    @inline(__always)
    private static func float(_ samples: SIMD8<Int16>) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: samples))
    }

    /// `VoiceLeveller.clampedRounded`, lane by lane: clamped, rounded half to
    /// even by the added 1.5 x 2^23, and the rare exact half taken away from zero.
    @inline(__always)
    static func clampedRounded(_ value: SIMD8<Float>) -> SIMD8<Int16> {
        var clamped = value
        clamped.replace(with: SIMD8(repeating: 32767), where: value .> 32767)
        clamped.replace(with: SIMD8(repeating: -32768), where: value .< -32768)
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let biased = clamped + magic
        let even = unsafeBitCast(biased, to: SIMD8<Int32>.self) &- 0x4B40_0000
        var result = SIMD8<Int16>(truncatingIfNeeded: even)
        let fraction = clamped - (biased - magic)
        let halves = (fraction .== 0.5) .| (fraction .== -0.5)
        if any(halves) {
            for lane in 0..<8 where halves[lane] { result[lane] = Int16(clamped[lane].rounded()) }
        }
        return result
    }
}
