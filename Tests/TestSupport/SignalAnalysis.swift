import Foundation

/// Where a reference sits inside a longer (or shorter) signal, and how well it matches.
public struct Alignment: Sendable, CustomStringConvertible {
    /// Frame offset: `signal` frame `i + lag` lines up with `reference` frame `i`.
    /// Positive when the signal starts later (a capture with lead-in silence).
    public var lag: Int
    /// Normalized cross-correlation at `lag` over the overlap, all channels: 1 is identical
    /// up to gain, 0 unrelated.
    public var correlation: Double
    /// Frames where both overlap at `lag`.
    public var overlapFrames: Int

    public var description: String {
        "lag \(lag) frames, correlation \(String(format: "%.5f", correlation)) over \(overlapFrames) frames"
    }
}

/// The first place two sample streams differ, for "sample-identical" checks.
public struct SampleDifference: Sendable, CustomStringConvertible {
    /// Index into the interleaved samples (`frame * channels + channel`).
    public var sampleIndex: Int
    public var frame: Int
    public var channel: Int
    /// The two values there, nil past the end of the shorter stream.
    public var expected: Int16?
    public var actual: Int16?
    public var expectedFrames: Int
    public var actualFrames: Int
    /// How many samples differ within the common length.
    public var differingSamples: Int

    public var description: String {
        var text = "first difference at frame \(frame) channel \(channel) (sample \(sampleIndex)): "
        text += "expected \(expected.map(String.init) ?? "end"), got \(actual.map(String.init) ?? "end")"
        text += "; \(differingSamples) samples differ; lengths \(expectedFrames) vs \(actualFrames) frames"
        return text
    }
}

/// Measurements on `PCMAudio` for checking what was played: alignment, levels, gaps.
///
/// Sample thresholds are absolute 16-bit values (0 means "digital silence": exactly 0).
/// A frame is silent when every channel's |sample| <= threshold.
public enum SignalAnalysis {
    // MARK: Levels

    /// RMS of all channels over `frames` (whole audio when nil), in 0...1 of full scale.
    public static func rms(_ audio: PCMAudio, frames: Range<Int>? = nil) -> Double {
        let range = frames.map { clamp($0, audio.frameCount) } ?? 0..<audio.frameCount
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        audio.samples.withUnsafeBufferPointer { buffer in
            for index in (range.lowerBound * audio.channels)..<(range.upperBound * audio.channels) {
                let value = Double(buffer[index])
                sum += value * value
            }
        }
        return (sum / Double(range.count * audio.channels)).squareRoot() / 32768
    }

    /// `level` (0...1 of full scale) in dBFS; -infinity for 0.
    public static func dBFS(_ level: Double) -> Double {
        level > 0 ? 20 * log10(level) : -.infinity
    }

    // MARK: Silence

    /// Frames from the first to the last frame that is not silent; nil when all are.
    public static func signalBounds(_ audio: PCMAudio, threshold: Int16 = 0) -> Range<Int>? {
        var first: Int?
        var last = 0
        audio.samples.withUnsafeBufferPointer { buffer in
            for frame in 0..<audio.frameCount where !isSilent(buffer, frame, audio.channels, threshold) {
                first = first ?? frame
                break
            }
            guard first != nil else { return }
            for frame in stride(from: audio.frameCount - 1, through: 0, by: -1)
            where !isSilent(buffer, frame, audio.channels, threshold) {
                last = frame
                break
            }
        }
        return first.map { $0..<(last + 1) }
    }

    /// Runs of silent frames strictly inside the signal (between its first and last
    /// non-silent frame), each at least `minimumFrames` long, in order.
    public static func silentRuns(_ audio: PCMAudio, threshold: Int16 = 0, minimumFrames: Int = 1) -> [Range<Int>] {
        guard let bounds = signalBounds(audio, threshold: threshold) else { return [] }
        var runs: [Range<Int>] = []
        audio.samples.withUnsafeBufferPointer { buffer in
            var start: Int?
            for frame in bounds {
                if isSilent(buffer, frame, audio.channels, threshold) {
                    start = start ?? frame
                } else if let runStart = start {
                    if frame - runStart >= minimumFrames { runs.append(runStart..<frame) }
                    start = nil
                }
            }
        }
        return runs
    }

    /// The longest run of silent frames inside the signal; nil when there is none.
    public static func longestSilentRun(_ audio: PCMAudio, threshold: Int16 = 0) -> Range<Int>? {
        silentRuns(audio, threshold: threshold).max { $0.count < $1.count }
    }

    /// Frames for `milliseconds` at the audio's rate (for gap thresholds: 5 ms -> 220 at 44.1 kHz).
    public static func frames(milliseconds: Double, sampleRate: Int) -> Int {
        Int((milliseconds * Double(sampleRate) / 1000).rounded())
    }

    // MARK: Exact comparison

    /// Nil when `actual` has exactly the samples of `expected` (same count, same values);
    /// otherwise where they first differ. Rates and channel counts must match.
    public static func firstDifference(expected: PCMAudio, actual: PCMAudio) -> SampleDifference? {
        precondition(expected.channels == actual.channels, "channel counts differ: \(expected.channels) vs \(actual.channels)")
        let common = min(expected.samples.count, actual.samples.count)
        var first: Int?
        var count = 0
        expected.samples.withUnsafeBufferPointer { a in
            actual.samples.withUnsafeBufferPointer { b in
                for index in 0..<common where a[index] != b[index] {
                    if first == nil { first = index }
                    count += 1
                }
            }
        }
        if first == nil && expected.samples.count == actual.samples.count { return nil }
        let index = first ?? common
        return SampleDifference(
            sampleIndex: index, frame: index / expected.channels, channel: index % expected.channels,
            expected: index < expected.samples.count ? expected.samples[index] : nil,
            actual: index < actual.samples.count ? actual.samples[index] : nil,
            expectedFrames: expected.frameCount, actualFrames: actual.frameCount, differingSamples: count)
    }

    // MARK: Correlation

    /// Finds where `reference` best lines up with `signal` by normalized cross-correlation.
    ///
    /// Lags are searched over every offset where the two overlap by at least
    /// `minimumOverlap` of the shorter one. The search runs by FFT on the mono mix
    /// (decimated when the two together exceed 2^20 frames, about 24 s at 44.1 kHz), then
    /// is refined at full rate; the reported correlation is over all channels. A minute of
    /// audio takes well under a second in an optimized build. Rates and channel counts
    /// must match (resample with `Fixtures.resampled` first if they do not).
    public static func align(reference: PCMAudio, signal: PCMAudio, minimumOverlap: Double = 0.5) -> Alignment {
        precondition(reference.sampleRate == signal.sampleRate, "sample rates differ: \(reference.sampleRate) vs \(signal.sampleRate)")
        precondition(reference.channels == signal.channels, "channel counts differ: \(reference.channels) vs \(signal.channels)")
        let r = reference.monoFloats()
        let s = signal.monoFloats()
        guard !r.isEmpty, !s.isEmpty else { return Alignment(lag: 0, correlation: 0, overlapFrames: 0) }
        let minimumFrames = max(1, Int(Double(min(r.count, s.count)) * minimumOverlap))

        // Coarse: the whole search by FFT on signals decimated to at most 2^18 samples together.
        var factor = 1
        while (r.count + s.count) / factor > 1 << 18 { factor *= 2 }
        let coarse = bestLagByFFT(decimate(r, factor), decimate(s, factor), minimumOverlap: max(1, minimumFrames / factor))
        // Fine: every full-rate lag within two decimated samples, over the loudest 2 s of the
        // overlap (enough to pin a lag this close; the whole overlap would be slow for long audio).
        let center = coarse * factor
        let window = factor == 1 ? 0 : 2 * factor
        var bestLag = center
        var best = -Double.infinity
        if window > 0, let stretch = loudestStretch(r, overlapRange(referenceCount: r.count, signalCount: s.count, lag: center),
                                                    length: 2 * reference.sampleRate) {
            for lag in (center - window)...(center + window) {
                let overlap = overlapRange(referenceCount: r.count, signalCount: s.count, lag: lag)
                guard overlap.count >= minimumFrames else { continue }
                let range = stretch.clamped(to: overlap)
                guard !range.isEmpty else { continue }
                let value = normalizedDot(r, s, lag: lag, range: range)
                if value > best { best = value; bestLag = lag }
            }
        }
        let overlap = overlapRange(referenceCount: reference.frameCount, signalCount: signal.frameCount, lag: bestLag)
        return Alignment(lag: bestLag, correlation: correlation(reference: reference, signal: signal, lag: bestLag),
                         overlapFrames: overlap.count)
    }

    /// Normalized cross-correlation over all channels at a given frame `lag`
    /// (`signal[i + lag]` against `reference[i]`), over the frames where both exist.
    public static func correlation(reference: PCMAudio, signal: PCMAudio, lag: Int) -> Double {
        precondition(reference.channels == signal.channels)
        let channels = reference.channels
        let overlap = overlapRange(referenceCount: reference.frameCount, signalCount: signal.frameCount, lag: lag)
        guard !overlap.isEmpty else { return 0 }
        var dot = 0.0, energyR = 0.0, energyS = 0.0
        reference.samples.withUnsafeBufferPointer { a in
            signal.samples.withUnsafeBufferPointer { b in
                for index in (overlap.lowerBound * channels)..<(overlap.upperBound * channels) {
                    let x = Double(a[index]), y = Double(b[index + lag * channels])
                    dot += x * y; energyR += x * x; energyS += y * y
                }
            }
        }
        guard energyR > 0, energyS > 0 else { return 0 }
        return dot / (energyR * energyS).squareRoot()
    }

    // MARK: Internals

    private static func clamp(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = max(0, min(range.lowerBound, count))
        return lower..<max(lower, min(range.upperBound, count))
    }

    @inline(__always)
    private static func isSilent(_ buffer: UnsafeBufferPointer<Int16>, _ frame: Int, _ channels: Int, _ threshold: Int16) -> Bool {
        let limit = Int32(threshold)
        for channel in 0..<channels where abs(Int32(buffer[frame * channels + channel])) > limit { return false }
        return true
    }

    /// Reference frames `i` for which `signal[i + lag]` exists.
    static func overlapRange(referenceCount: Int, signalCount: Int, lag: Int) -> Range<Int> {
        let lower = max(0, -lag)
        let upper = min(referenceCount, signalCount - lag)
        return lower..<max(lower, upper)
    }

    private static func normalizedDot(_ r: [Float], _ s: [Float], lag: Int, range: Range<Int>) -> Double {
        var dot = 0.0, energyR = 0.0, energyS = 0.0
        r.withUnsafeBufferPointer { a in
            s.withUnsafeBufferPointer { b in
                for index in range {
                    let x = Double(a[index]), y = Double(b[index + lag])
                    dot += x * y; energyR += x * x; energyS += y * y
                }
            }
        }
        guard energyR > 0, energyS > 0 else { return -.infinity }
        return dot / (energyR * energyS).squareRoot()
    }

    /// The stretch of `length` frames inside `range` with the most energy in `x`, picked
    /// among eight evenly spaced candidates; nil when `range` is empty.
    private static func loudestStretch(_ x: [Float], _ range: Range<Int>, length: Int) -> Range<Int>? {
        guard !range.isEmpty else { return nil }
        guard range.count > length else { return range }
        var best = range.lowerBound..<(range.lowerBound + length)
        var bestEnergy = -1.0
        x.withUnsafeBufferPointer { buffer in
            for candidate in 0..<8 {
                let start = range.lowerBound + (range.count - length) * candidate / 7
                var energy = 0.0
                for index in stride(from: start, to: start + length, by: 4) { energy += Double(buffer[index] * buffer[index]) }
                if energy > bestEnergy { bestEnergy = energy; best = start..<(start + length) }
            }
        }
        return best
    }

    /// Box-filter decimation: averages of `factor` samples.
    private static func decimate(_ x: [Float], _ factor: Int) -> [Float] {
        guard factor > 1 else { return x }
        var out = [Float](repeating: 0, count: x.count / factor)
        x.withUnsafeBufferPointer { source in
            for index in 0..<out.count {
                var sum: Float = 0
                for k in 0..<factor { sum += source[index * factor + k] }
                out[index] = sum / Float(factor)
            }
        }
        return out
    }

    /// The lag maximizing the normalized cross-correlation of `r` inside `s`, over lags
    /// where they overlap by at least `minimumOverlap` samples.
    private static func bestLagByFFT(_ r: [Float], _ s: [Float], minimumOverlap: Int) -> Int {
        var size = 1
        while size < r.count + s.count { size *= 2 }
        // Both real inputs in one complex FFT: z = s + i r, then S and R are separated by
        // conjugate symmetry: S[k] = (Z[k] + conj Z[n-k]) / 2, R[k] = (Z[k] - conj Z[n-k]) / 2i.
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        for (index, value) in s.enumerated() { re[index] = Double(value) }
        for (index, value) in r.enumerated() { im[index] = Double(value) }
        let fft = FFT(size: size)
        fft.transform(&re, &im, inverse: false)
        // Product S * conj(R): its inverse is c[k] = sum_i r[i] s[i + k], k < 0 wrapped to size + k.
        var sRe = [Double](repeating: 0, count: size), sIm = [Double](repeating: 0, count: size)
        for k in 0..<size {
            let j = (size - k) & (size - 1)
            let zr = re[k], zi = im[k], wr = re[j], wi = -im[j]  // w = conj Z[n-k]
            let aRe = (zr + wr) / 2, aIm = (zi + wi) / 2          // S[k]
            let bRe = (zi - wi) / 2, bIm = -(zr - wr) / 2         // R[k] = (Z - w) / 2i
            sRe[k] = aRe * bRe + aIm * bIm
            sIm[k] = aIm * bRe - aRe * bIm
        }
        fft.transform(&sRe, &sIm, inverse: true)

        // Prefix sums of squares give each lag's overlap energies in O(1).
        func prefixSquares(_ x: [Float]) -> [Double] {
            var sums = [Double](repeating: 0, count: x.count + 1)
            for index in 0..<x.count { sums[index + 1] = sums[index] + Double(x[index]) * Double(x[index]) }
            return sums
        }
        let rSquares = prefixSquares(r), sSquares = prefixSquares(s)
        var bestLag = 0
        var best = -Double.infinity
        for lag in (-(r.count - 1))...(s.count - 1) {
            let overlap = overlapRange(referenceCount: r.count, signalCount: s.count, lag: lag)
            guard overlap.count >= minimumOverlap else { continue }
            let energyR = rSquares[overlap.upperBound] - rSquares[overlap.lowerBound]
            let energyS = sSquares[overlap.upperBound + lag] - sSquares[overlap.lowerBound + lag]
            guard energyR > 1e-12, energyS > 1e-12 else { continue }
            let value = sRe[(lag + size) % size] / Double(size) / (energyR * energyS).squareRoot()
            if value > best { best = value; bestLag = lag }
        }
        return bestLag
    }
}

/// An in-place iterative radix-2 complex FFT of a fixed power-of-two size.
struct FFT {
    let size: Int
    private let cosines: [Double]
    private let sines: [Double]

    init(size: Int) {
        precondition(size > 0 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosines = (0..<max(1, size / 2)).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<max(1, size / 2)).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
    }

    /// Forward transform, or the unscaled inverse when `inverse` (divide by `size` yourself).
    func transform(_ real: inout [Double], _ imaginary: inout [Double], inverse: Bool) {
        let n = size
        let direction: Double = inverse ? -1 : 1
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                cosines.withUnsafeBufferPointer { cosTable in
                    sines.withUnsafeBufferPointer { sinTable in
                        // Bit-reversal permutation.
                        var j = 0
                        for i in 1..<max(n, 2) where i < n {
                            var bit = n >> 1
                            while j & bit != 0 { j ^= bit; bit >>= 1 }
                            j |= bit
                            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
                        }
                        var length = 2
                        while length <= n {
                            let half = length / 2
                            let step = n / length
                            var start = 0
                            while start < n {
                                for k in 0..<half {
                                    let wr = cosTable[k * step]
                                    let wi = direction * sinTable[k * step]
                                    let a = start + k, b = a + half
                                    let tr = re[b] * wr - im[b] * wi
                                    let ti = re[b] * wi + im[b] * wr
                                    re[b] = re[a] - tr; im[b] = im[a] - ti
                                    re[a] += tr; im[a] += ti
                                }
                                start += length
                            }
                            length *= 2
                        }
                    }
                }
            }
        }
    }
}
