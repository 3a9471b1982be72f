import AudioDecoding
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Renders the stream as fast as it can to a WAV file or to nowhere, on a clock
/// driven by the frames written: the heard position is simply the frames
/// rendered. It runs on the calling thread, which makes renders deterministic.
public final class FileSink: AudioOutput {
    public enum Destination: Equatable, Sendable { case wav(path: String), null }

    public struct FileError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let destination: Destination
    public let format: AudioFormat
    public let clock = OutputClock.frameClock
    private let fd: Int32
    private var mixer: FrameClockMixer?
    private var dataBytes = 0
    /// Why writing the WAV file failed (a full disk, say), once it has.
    public private(set) var writeError: FileError?
    private var closed = false
    let chunkFrames = 4096

    public init(_ destination: Destination, format: AudioFormat) throws(FileError) {
        self.destination = destination
        self.format = format
        switch destination {
        case .null:
            fd = -1
        case .wav(let path):
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw FileError(path: path, reason: "cannot write: \(String(cString: strerror(errno)).lowercased())")
            }
            fd = opened
        }
        if fd >= 0 { writeHeader() }
    }

    deinit { close() }

    /// The decoder runs on the same thread as the render: a ring of 16384 frames
    /// is only a batch, with nothing held for a device.
    public var mediaRingFrames: Int { 16384 }
    public var bufferFrames: Int { 0 }

    public func attach(_ link: WriterLink) throws(OutputError) {
        precondition(mixer == nil, "an output is attached once")
        mixer = FrameClockMixer(link: link, format: format, chunkFrames: chunkFrames)
    }

    public func start() throws(OutputError) {}
    public var isRealtimePriority: Bool { true }

    /// Renders up to `maxFrames` device frames: while media plays, as much of the
    /// ring as there is; while it is stopped, exactly `maxFrames` of silence and
    /// voice, so the frame clock keeps moving. Returns the device frames rendered.
    @discardableResult
    public func render(maxFrames: Int = .max) -> Int {
        guard let mixer else { return 0 }
        return mixer.render(maxFrames: maxFrames) { chunk in
            guard fd >= 0 else { return true }
            guard writeError == nil else { return false }
            writeAll(chunk.baseAddress!, chunk.count)
            dataBytes += chunk.count
            return true
        }
    }

    /// Lets the mixer honour pending flush requests without rendering.
    public func serviceRequests() { mixer?.serviceRequests() }

    /// True when rendering would take frames from the media ring (media is not stopped).
    public var mediaIsStopped: Bool { mixer?.mediaIsStopped ?? true }

    /// Finalizes the WAV header's sizes and closes the file.
    public func stop() { close() }

    /// Nothing to suspend on the frame clock.
    public func suspend() -> Bool { false }
    public func resume() throws(OutputError) {}
    public var isFinished: Bool { closed }
    public var failure: OutputError? { writeError.map { .file($0) } }
    public func describeLoss(_ event: EngineEvent) -> String { "" }

    /// Finalizes the WAV header's sizes and closes the file.
    public func close() {
        guard !closed else { return }
        closed = true
        guard fd >= 0 else { return }
        writeHeader()
        fsync(fd)
        Glibc.close(fd)
    }

    /// A canonical 44-byte RIFF/WAVE header for 16-bit PCM, as `mpg123 -w` writes.
    private func writeHeader() {
        var header = [UInt8]()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { header += $0 } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { header += $0 } }
        header += Array("RIFF".utf8); append32(36 + dataBytes); header += Array("WAVE".utf8)
        header += Array("fmt ".utf8); append32(16); append16(1); append16(format.channels)
        append32(format.rate); append32(format.rate * format.bytesPerFrame); append16(format.bytesPerFrame); append16(16)
        header += Array("data".utf8); append32(dataBytes)
        header.withUnsafeBytes { bytes in
            _ = pwrite(fd, bytes.baseAddress, bytes.count, 0)
        }
        if lseek(fd, 0, SEEK_END) < 44 { lseek(fd, 44, SEEK_SET) }
    }

    private func writeAll(_ bytes: UnsafeRawPointer, _ count: Int) {
        var offset = 0
        while offset < count {
            let written: Int
            do { written = try SystemCall.retrying { write(fd, bytes + offset, count - offset) } } catch {
                if case .wav(let path) = destination {
                    writeError = FileError(path: path, reason: "cannot write: \(error.message.lowercased())")
                }
                return
            }
            offset += written
        }
    }
}
