import AudioDecoding
import CSonic

/// Why the speed stage failed, with libsonic's own account where it has one
/// (it reports only allocation failures, as a zero return).
public struct SpeedError: Error, Sendable, CustomStringConvertible {
    public let detail: String
    public var description: String { "speed change: \(detail)" }
}

/// libsonic over the pipeline's frames (s16 interleaved): changes speed and
/// keeps pitch, made for speech. One stream per continuous stretch of audio:
/// a seek starts a new one, so nothing of the old position leaks into the new.
///
/// At 1.0x libsonic copies input to output unchanged, which is how a return to
/// 1.0x in mid-play ends without a click: the stream stays until it has handed
/// out what it held, then the feeder bypasses it again.
final class TimeStretcher {
    let format: AudioFormat
    private let stream: sonicStream
    private(set) var speed: PlaybackSpeed
    /// Source frames written since the stream was made, and output frames read.
    private(set) var framesWritten = 0
    private(set) var framesRead = 0

    init(format: AudioFormat, speed: PlaybackSpeed) throws(SpeedError) {
        guard let stream = sonicCreateStream(Int32(format.rate), Int32(format.channels)) else {
            throw SpeedError(detail: "libsonic could not allocate a stream for \(format)")
        }
        self.format = format
        self.stream = stream
        self.speed = speed
        sonicSetSpeed(stream, Float(speed.value))
    }

    deinit { sonicDestroyStream(stream) }

    func setSpeed(_ speed: PlaybackSpeed) {
        self.speed = speed
        sonicSetSpeed(stream, Float(speed.value))
    }

    /// Takes `frames` frames of s16 interleaved audio.
    func write(_ samples: UnsafeRawPointer, frames: Int) throws(SpeedError) {
        guard frames > 0 else { return }
        let shorts = UnsafeMutablePointer(mutating: samples.assumingMemoryBound(to: Int16.self))
        guard sonicWriteShortToStream(stream, shorts, Int32(frames)) != 0 else {
            throw SpeedError(detail: "libsonic could not grow its buffer for \(frames) frames")
        }
        framesWritten += frames
    }

    /// Processes what the stream holds at the current speed without adding input
    /// (at 1.0x: moves everything to the output).
    func process() throws(SpeedError) {
        guard sonicWriteShortToStream(stream, nil, 0) != 0 else {
            throw SpeedError(detail: "libsonic could not process its input")
        }
    }

    /// Ends the input: what is left comes out (libsonic pads with silence and cuts
    /// the output to the length the speed gives).
    func flush() throws(SpeedError) {
        guard sonicFlushStream(stream) != 0 else { throw SpeedError(detail: "libsonic could not flush its stream") }
    }

    /// Output frames ready to be read.
    var availableFrames: Int { Int(sonicSamplesAvailable(stream)) }

    /// Reads output into `buffer` (whole frames); returns the frames read.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let capacity = buffer.count / format.bytesPerFrame
        guard capacity > 0, let base = buffer.baseAddress else { return 0 }
        let frames = Int(sonicReadShortFromStream(stream, base.assumingMemoryBound(to: Int16.self), Int32(capacity)))
        framesRead += max(0, frames)
        return max(0, frames)
    }
}
