import SpokenAudio
import Testing

/// The trimmer over synthetic speech: 440 Hz "words" at -20 dBFS between
/// pauses of white noise at -60 dBFS (a room), 44.1 kHz stereo.
struct SilenceTrimmerTests {
    static let rate = 44100
    static let channels = 2

    /// A deterministic signal: segments of (isWord, milliseconds).
    static func signal(_ segments: [(Bool, Int)]) -> [Int16] {
        var samples: [Int16] = []
        var seed: UInt32 = 12345
        var phase = 0.0
        for (word, milliseconds) in segments {
            for _ in 0..<(rate * milliseconds / 1000) {
                let value: Int16
                if word {
                    // -20 dBFS RMS sine (peak 0.1414 of full scale), a slow tremolo kept over the threshold.
                    value = Int16(32767 * 0.1414 * (0.6 + 0.4 * cosine(phase / 50)) * sine(phase))
                } else {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    // Uniform noise of RMS 33 (-60 dBFS): range +-57.
                    value = Int16(Int(seed >> 16) % 115 - 57)
                }
                phase += 2 * Double.pi * 440 / Double(rate)
                samples += [value, value]
            }
        }
        return samples
    }

    // Taylor series, so the test needs no C math.
    static func sine(_ x: Double) -> Double {
        var value = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if value > Double.pi { value -= 2 * Double.pi }
        var term = value
        var sum = value
        for n in 1..<12 {
            term *= -value * value / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }
    static func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }

    /// Runs `samples` through a trimmer from `start` (handing on from `target`), in chunks of `chunk` frames.
    static func run(_ samples: [Int16], strength: TrimStrength = .medium, start: Int = 0, target: Int = 0,
                    chunk: Int = 2048) -> (output: [Int16], map: TrimMap, trimmer: SilenceTrimmer) {
        let trimmer = SilenceTrimmer(rate: rate, channels: channels, strength: strength, maxInputFrames: chunk)
        trimmer.reset(atStreamFrame: start, skippingBefore: target, origin: target)
        var map = TrimMap()
        var output: [Int16] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: (chunk + rate) * channels * 2, alignment: 16)
        defer { buffer.deallocate() }
        func drain() {
            while true {
                let frames = trimmer.read(into: buffer)
                if frames == 0 { break }
                output += Array(buffer.bindMemory(to: Int16.self).prefix(frames * channels))
            }
        }
        var frame = start
        let total = samples.count / channels
        samples.withUnsafeBufferPointer { all in
            while frame < total {
                let count = min(chunk, total - frame)
                trimmer.write(all.baseAddress! + frame * channels, frames: count, map: &map)
                frame += count
                drain()
            }
        }
        trimmer.endOfTrack(map: &map)
        drain()
        return (output, map, trimmer)
    }

    /// Lengths (ms) of the runs of frames whose level stays under -40 dBFS for 10 ms windows.
    static func pauses(_ samples: [Int16]) -> [Int] {
        let block = rate / 100
        var runs: [Int] = []
        var run = 0
        var index = 0
        while index + block * channels <= samples.count {
            var sum = 0.0
            for sample in samples[index..<(index + block * channels)] { sum += Double(sample) * Double(sample) }
            if sum / Double(block * channels) < 327 * 327 { run += 10 } else if run > 0 { runs.append(run); run = 0 }
            index += block * channels
        }
        if run > 0 { runs.append(run) }
        return runs
    }

    @Test("pauses over the kept length come out at it, shorter ones untouched, words whole and in order")
    func longPausesShortenedShortOnesKept() {
        let segments: [(Bool, Int)] = [(true, 500), (false, 200), (true, 400), (false, 3000), (true, 600), (false, 800),
                                       (true, 300), (false, 250), (true, 500)]
        let input = Self.signal(segments)
        let (output, map, trimmer) = Self.run(input)
        let heard = Self.pauses(output)
        // medium keeps 450 ms: 200 and 250 stay, 3000 and 800 become 450 (the detector's blocks: +-20 ms).
        #expect(heard.count == 4, "\(heard)")
        if heard.count == 4 {
            #expect(abs(heard[0] - 200) <= 20 && abs(heard[3] - 250) <= 20, "\(heard)")
            #expect(abs(heard[1] - 450) <= 20 && abs(heard[2] - 450) <= 20, "\(heard)")
        }
        let dropped = trimmer.droppedFrames
        #expect(output.count == input.count - dropped * Self.channels)
        #expect(map.dropped(atTrimmed: map.trimmedCount) == dropped)
        // Every kept frame is the source frame the map names.
        for trimmed in stride(from: 0, to: output.count / Self.channels, by: 97) {
            let source = map.source(atTrimmed: trimmed)
            #expect(output[trimmed * Self.channels] == input[source * Self.channels], "frame \(trimmed) from \(source)")
        }
    }

    @Test("off keeps nothing out: no strength means no trimmer; gentle keeps 0.6 s, strong 0.35 s")
    func strengthsKeepTheirLengths() {
        let input = Self.signal([(true, 400), (false, 2000), (true, 400)])
        #expect(abs((Self.pauses(Self.run(input, strength: .gentle).output).first ?? 0) - 600) <= 20)
        #expect(abs((Self.pauses(Self.run(input, strength: .strong).output).first ?? 0) - 350) <= 20)
        #expect(TrimStrength.off.keptPauseMilliseconds == nil)
    }

    @Test("a start anywhere, after the pre-roll, hands on exactly what the whole run handed on from there")
    func preRollMakesEveryStartExact() {
        let input = Self.signal([(true, 700), (false, 1500), (true, 350), (false, 420), (true, 900), (false, 5000),
                                 (true, 400), (false, 700), (true, 600)])
        let whole = Self.run(input)
        let blockFrames = Self.rate / 100
        for target in stride(from: 1000, to: input.count / Self.channels - 1000, by: 13_331) {
            let preRoll = whole.trimmer.preRollFrames
            let start = max(0, target - preRoll) / blockFrames * blockFrames
            let part = Self.run(input, start: start, target: target)
            // Where the whole run's output reaches the target.
            let first = whole.map.trimmed(atSource: target)
            let expected = Array(whole.output[(first * Self.channels)...])
            #expect(part.output == expected, "from \(target): \(part.output.count) vs \(expected.count) samples")
            #expect(part.map.source(atTrimmed: 0) == whole.map.source(atTrimmed: first) - target)
        }
    }

    @Test("the map: shifts after cuts, a cut frame plays as the next kept one, forgetting keeps what follows")
    func trimMapShiftsAndInverts() {
        var map = TrimMap()
        map.append(source: 0, frames: 100)
        map.append(source: 150, frames: 100)   // 50 cut
        map.append(source: 250, frames: 10)
        map.append(source: 400, frames: 10)    // 140 more cut
        #expect(map.source(atTrimmed: 99) == 99)
        #expect(map.source(atTrimmed: 100) == 150)
        #expect(map.source(atTrimmed: 209) == 259)
        #expect(map.source(atTrimmed: 210) == 400)
        #expect(map.dropped(atTrimmed: 215) == 190)
        #expect(map.trimmed(atSource: 120) == 100)
        #expect(map.trimmed(atSource: 160) == 110)
        #expect(map.trimmed(atSource: 300) == 210)
        map.forget(before: 205)
        #expect(map.source(atTrimmed: 209) == 259 && map.source(atTrimmed: 215) == 405)
        var late = TrimMap()
        late.append(source: 30, frames: 5)
        #expect(late.source(atTrimmed: 0) == 30 && late.trimmed(atSource: 10) == 0)
    }

    @Test("settings parse their words and refuse the rest")
    func settingsParse() {
        #expect(TrimStrength(parsing: "on") == .medium && TrimStrength(parsing: "Strong") == .strong)
        #expect(TrimStrength(parsing: "max") == nil)
        #expect(VoiceBoost(parsing: "on") == .standard && VoiceBoost(parsing: "-20 LUFS")?.target == -20)
        #expect(VoiceBoost(parsing: "-30") == nil && VoiceBoost(parsing: "99999999999999999999") == nil)
        #expect(VoiceBoost(parsing: "off") == .off && VoiceBoost.off.word == "off")
    }
}
