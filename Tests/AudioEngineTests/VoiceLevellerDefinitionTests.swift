@testable import AudioEngine
import Foundation
import Testing

/// The voice leveller streams: frames written and read in pieces of any
/// size, the limiter's needs ruled out a run at a time where no peak can
/// reach the ceiling, the gain's block followed rather than divided for.
/// Whatever the pieces, each frame must be what the leveller's definition
/// says it is, computed here frame by frame over the whole signal at once:
/// BS.1770 block energies, the gated gain decided for each block with 1.5 s
/// on each side, the true-peak need of each frame, its sliding minimum and
/// box, the release, and the rounding.
@Suite("Voice leveller: its streamed output is its frame-by-frame definition")
struct VoiceLevellerDefinitionTests {
    /// Speech-like: syllable bursts of a few partials at two voice levels
    /// (about -36 and -12 dBFS), pauses of room noise, and now and then a
    /// full-scale click; channels differ. Deterministic.
    static func signal(seconds: Double, rate: Int, channels: Int) -> [Int16] {
        var random: UInt64 = 0x5EED
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / Double(1 << 53)
        }
        let frames = Int(seconds * Double(rate))
        var samples = [Int16](repeating: 0, count: frames * channels)
        var frame = 0
        var loud = false
        while frame < frames {
            // A phrase of syllables, then a pause.
            loud.toggle()
            let level = loud ? 8000.0 : 500.0
            for _ in 0..<(3 + Int(next() * 5)) {
                let length = Int(Double(rate) * (0.08 + 0.2 * next()))
                let pitch = 90 + 160 * next()
                for offset in 0..<length where frame + offset < frames {
                    let t = Double(offset) / Double(rate)
                    let envelope = sin(Double.pi * Double(offset) / Double(length))
                    for channel in 0..<channels {
                        var value = 0.0
                        for partial in 1...5 { value += sin(2 * Double.pi * pitch * Double(partial) * t + Double(channel)) / Double(partial) }
                        value *= level * envelope * (channel == 0 ? 1 : 0.7)
                        value += (next() - 0.5) * 60
                        if next() < 0.0002 { value = next() < 0.5 ? 32767 : -32768 }
                        samples[(frame + offset) * channels + channel] = Int16(max(-32768, min(32767, value.rounded())))
                    }
                }
                frame += length
            }
            let pause = Int(Double(rate) * (0.2 + 1.2 * next()))
            for offset in 0..<pause where frame + offset < frames {
                for channel in 0..<channels { samples[(frame + offset) * channels + channel] = Int16((next() - 0.5) * 60) }
            }
            frame += pause
        }
        return samples
    }

    /// The leveller fed and read in pieces whose sizes cycle through `pieces`.
    static func streamed(_ input: [Int16], _ leveller: VoiceLeveller, pieces: [Int]) -> [Int16] {
        let channels = leveller.channels
        let frames = input.count / channels
        var output: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 8192 * channels)
        var written = 0
        var turn = 0
        func drain(_ most: Int) {
            buffer.withUnsafeMutableBytes { raw in
                let bytes = UnsafeMutableRawBufferPointer(rebasing: raw[0..<(min(most, 8192) * channels * 2)])
                let read = leveller.read(into: bytes)
                output.append(contentsOf: raw.bindMemory(to: Int16.self)[0..<(read * channels)])
            }
        }
        while written < frames {
            let count = min(pieces[turn % pieces.count], frames - written, leveller.freeFrames, leveller.maxInputFrames)
            input.withUnsafeBufferPointer { leveller.write($0.baseAddress! + written * channels, frames: count) }
            written += count
            drain(pieces[(turn + 1) % pieces.count])
            turn += 1
        }
        leveller.flush()
        while leveller.heldFrames > 0 {
            drain(pieces[turn % pieces.count])
            turn += 1
        }
        return output
    }

    /// The definition, over the whole signal at once, with the leveller's coefficients.
    static func defined(_ input: [Int16], _ leveller: VoiceLeveller) -> [Int16] {
        let channels = leveller.channels
        let frames = input.count / channels
        let blockFrames = leveller.blockFrames
        // BS.1770 energies of 100 ms blocks (the last one partial).
        var energies: [Double] = []
        var state = [Double](repeating: 0, count: 4 * channels)
        var energy = 0.0
        var fill = 0
        let s = leveller.shelf
        let h = leveller.highPass
        for frame in 0..<frames {
            var power = 0.0
            for channel in 0..<channels {
                let x = Double(input[frame * channels + channel]) / 32768
                let base = channel * 4
                let first = s.b0 * x + state[base]
                state[base] = s.b1 * x - s.a1 * first + state[base + 1]
                state[base + 1] = s.b2 * x - s.a2 * first
                let second = h.b0 * first + state[base + 2]
                state[base + 2] = h.b1 * first - h.a1 * second + state[base + 3]
                state[base + 3] = h.b2 * first - h.a2 * second
                power += second * second
            }
            energy += power
            fill += 1
            if fill == blockFrames {
                energies.append(energy / Double(fill))
                energy = 0
                fill = 0
            }
        }
        if fill > 0 { energies.append(energy / Double(fill)) }
        // Each block's gain, decided once 15 blocks after it are measured (or at the end).
        let absoluteGate = pow(10, (-60 + 0.691) / 10)
        var gains: [Float] = []
        var decibels: Double?
        for block in energies.indices {
            let measured = min(block + 16, energies.count)
            let window = max(0, block - 15)...min(measured - 1, block + 15)
            let mean = window.reduce(0.0) { $0 + energies[$1] } / Double(window.count)
            let gate = max(absoluteGate, mean / 100)
            var voiced = 0.0
            var voicedCount = 0
            for index in window where energies[index] > gate {
                voiced += energies[index]
                voicedCount += 1
            }
            if voicedCount > 0 {
                let wanted = min(24, max(-12, Double(leveller.target) - (-0.691 + 10 * log10(voiced / Double(voicedCount)))))
                if let current = decibels {
                    let step = (wanted - current) * 0.2834687
                    if energies[block] > gate || step < 0 { decibels = current + step }
                } else {
                    decibels = wanted
                }
            }
            gains.append(Float(pow(10, (decibels ?? 0) / 20)))
        }
        func gain(_ n: Int) -> Float {
            let block = n / blockFrames
            let previous = block > 0 ? gains[block - 1] : gains[block]
            return previous + (gains[block] - previous) * (Float(n - block * blockFrames + 1) / Float(blockFrames))
        }
        // Each frame's need: the ceiling over its gained true peak (4x, from the 8 frames around it).
        func sample(_ frame: Int, _ channel: Int) -> Float {
            frame >= 0 && frame < frames ? Float(input[frame * channels + channel]) : 0
        }
        var needs = [Float](repeating: 1, count: frames)
        for k in 0..<frames {
            var peak: Float = 0
            for channel in 0..<channels {
                peak = max(peak, abs(sample(k, channel)))
                for phase in 0..<VoiceLeveller.phases {
                    var value: Float = 0
                    for tap in 0..<VoiceLeveller.taps {
                        value += leveller.phaseTaps[phase * VoiceLeveller.taps + tap] * sample(k - 3 + tap, channel)
                    }
                    peak = max(peak, abs(value))
                }
            }
            let gained = peak * gain(k)
            needs[k] = gained > leveller.ceiling ? leveller.ceiling / gained : 1
        }
        // The minimum over 2 x half + 1 needs, boxed over as many minima, 2 x half back; the release.
        let reach = 2 * leveller.limiterHalf
        let count = reach + 1
        // minima[k]: the least need of frames k - 2 x half ... k (1 outside the signal), by a monotonic queue.
        let extended = needs + [Float](repeating: 1, count: reach)
        var minima = [Float](repeating: 1, count: extended.count)
        var queue = [Int](repeating: 0, count: extended.count)
        var head = 0
        var tail = 0
        for k in extended.indices {
            while tail > head && extended[queue[tail - 1]] >= extended[k] { tail -= 1 }
            queue[tail] = k
            tail += 1
            while queue[head] < k - reach { head += 1 }
            minima[k] = extended[queue[head]]
        }
        func minimum(_ k: Int) -> Float { k < 0 ? 1 : minima[k] }
        var sum = Double(count)
        var released: Float = 1
        var output = [Int16](repeating: 0, count: frames * channels)
        for k in 0..<(frames + reach) {
            sum += Double(minimum(k)) - Double(minimum(k - count))
            let n = k - reach
            guard n >= 0 else { continue }
            released = min(Float(sum / Double(count)), released + (1 - released) * leveller.release)
            let g = gain(n) * released
            for channel in 0..<channels {
                let value = (Float(input[n * channels + channel]) * g).rounded()
                output[n * channels + channel] = Int16(max(-32768, min(32767, value)))
            }
        }
        return output
    }

    @Test("mono at 44.1 kHz to -18 LUFS, in uneven pieces: every frame as defined, the limiter at work")
    func monoMatchesTheDefinition() {
        let input = Self.signal(seconds: 12, rate: 44100, channels: 1)
        let leveller = VoiceLeveller(rate: 44100, channels: 1, target: -18, maxInputFrames: 4096)
        let streamed = Self.streamed(input, leveller, pieces: [4096, 1, 333, 2048, 7, 1500])
        let defined = Self.defined(input, leveller)
        #expect(streamed.count == defined.count)
        #expect(zip(streamed, defined).enumerated().first { $0.element.0 != $0.element.1 }?.offset == nil)
        // The limiter had work to do: some frames sit at the ceiling.
        #expect(defined.filter { Float(abs(Int32($0))) > leveller.ceiling - 2 }.count > 20)
    }

    @Test("stereo at 48 kHz to -12 LUFS, in other pieces: every frame as defined, the limiter at work")
    func stereoMatchesTheDefinition() {
        let input = Self.signal(seconds: 12, rate: 48000, channels: 2)
        let leveller = VoiceLeveller(rate: 48000, channels: 2, target: -12, maxInputFrames: 3000)
        let streamed = Self.streamed(input, leveller, pieces: [3000, 64, 2, 999, 4000])
        let defined = Self.defined(input, leveller)
        #expect(streamed.count == defined.count)
        #expect(zip(streamed, defined).enumerated().first { $0.element.0 != $0.element.1 }?.offset == nil)
        #expect(defined.filter { Float(abs(Int32($0))) > leveller.ceiling - 2 }.count > 20)
    }

    @Test("eight samples rounded at once are rounded as one at a time: halves away from zero, out of range clamped")
    func eightAtOnceRoundAsOne() {
        // Every half and whole from beyond one end to beyond the other, then values between.
        var values = (-66_000...66_000).map { Float($0) / 2 }
        var random: UInt64 = 7
        for _ in 0..<100_000 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Float(Int64(bitPattern: random) >> 40) / 3.7)
        }
        values += [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 32767.49, -32768.49, 0.49999997, -0.49999997]
        while values.count % 8 != 0 { values.append(0) }
        var differing: [Float] = []
        for start in stride(from: 0, to: values.count, by: 8) {
            var lanes = SIMD8<Float>()
            for lane in 0..<8 { lanes[lane] = values[start + lane] }
            let rounded = LevelledRun.clampedRounded(lanes)
            for lane in 0..<8 where rounded[lane] != VoiceLeveller.clampedRounded(lanes[lane]) {
                differing.append(lanes[lane])
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }
}
