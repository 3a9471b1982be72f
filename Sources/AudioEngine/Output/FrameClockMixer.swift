import AudioDecoding

/// The writer side of a frame-clock output: mixes on the caller's thread (the
/// engine's) and hands each chunk to the output, so a frame-clock output is a
/// place to put frames and nothing more. `FileSink` uses it; so can an output
/// made elsewhere (the tests record with one).
public final class FrameClockMixer {
    public let format: AudioFormat
    public let chunkFrames: Int
    private let link: WriterLink
    let context: UnsafeMutablePointer<WriterContext>

    public init(link: WriterLink, format: AudioFormat, chunkFrames: Int = 4096) {
        self.link = link
        self.format = format
        self.chunkFrames = chunkFrames
        context = WriterContext.allocate(link: link, channels: format.channels, scratchFrames: chunkFrames,
                                         periodFrames: chunkFrames)
    }

    deinit { WriterContext.free(context) }

    /// Renders up to `maxFrames` device frames: while media plays, as much of the
    /// ring as there is; while it is stopped, exactly `maxFrames` of silence and
    /// voice, so the frame clock keeps moving. Each chunk goes to `write` (its
    /// interleaved 16-bit frames) before the rings let go of it; `write`
    /// returning false ends the render there, that chunk not counted. Returns
    /// the device frames rendered.
    @discardableResult
    public func render(maxFrames: Int, write: (UnsafeRawBufferPointer) -> Bool) -> Int {
        var total = 0
        while total < maxFrames {
            let frames = context.pointee.mix(maxFrames: min(chunkFrames, maxFrames - total))
            if frames == 0 { break }
            guard write(UnsafeRawBufferPointer(start: context.pointee.scratch,
                                               count: frames * format.bytesPerFrame)) else { break }
            context.pointee.commit(frames)
            total += frames
        }
        context.pointee.publishHeard(delay: 0)
        return total
    }

    /// Lets the mixer honour pending flush requests without rendering.
    public func serviceRequests() { context.pointee.serviceFlushes() }

    /// True when rendering would not take frames from the media ring.
    public var mediaIsStopped: Bool { context.pointee.isMediaStopped }
}
