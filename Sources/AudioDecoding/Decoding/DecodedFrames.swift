/// The read loop that the decoders over a frame-at-a-time library
/// (`FLACDecoder`, `FFmpegDecoder`) share: decoded frames, converted to the
/// pipeline's encoding, wait here until `read` hands them out; when none are
/// left it asks the decoder's `refill` step for the next library frame. Also
/// where a damaged stretch's time is kept as silence and the damage is noted,
/// in the same words for both libraries.
final class DecodedFrames {
    /// Converted samples not yet handed out, from `start` on.
    var samples: [Int16] = []
    private var start = 0
    let channels: Int
    /// Damage met and skipped since the last `takeDamage`, one sentence each.
    private var damage: [String] = []

    init(channels: Int) { self.channels = channels }

    /// Frames decoded and not yet handed out.
    var bufferedFrames: Int { (samples.count - start) / channels }

    func removeAll() {
        samples.removeAll(keepingCapacity: true)
        start = 0
    }

    /// Copies waiting frames into `buffer`, at most `limit` frames, calling
    /// `refill` (which appends to `samples` and says false at the end) until
    /// the buffer is full or the stream ends. A decoding error after some
    /// frames were written returns those frames; the next call meets it again.
    func read(into buffer: UnsafeMutableRawBufferPointer, limit: Int? = nil,
              refill: () throws(DecoderError) -> Bool) throws(DecoderError) -> DecoderReadResult {
        var capacity = buffer.count / (channels * MemoryLayout<Int16>.size)
        if let limit { capacity = min(capacity, max(0, limit)) }
        guard capacity > 0, let base = buffer.baseAddress else { return .frames(0) }
        let output = base.assumingMemoryBound(to: Int16.self)
        var filled = 0
        while filled < capacity {
            if start < samples.count {
                let frames = min(capacity - filled, bufferedFrames)
                samples.withUnsafeBufferPointer { source in
                    (output + filled * channels).update(from: source.baseAddress! + start, count: frames * channels)
                }
                start += frames * channels
                filled += frames
                continue
            }
            removeAll()
            do {
                guard try refill() else { break }
            } catch {
                if filled > 0 { return .frames(filled) }
                throw error
            }
        }
        return filled == 0 ? .end : .frames(filled)
    }

    /// Where a damaged frame was skipped, its time kept as silence so what
    /// follows stays at its place (a book's positions, a chapter's start): the
    /// source frames from `position` to `next`, at `rate` converted to
    /// `outputRate`. At most 10 s, so a damaged frame number cannot make an
    /// hour of it; nothing when `next` is not after `position`.
    func appendSilence(from position: Int, to next: Int, sourceRate: Int, outputRate: Int) {
        guard next > position, next - position <= sourceRate * 10 else { return }
        let frames = outputRate == sourceRate ? next - position : (next - position) * outputRate / sourceRate
        samples.append(contentsOf: repeatElement(0, count: frames * channels))
    }

    /// Notes damage met at source frame `position` (`rate` frames a second).
    func noteDamage(_ reason: String, atSourceFrame position: Int, rate: Int) {
        let seconds = Double(position) / Double(max(1, rate))
        let at = (seconds * 1000).rounded() / 1000
        damage.append("damaged audio at \(at) s (\(reason))")
    }

    func takeDamage() -> [String] {
        defer { damage.removeAll() }
        return damage
    }
}
