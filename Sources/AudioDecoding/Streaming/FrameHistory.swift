/// The last frames a stream handed out, for a resume's seek back
/// (`StreamDecoder`): a ring of interleaved 16-bit samples whose capacity is
/// fixed and allocated once, at the first frames kept. An array appended to
/// and trimmed from its front grew by doubling and left its outgrown blocks
/// in the heap: 1.3 MB of a station's 20 MB (the bench's limit) where this
/// keeps 2 s, 345 KB at 44.1 kHz stereo.
///
/// Frames are numbered as the decoder hands them out: the ring holds
/// `start..<end`, at most `capacityFrames` of them, the newest ones.
struct FrameHistory {
    let channels: Int
    let capacityFrames: Int
    /// `capacityFrames * channels` samples once the first frames came, else empty.
    private var samples: [Int16] = []
    /// The ring slot (in frames) of frame `start`.
    private var head = 0
    private(set) var count = 0
    /// The frame after the newest held.
    private(set) var end: Int

    /// The oldest frame held (`end` when none is).
    var start: Int { end - count }

    init(channels: Int, capacityFrames: Int, end: Int = 0) {
        self.channels = max(1, channels)
        self.capacityFrames = max(0, capacityFrames)
        self.end = end
    }

    /// Keeps `frames` more, handed out after `end`; the oldest beyond the capacity go.
    mutating func append(_ source: UnsafePointer<Int16>, frames: Int) {
        guard frames > 0 else { return }
        end += frames
        guard capacityFrames > 0 else { return }
        if samples.isEmpty { samples = [Int16](repeating: 0, count: capacityFrames * channels) }
        // Only the newest `capacityFrames` can stay.
        let kept = min(frames, capacityFrames)
        var from = source + (frames - kept) * channels
        let dropped = max(0, count + kept - capacityFrames)
        head = (head + dropped) % capacityFrames
        count -= dropped
        var slot = (head + count) % capacityFrames
        var left = kept
        samples.withUnsafeMutableBufferPointer { ring in
            while left > 0 {
                let run = min(left, capacityFrames - slot)
                (ring.baseAddress! + slot * channels).update(from: from, count: run * channels)
                from += run * channels
                left -= run
                slot = (slot + run) % capacityFrames
            }
        }
        count += kept
    }

    /// Copies frames `frame..<frame + frames` into `output`; false (nothing
    /// copied) unless they are all held.
    @discardableResult
    func copy(from frame: Int, frames: Int, into output: UnsafeMutablePointer<Int16>) -> Bool {
        guard frames >= 0, frame >= start, frame <= end, frames <= end - frame else { return false }
        var slot = (head + (frame - start)) % max(1, capacityFrames)
        var left = frames
        var to = output
        samples.withUnsafeBufferPointer { ring in
            while left > 0 {
                let run = min(left, capacityFrames - slot)
                to.update(from: ring.baseAddress! + slot * channels, count: run * channels)
                to += run * channels
                left -= run
                slot = (slot + run) % capacityFrames
            }
        }
        return true
    }

    /// Forgets the frames from `frame` on: `end` becomes `frame`. A frame at
    /// or before `start`, or past `end`, leaves nothing held, from `frame` on.
    mutating func truncate(to frame: Int) {
        guard frame != end else { return }
        guard frame > start, frame < end else { return reset(at: frame) }
        count -= end - frame
        end = frame
    }

    /// Holds nothing; the next frames kept start at `frame`. The ring's memory stays.
    mutating func reset(at frame: Int) {
        head = 0
        count = 0
        end = frame
    }
}
