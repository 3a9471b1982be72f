import SpokenAudio
#if canImport(Glibc)
import Glibc
#endif

/// Live voice levelling ("voice boost") for spoken audio, on the main
/// loop's thread between the silence trimmer and the speed stage.
///
/// Loudness as EBU R 128 measures it (BS.1770's K-weighting, 100 ms blocks
/// of summed channel power), estimated for each block over 3 s centred on
/// it (1.5 s of look-ahead: the frames wait in `delay`), the blocks of
/// pauses left out (under -60 LUFS, or 20 LU under the window's mean). The
/// gain brings that estimate to the target, moving with a 0.3 s time
/// constant while a voice speaks and frozen in pauses, where it may only
/// fall (ahead of a louder voice), never rise: no pumping of room noise.
/// A look-ahead limiter then keeps the true peak (4x oversampled) under
/// -1.5 dBTP: the gain it needs is a sliding minimum over 2x1.5 ms smoothed
/// by a box of the same length, so it is never above what any peak needs,
/// and it recovers over 50 ms.
///
/// Frames come out one for one, in order, 1.5 s later: positions are
/// untouched. Nothing allocates after `init`.
final class VoiceLeveller {
    let rate: Int
    let channels: Int
    private(set) var target: Int
    let blockFrames: Int
    static let lookAheadBlocks = 15
    static let lookBehindBlocks = 15
    /// The limiter's half window (1.5 ms).
    let limiterHalf: Int
    let maxInputFrames: Int

    // The frames waiting for their gain, as a ring.
    private let delay: UnsafeMutablePointer<Int16>
    private let delayCapacity: Int
    private let delayMask: Int
    /// Frames written and read since `reset` (frame n sits at n % delayCapacity).
    private var framesIn = 0
    private var framesOut = 0
    private var ended = false

    // K-weighting: two biquads a channel (transposed direct form II).
    let shelf: (b0: Double, b1: Double, b2: Double, a1: Double, a2: Double)
    let highPass: (b0: Double, b1: Double, b2: Double, a1: Double, a2: Double)
    private let filterState: UnsafeMutablePointer<Double>
    private var blockEnergy = 0.0
    private var blockFill = 0

    // Blocks: their energies and the gains decided for them, in rings.
    private static let blockRing = 64
    private let energies: UnsafeMutablePointer<Double>
    private let gains: UnsafeMutablePointer<Float>
    private var blocksMeasured = 0
    private var blocksGained = 0
    /// The gain now, in dB; nil before the first voice.
    private var gainDecibels: Double?
    /// (i + 1) / blockFrames for each frame i of a block: the way from one block's gain to the next.
    private let through: UnsafeMutablePointer<Float>
    /// The release's value for each frame of `read`'s batch (at most a block).
    private let releases: UnsafeMutablePointer<Float>

    // The limiter.
    let phaseTaps: UnsafeMutablePointer<Float>
    static let taps = 8
    static let phases = 3
    let ceiling: Float
    /// The largest sum of tap magnitudes over the phases (at least 1: the sample itself).
    let tapMagnitude: Float
    private let limiterQueueIndex: UnsafeMutablePointer<Int>
    private let limiterQueueValue: UnsafeMutablePointer<Float>
    private var limiterQueueFirst = 0
    private var limiterQueueCount = 0
    private let limiterQueueCapacity: Int
    private let minima: UnsafeMutablePointer<Float>
    private var minimaSum: Double = 0
    private let minimaCount: Int
    /// The slot of `limiterNext` in `minima` (its index modulo `minimaCount`, kept without a division).
    private var minimaSlot = 0
    /// The last frame whose minimum was under 1: `minimaCount` frames on, every minimum is 1.
    private var lastDip = Int.min / 2
    private var limiterNext = 0
    private var released: Float = 1
    let release: Float

    init(rate: Int, channels: Int, target: Int, maxInputFrames: Int) {
        let rate = max(1, rate)
        let channels = max(1, channels)
        let maxInput = max(1, maxInputFrames)
        let blockFrames = max(1, rate / 10)
        let limiterHalf = max(4, rate * 3 / 2000)
        self.rate = rate
        self.channels = channels
        self.target = target
        self.maxInputFrames = maxInput
        self.blockFrames = blockFrames
        self.limiterHalf = limiterHalf
        // A power of two, so a frame's slot is a mask, not a division, in the per-frame loops.
        var capacity = 1
        while capacity < (Self.lookAheadBlocks + 2) * blockFrames + 2 * limiterHalf + 2 * Self.taps + maxInput {
            capacity *= 2
        }
        delayCapacity = capacity
        delayMask = capacity - 1
        delay = .allocate(capacity: capacity * channels)
        filterState = .allocate(capacity: 4 * channels)
        energies = .allocate(capacity: Self.blockRing)
        gains = .allocate(capacity: Self.blockRing)
        through = .allocate(capacity: blockFrames)
        releases = .allocate(capacity: blockFrames)
        for frame in 0..<blockFrames { through[frame] = Float(frame + 1) / Float(blockFrames) }

        // BS.1770's pre-filter and RLB filter for this rate (libebur128's derivation).
        var frequency = 1681.974450955533
        var q = 0.7071752369554196
        var k = tan(Double.pi * frequency / Double(rate))
        let vh = pow(10, 3.999843853973347 / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        shelf = ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0,
                 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
        frequency = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * frequency / Double(rate))
        a0 = 1 + k / q + k * k
        highPass = (1, -2, 1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)

        // 4x oversampling: the values a quarter, half and three quarters of the
        // way to the next frame, from 8 frames around (Hann-windowed sinc, unity gain).
        let taps = UnsafeMutablePointer<Float>.allocate(capacity: Self.phases * Self.taps)
        var magnitude: Float = 1
        for phase in 0..<Self.phases {
            let offset = Double(phase + 1) / 4
            var weights = [Double](repeating: 0, count: Self.taps)
            for tap in 0..<Self.taps {
                let x = Double(tap - 3) - offset
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                weights[tap] = sinc * (0.5 + 0.5 * cos(Double.pi * x / 4.5))
            }
            let sum = weights.reduce(0, +)
            var absolute: Float = 0
            for tap in 0..<Self.taps {
                taps[phase * Self.taps + tap] = Float(weights[tap] / sum)
                absolute += abs(Float(weights[tap] / sum))
            }
            magnitude = max(magnitude, absolute)
        }
        phaseTaps = taps
        tapMagnitude = magnitude
        ceiling = Float(pow(10, -1.5 / 20) * 32767)
        limiterQueueCapacity = 2 * limiterHalf + 2
        limiterQueueIndex = .allocate(capacity: 2 * limiterHalf + 2)
        limiterQueueValue = .allocate(capacity: 2 * limiterHalf + 2)
        minimaCount = 2 * limiterHalf + 1
        minima = .allocate(capacity: 2 * limiterHalf + 1)
        release = Float(1 - exp(-1 / (0.05 * Double(rate))))
        reset()
    }

    deinit {
        delay.deallocate()
        filterState.deallocate()
        energies.deallocate()
        gains.deallocate()
        through.deallocate()
        releases.deallocate()
        phaseTaps.deallocate()
        limiterQueueIndex.deallocate()
        limiterQueueValue.deallocate()
        minima.deallocate()
    }

    /// Starts afresh (a seek): nothing held, the gain decided anew.
    func reset() {
        framesIn = 0
        framesOut = 0
        ended = false
        filterState.initialize(repeating: 0, count: 4 * channels)
        blockEnergy = 0
        blockFill = 0
        blocksMeasured = 0
        blocksGained = 0
        gainDecibels = nil
        limiterQueueFirst = 0
        limiterQueueCount = 0
        minima.initialize(repeating: 1, count: minimaCount)
        minimaSum = Double(minimaCount)
        released = 1
        lastDip = Int.min / 2
        minimaSlot = ((-2 * limiterHalf) % minimaCount + minimaCount) % minimaCount
        // The limiter's gains are for the frames 2 x half behind the newest peak looked at.
        limiterNext = -2 * limiterHalf
        while limiterNext < 0 { pushLimit(1) }
    }

    func setTarget(_ target: Int) { self.target = target }

    /// Room for a `write` of this many frames.
    var freeFrames: Int { delayCapacity - (framesIn - framesOut) }
    /// Frames whose gain is known and whose peaks have been looked ahead of.
    var availableFrames: Int {
        if ended { return framesIn - framesOut }
        let gained = min(framesIn, blocksGained * blockFrames)
        return max(0, gained - 2 * limiterHalf - Self.taps - framesOut)
    }
    /// Frames inside: 1.5 s while it plays.
    var heldFrames: Int { framesIn - framesOut }
    /// Flushed: it takes nothing more until `reset`.
    var isEnded: Bool { ended }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) {
        let count = min(frames, freeFrames)
        guard count > 0, !ended else { return }
        var done = 0
        while done < count {
            // Up to the block's end: its energy is summed, then the block is measured.
            let run = min(count - done, blockFrames - blockFill)
            let source = samples + done * channels
            let start = (framesIn + done) & delayMask
            let first = min(run, delayCapacity - start)
            (delay + start * channels).update(from: source, count: first * channels)
            if first < run { delay.update(from: source + first * channels, count: (run - first) * channels) }
            switch channels {
            case 1: weighMono(source, frames: run)
            case 2: weighStereo(source, frames: run)
            default: weigh(source, frames: run)
            }
            blockFill += run
            done += run
            if blockFill == blockFrames { endBlock() }
        }
        framesIn += count
    }

    /// The input ended: every frame can come out.
    func flush() {
        guard !ended else { return }
        if blockFill > 0 { endBlock() }
        while blocksGained < blocksMeasured { decideGain(forBlock: blocksGained) }
        ended = true
    }

    /// Reads levelled frames into `buffer`; returns the frames read.
    ///
    /// Per frame only what changes is computed: the limiter's mean is divided
    /// out when a need changed it, the release stops once it cannot move,
    /// the gain's block is followed rather than divided for, and a run of
    /// frames whose peaks cannot reach the ceiling (`quiet`) is not
    /// interpolated. Every value is the one the frame-by-frame definition
    /// gives, bit for bit.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let frames = min(availableFrames, buffer.count / (channels * 2))
        guard frames > 0, let base = buffer.baseAddress?.assumingMemoryBound(to: Int16.self) else { return 0 }
        let reach = 2 * limiterHalf
        // The last frame whose need this read looks at.
        let lastNeeded = framesOut + frames - 1 + reach
        // Needs known to be 1 before `quietEnd`; looked at one by one before `loudEnd`.
        var quietEnd = limiterNext
        var loudEnd = limiterNext
        var summed = minimaSum
        var limiter = Float(summed / Double(minimaCount))
        var settled = false
        var block = framesOut / blockFrames
        var inBlock = framesOut - block * blockFrames
        var (previous, current) = blockGains(block)
        var output = base
        let delay = self.delay
        let through = self.through
        // Frames before this have their needs pushed already (a quiet run).
        var pushedFor = framesOut
        var frame = 0
        while frame < frames {
            let n = framesOut + frame
            if n >= pushedFor, limiterNext == n + reach, limiterNext >= loudEnd, limiterNext >= quietEnd,
               limiterQueueValue[limiterQueueFirst] == 1, lastDip < limiterNext - minimaCount {
                // No need under 1 in the queue or the minima, so the box stays where it is: if
                // the next run's needs are 1 too, they are pushed at once and the limiter holds.
                let end = min(frames, frame + Self.quietRun)
                let last = framesOut + end - 1 + reach
                if quiet(from: limiterNext, to: last + 1) {
                    pushOnes(through: last)
                    pushedFor = framesOut + end
                } else {
                    loudEnd = last + 1
                }
            }
            // The limiter's gain for frame n needs the peaks up to n + 2 x half.
            while limiterNext <= n + reach {
                if limiterNext >= quietEnd && limiterNext >= loudEnd {
                    let end = min(limiterNext + Self.quietRun, lastNeeded + 1)
                    if quiet(from: limiterNext, to: end) { quietEnd = end } else { loudEnd = end }
                }
                pushLimit(limiterNext < quietEnd ? 1 : required(at: limiterNext))
            }
            if minimaSum != summed {
                summed = minimaSum
                limiter = Float(summed / Double(minimaCount))
                settled = false
            }
            if inBlock == blockFrames {
                block += 1
                inBlock = 0
                (previous, current) = blockGains(block)
            }
            // This frame, and with the needs pushed, the rest of the block's or the quiet run's
            // frames: no need changes the limiter's gain, so only the release (until it settles),
            // the gain's slope and the samples change.
            let batch = max(1, min(frames - frame, pushedFor - n, blockFrames - inBlock))
            var moving = 0
            while moving < batch && !settled {
                let next = min(limiter, released + (1 - released) * release)
                // A release that no longer moves stays where it is until the limiter's gain changes.
                settled = next == released
                released = next
                releases[moving] = released
                moving += 1
            }
            (releases + moving).update(repeating: released, count: batch - moving)
            let delta = current - previous
            let run = LevelledRun(delay: delay, delayMask: delayMask, channels: channels, through: through,
                                  releases: releases, previous: previous, delta: delta)
            let vectored = run.write(first: n, count: batch, inBlock: inBlock, to: output)
            output += vectored * channels
            for index in vectored..<batch {
                let gain = (previous + delta * through[inBlock + index]) * releases[index]
                let slot = ((n + index) & delayMask) * channels
                for channel in 0..<channels {
                    output[channel] = Self.clampedRounded(Float(delay[slot + channel]) * gain)
                }
                output += channels
            }
            inBlock += batch
            frame += batch
        }
        framesOut += frames
        return frames
    }

    /// Frames of needs that `read` rules out at once when their peaks cannot reach the ceiling.
    private static let quietRun = 32

    /// `value` rounded half away from zero (as `rounded()`) into 16 bits, without
    /// a call to libm's `roundf` (x86-64's baseline has no rounding instruction).
    /// Clamping to whole bounds first gives what rounding first would.
    @inline(__always)
    static func clampedRounded(_ value: Float) -> Int16 {
        let clamped = max(-32768, min(32767, value))
        // 1.5 x 2^23 added rounds to a whole number, half to even, and leaves it in the
        // low bits: no branch on the sign or the fraction (coin tosses, each a mispredicted
        // branch costing more than the rest of the frame) and no checked conversion.
        let biased = clamped + 12_582_912
        let even = Int32(bitPattern: biased.bitPattern) &- 0x4B40_0000
        // Exact. A half (rare: a product landing on .5) goes away from zero instead.
        if abs(clamped - (biased - 12_582_912)) == 0.5 { return Int16(clamped.rounded()) }
        return Int16(truncatingIfNeeded: even)
    }

    // MARK: Loudness

    private func kWeighted(_ sample: Double, channel: Int) -> Double {
        let state = filterState + channel * 4
        let s = shelf
        let first = s.b0 * sample + state[0]
        state[0] = s.b1 * sample - s.a1 * first + state[1]
        state[1] = s.b2 * sample - s.a2 * first
        let h = highPass
        let second = h.b0 * first + state[2]
        state[2] = h.b1 * first - h.a1 * second + state[3]
        state[3] = h.b2 * first - h.a2 * second
        return second * second
    }

    /// Adds `frames` frames' K-weighted power, summed over the channels, to the block's energy.
    private func weigh(_ samples: UnsafePointer<Int16>, frames: Int) {
        for frame in 0..<frames {
            var power = 0.0
            for channel in 0..<channels { power += kWeighted(Double(samples[frame * channels + channel]) / 32768, channel: channel) }
            blockEnergy += power
        }
    }

    /// `weigh` for one channel, its filter state in registers: the same sums in the same order.
    private func weighMono(_ samples: UnsafePointer<Int16>, frames: Int) {
        let s = shelf
        let h = highPass
        var state = (filterState[0], filterState[1], filterState[2], filterState[3])
        var energy = blockEnergy
        for frame in 0..<frames {
            energy += Self.kWeighted(Double(samples[frame]) / 32768, s, h, &state)
        }
        (filterState[0], filterState[1], filterState[2], filterState[3]) = state
        blockEnergy = energy
    }

    /// `weigh` for two channels, as `weighMono`.
    private func weighStereo(_ samples: UnsafePointer<Int16>, frames: Int) {
        let s = shelf
        let h = highPass
        var left = (filterState[0], filterState[1], filterState[2], filterState[3])
        var right = (filterState[4], filterState[5], filterState[6], filterState[7])
        var energy = blockEnergy
        for frame in 0..<frames {
            let power = Self.kWeighted(Double(samples[2 * frame]) / 32768, s, h, &left)
                + Self.kWeighted(Double(samples[2 * frame + 1]) / 32768, s, h, &right)
            energy += power
        }
        (filterState[0], filterState[1], filterState[2], filterState[3]) = left
        (filterState[4], filterState[5], filterState[6], filterState[7]) = right
        blockEnergy = energy
    }

    private typealias Biquad = (b0: Double, b1: Double, b2: Double, a1: Double, a2: Double)

    /// `kWeighted` on a state held by the caller.
    @inline(__always)
    private static func kWeighted(_ sample: Double, _ s: Biquad, _ h: Biquad,
                                  _ state: inout (Double, Double, Double, Double)) -> Double {
        let first = s.b0 * sample + state.0
        state.0 = s.b1 * sample - s.a1 * first + state.1
        state.1 = s.b2 * sample - s.a2 * first
        let second = h.b0 * first + state.2
        state.2 = h.b1 * first - h.a1 * second + state.3
        state.3 = h.b2 * first - h.a2 * second
        return second * second
    }

    private func endBlock() {
        energies[blocksMeasured % Self.blockRing] = blockEnergy / Double(max(1, blockFill))
        blocksMeasured += 1
        blockEnergy = 0
        blockFill = 0
        while blocksGained + Self.lookAheadBlocks < blocksMeasured { decideGain(forBlock: blocksGained) }
    }

    /// -60 LUFS as a mean square (BS.1770: L = -0.691 + 10 log10(power)).
    private static let absoluteGate = pow(10, (-60 + 0.691) / 10)

    private func decideGain(forBlock block: Int) {
        let first = max(0, block - Self.lookBehindBlocks, blocksMeasured - Self.blockRing)
        let last = min(blocksMeasured - 1, block + Self.lookAheadBlocks)
        var sum = 0.0
        var count = 0
        for index in first...max(first, last) where index <= last {
            sum += energies[index % Self.blockRing]
            count += 1
        }
        let gate = max(Self.absoluteGate, count > 0 ? sum / Double(count) / 100 : Self.absoluteGate)
        var voiced = 0.0
        var voicedCount = 0
        for index in first...max(first, last) where index <= last && energies[index % Self.blockRing] > gate {
            voiced += energies[index % Self.blockRing]
            voicedCount += 1
        }
        let own = block < blocksMeasured ? energies[block % Self.blockRing] : 0
        if voicedCount > 0 {
            let loudness = -0.691 + 10 * log10(voiced / Double(voicedCount))
            let wanted = min(24, max(-12, Double(target) - loudness))
            if let current = gainDecibels {
                // 0.3 s time constant over a 100 ms block.
                let step = (wanted - current) * 0.2834687
                if own > gate || step < 0 { gainDecibels = current + step }
            } else {
                gainDecibels = wanted
            }
        }
        gains[block % Self.blockRing] = Float(pow(10, (gainDecibels ?? 0) / 20))
        blocksGained += 1
    }

    /// The gains a block's frames go between: the previous block's and its own.
    private func blockGains(_ block: Int) -> (previous: Float, current: Float) {
        let current = gains[block % Self.blockRing]
        let previous = block > 0 && block > blocksGained - Self.blockRing ? gains[(block - 1) % Self.blockRing] : current
        return (previous, current)
    }

    /// The gain of frame n: from the previous block's gain to its block's, across the block.
    private func gainAt(_ n: Int) -> Float {
        let block = n / blockFrames
        let (previous, current) = blockGains(block)
        return previous + (current - previous) * through[n - block * blockFrames]
    }

    // MARK: The limiter

    /// True when every frame from `start` to before `end` needs no limiting, as
    /// `required` would find: no sample its interpolation reads, times the
    /// largest gain of their blocks (a hair over it: the interpolation
    /// between two gains rounds), times the taps' magnitude, reaches the ceiling.
    /// Most of speech: one pass over the samples instead of one per frame.
    private func quiet(from start: Int, to end: Int) -> Bool {
        let firstFrame = max(start, framesOut)
        let lastFrame = min(end - 1, framesIn - 1)
        guard firstFrame <= lastFrame else { return true }
        let first = max(framesOut, firstFrame - 3)
        let last = min(framesIn - 1, lastFrame + 4)
        let largest = largestMagnitude(from: first, through: last)
        var gain: Float = 0
        for block in max(0, firstFrame / blockFrames - 1)...(lastFrame / blockFrames) {
            gain = max(gain, gains[block % Self.blockRing])
        }
        return Float(largest) * (gain * 1.0001) * tapMagnitude <= ceiling
    }

    /// The largest sample magnitude of frames `first` through `last`, in the ring's one or two stretches.
    private func largestMagnitude(from first: Int, through last: Int) -> Int32 {
        let start = first & delayMask
        let frames = last - first + 1
        let head = min(frames, delayCapacity - start)
        var largest: Int32 = 0
        for value in UnsafeBufferPointer(start: delay + start * channels, count: head * channels) {
            largest = max(largest, abs(Int32(value)))
        }
        for value in UnsafeBufferPointer(start: delay, count: (frames - head) * channels) {
            largest = max(largest, abs(Int32(value)))
        }
        return largest
    }

    /// The limiter gain frame k needs: the ceiling over its gained true peak (1 past the end).
    private func required(at k: Int) -> Float {
        guard k < framesIn, k >= framesOut else { return 1 }
        let gain = gainAt(k)
        // The frames the interpolation reads: those before the next to go out, or not yet in, are silence.
        let first = max(framesOut, k - 3)
        let last = min(framesIn - 1, k + 4)
        var largest: Int32 = 0
        for index in first...last {
            let slot = (index & delayMask) * channels
            for channel in 0..<channels { largest = max(largest, abs(Int32(delay[slot + channel]))) }
        }
        // No interpolated value exceeds the largest sample by more than the taps' sum of
        // magnitudes: under the ceiling by that margin, no peak needs looking at (most frames of speech).
        guard Float(largest) * gain * tapMagnitude > ceiling else { return 1 }
        var peak: Float = 0
        for channel in 0..<channels {
            var window: (Float, Float, Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &window) { raw in
                let values = raw.bindMemory(to: Float.self)
                for tap in 0..<Self.taps where k - 3 + tap >= first && k - 3 + tap <= last {
                    values[tap] = Float(delay[((k - 3 + tap) & delayMask) * channels + channel])
                }
                peak = max(peak, abs(values[3]))
                for phase in 0..<Self.phases {
                    var value: Float = 0
                    for tap in 0..<Self.taps { value += phaseTaps[phase * Self.taps + tap] * values[tap] }
                    peak = max(peak, abs(value))
                }
            }
        }
        let gained = peak * gain
        return gained > ceiling ? ceiling / gained : 1
    }

    /// `pushLimit(1)` for each frame from `limiterNext` through `last`, when
    /// the queue holds only 1s and every minimum is 1: the queue comes to
    /// hold the last alone, each minimum pushed is 1 over a 1 (the sum moves by 0).
    private func pushOnes(through last: Int) {
        let pushes = last + 1 - limiterNext
        guard pushes > 0 else { return }
        limiterQueueFirst = 0
        limiterQueueCount = 1
        limiterQueueIndex[0] = last
        limiterQueueValue[0] = 1
        minimaSlot = (minimaSlot + pushes) % minimaCount
        limiterNext = last + 1
    }

    /// Adds frame `limiterNext`'s need; the sliding minimum over 2 x half + 1
    /// needs is centred `half` back, and the box over those minima `2 x half` back.
    private func pushLimit(_ need: Float) {
        let index = limiterNext
        let capacity = limiterQueueCapacity
        while limiterQueueCount > 0 && limiterQueueIndex[limiterQueueFirst] < index - 2 * limiterHalf {
            limiterQueueFirst = limiterQueueFirst + 1 == capacity ? 0 : limiterQueueFirst + 1
            limiterQueueCount -= 1
        }
        while limiterQueueCount > 0 {
            let back = limiterQueueFirst + limiterQueueCount - 1
            guard limiterQueueValue[back >= capacity ? back - capacity : back] >= need else { break }
            limiterQueueCount -= 1
        }
        let end = limiterQueueFirst + limiterQueueCount
        let slot = end >= capacity ? end - capacity : end
        limiterQueueIndex[slot] = index
        limiterQueueValue[slot] = need
        limiterQueueCount += 1
        let minimum = limiterQueueValue[limiterQueueFirst]
        if minimum < 1 { lastDip = index }
        minimaSum += Double(minimum) - Double(minima[minimaSlot])
        minima[minimaSlot] = minimum
        minimaSlot = minimaSlot + 1 == minimaCount ? 0 : minimaSlot + 1
        limiterNext += 1
    }
}
