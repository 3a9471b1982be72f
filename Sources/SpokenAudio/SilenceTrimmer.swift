/// Shortens pauses in speech ("smart speed"), between the decoder and the
/// speed stage, on the main loop's thread.
///
/// The detector: the audio is cut into 10 ms blocks (counted from the
/// track's first frame); a block is silent when its power is under a
/// threshold 12 dB over the noise floor, the quietest block of the last
/// 3 s, held between -62 and -42 dBFS (digital silence does not make every
/// breath speech, a noisy room does not make quiet words silence). Room
/// noise is under the threshold, speech, breaths at speech level and a
/// music bed over it. A run of silent blocks keeps its first half of the
/// kept length at once (the word's decay); the rest waits in `held`, at
/// most the other half: when more silence comes the oldest held block is
/// cut, when speech comes what is held plays first (the breath before the
/// word). A pause of any length comes out at most the kept length, one
/// under it untouched, and no block over the threshold is ever cut.
///
/// Exact places: every decision depends only on the last 3.4 s of the
/// track (the floor's window and the kept length), so a seek decodes that
/// much before its target (`preRollFrames`), runs it through, and hands on
/// only the frames from the target on: a resume plays what the
/// uninterrupted run played from there, sample for sample. `TrimMap` says
/// which source frame each frame handed on is.
///
/// Nothing here allocates after `init`; the buffers are the caller's to
/// drain (`read`) before the next `write`.
public final class SilenceTrimmer {
    public let rate: Int
    public let channels: Int
    public let strength: TrimStrength
    /// Frames in a detector block: 10 ms.
    public let blockFrames: Int
    /// Silent blocks played at once, and held at most, in a pause.
    let headBlocks: Int
    let tailBlocks: Int
    /// The most frames one `write` may bring.
    public let maxInputFrames: Int

    /// The noise floor's window, in blocks: 3 s.
    static let floorWindowBlocks = 300
    /// Powers are mean squares of samples in full-scale units squared:
    /// 10^(dB/10) x 32768^2. The threshold's rise over the floor (12 dB),
    /// and its bounds (-62 and -42 dBFS).
    static let thresholdOverFloor: Float = 15.848932
    static let lowestThreshold: Float = 1_073_741_824 * 6.3095734e-7
    static let highestThreshold: Float = 1_073_741_824 * 6.3095734e-5

    private let block: UnsafeMutablePointer<Int16>
    private var blockFill = 0
    /// The stream frame of the block's first frame.
    private var blockSource = 0
    /// Blocks since the detector started (its track's first, or the pre-roll's).
    private var blockNumber = 0
    private var silentRun = 0

    /// The held silence: up to `tailBlocks` blocks in a ring of blocks.
    private let held: UnsafeMutablePointer<Int16>
    private var heldFirst = 0
    private var heldCount = 0
    private var heldSource = 0

    /// The noise floor: the blocks of the window that may still become its
    /// minimum (a monotonic queue: numbers and powers, rising).
    private let floorNumbers: UnsafeMutablePointer<Int>
    private let floorPowers: UnsafeMutablePointer<Float>
    private let floorCapacity: Int
    private var floorFirst = 0
    private var floorCount = 0

    /// Kept frames waiting to be read.
    private let out: UnsafeMutablePointer<Int16>
    private let outCapacity: Int
    private var outStart = 0
    private var outCount = 0

    /// Frames before this stream frame are decided on but not handed on (the pre-roll).
    private var skipBefore = 0
    /// The stream frame that is source frame 0 of the map (the last seek's target).
    private var origin = 0
    /// Source frames cut since `reset`.
    public private(set) var droppedFrames = 0

    public init(rate: Int, channels: Int, strength: TrimStrength, maxInputFrames: Int) {
        self.rate = max(1, rate)
        self.channels = max(1, channels)
        self.strength = strength
        self.maxInputFrames = max(1, maxInputFrames)
        blockFrames = max(1, rate / 100)
        let keptBlocks = (strength.keptPauseMilliseconds ?? 0) / 10
        headBlocks = keptBlocks / 2
        tailBlocks = max(1, keptBlocks - keptBlocks / 2)
        block = .allocate(capacity: blockFrames * self.channels)
        held = .allocate(capacity: tailBlocks * blockFrames * self.channels)
        floorCapacity = Self.floorWindowBlocks + 1
        floorNumbers = .allocate(capacity: floorCapacity)
        floorPowers = .allocate(capacity: floorCapacity)
        // One write: what was held, the block in progress, and the input, all handed on at once.
        outCapacity = self.maxInputFrames + (tailBlocks + 2) * blockFrames
        out = .allocate(capacity: outCapacity * self.channels)
    }

    deinit {
        block.deallocate()
        held.deallocate()
        floorNumbers.deallocate()
        floorPowers.deallocate()
        out.deallocate()
    }

    /// Frames to decode before a seek's target so the detector stands there
    /// as it would have in an uninterrupted run.
    public var preRollFrames: Int { (Self.floorWindowBlocks + headBlocks + tailBlocks + 2) * blockFrames }

    /// Starts afresh at stream frame `start` (a track's first frame, or a
    /// pre-roll's, on the block grid of its track); frames before
    /// `skippingBefore` are decided on but not handed on, and `origin` (the
    /// last seek's target) is source frame 0 of the map.
    public func reset(atStreamFrame start: Int, skippingBefore skip: Int, origin: Int) {
        restartDetector()
        blockSource = start
        skipBefore = skip
        self.origin = origin
        outStart = 0
        outCount = 0
        droppedFrames = 0
    }

    private func restartDetector() {
        blockFill = 0
        blockNumber = 0
        silentRun = 0
        heldFirst = 0
        heldCount = 0
        floorFirst = 0
        floorCount = 0
    }

    /// Kept frames ready to be read.
    public var availableFrames: Int { outCount }

    /// Takes `frames` frames (at most `maxInputFrames`; what was kept before
    /// must have been read), the next frames of the stream.
    public func write(_ samples: UnsafePointer<Int16>, frames: Int, map: inout TrimMap) {
        var source = samples
        var left = min(frames, maxInputFrames)
        while left > 0 {
            let take = min(left, blockFrames - blockFill)
            (block + blockFill * channels).update(from: source, count: take * channels)
            blockFill += take
            source += take * channels
            left -= take
            if blockFill == blockFrames { decideBlock(map: &map) }
        }
    }

    /// The track ended: what is held and the partial block are handed on
    /// (a file's last pause keeps at most the kept length), and the detector
    /// starts again with the next track's first frame.
    public func endOfTrack(map: inout TrimMap) {
        emitHeld(map: &map)
        if blockFill > 0 {
            emit(block, frames: blockFill, source: blockSource, map: &map)
            blockSource += blockFill
        }
        restartDetector()
    }

    /// Reads kept frames into `buffer`; returns the frames read.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let bytesPerFrame = channels * 2
        let frames = min(outCount, buffer.count / bytesPerFrame)
        guard frames > 0, let base = buffer.baseAddress else { return 0 }
        base.copyMemory(from: out + outStart * channels, byteCount: frames * bytesPerFrame)
        outStart += frames
        outCount -= frames
        if outCount == 0 { outStart = 0 }
        return frames
    }

    // MARK: The detector

    private func decideBlock(map: inout TrimMap) {
        let power = meanSquare(block, samples: blockFrames * channels)
        let floor = pushFloor(power)
        let threshold = min(max(floor * Self.thresholdOverFloor, Self.lowestThreshold), Self.highestThreshold)
        if power > threshold {
            emitHeld(map: &map)
            emit(block, frames: blockFrames, source: blockSource, map: &map)
            silentRun = 0
        } else {
            silentRun += 1
            if silentRun <= headBlocks {
                emit(block, frames: blockFrames, source: blockSource, map: &map)
            } else {
                if heldCount == tailBlocks {
                    // The oldest held block goes: the pause is longer than the kept length.
                    heldFirst = (heldFirst + 1) % tailBlocks
                    heldCount -= 1
                    heldSource += blockFrames
                    droppedFrames += blockFrames
                }
                if heldCount == 0 { heldSource = blockSource }
                let slot = (heldFirst + heldCount) % tailBlocks
                (held + slot * blockFrames * channels).update(from: block, count: blockFrames * channels)
                heldCount += 1
            }
        }
        blockSource += blockFrames
        blockNumber += 1
        blockFill = 0
    }

    private func meanSquare(_ samples: UnsafePointer<Int16>, samples count: Int) -> Float {
        var sum: Int64 = 0
        for index in 0..<count {
            let value = Int64(samples[index])
            sum &+= value * value
        }
        return Float(sum) / Float(max(1, count))
    }

    /// Adds this block's power to the window and returns the window's minimum.
    private func pushFloor(_ power: Float) -> Float {
        let oldest = blockNumber - Self.floorWindowBlocks + 1
        while floorCount > 0 && floorNumbers[floorFirst] < oldest {
            floorFirst = (floorFirst + 1) % floorCapacity
            floorCount -= 1
        }
        while floorCount > 0 && floorPowers[(floorFirst + floorCount - 1) % floorCapacity] >= power {
            floorCount -= 1
        }
        let slot = (floorFirst + floorCount) % floorCapacity
        floorNumbers[slot] = blockNumber
        floorPowers[slot] = power
        floorCount += 1
        return floorPowers[floorFirst]
    }

    private func emitHeld(map: inout TrimMap) {
        for index in 0..<heldCount {
            let slot = (heldFirst + index) % tailBlocks
            emit(held + slot * blockFrames * channels, frames: blockFrames, source: heldSource + index * blockFrames, map: &map)
        }
        heldFirst = 0
        heldCount = 0
    }

    private func emit(_ samples: UnsafePointer<Int16>, frames: Int, source: Int, map: inout TrimMap) {
        var start = samples
        var first = source
        var count = frames
        if first < skipBefore {
            let skipped = min(count, skipBefore - first)
            first += skipped
            start += skipped * channels
            count -= skipped
        }
        guard count > 0 else { return }
        if outStart + outCount + count > outCapacity {
            // Forward, to a lower address: each sample is read before it is overwritten.
            for index in 0..<(outCount * channels) { out[index] = out[outStart * channels + index] }
            outStart = 0
        }
        // A caller that did not read what was kept: the oldest is kept, the rest
        // waits for no one (never past the buffer).
        let room = outCapacity - outStart - outCount
        let taken = min(count, room)
        (out + (outStart + outCount) * channels).update(from: start, count: taken * channels)
        outCount += taken
        map.append(source: first - origin, frames: taken)
    }
}
