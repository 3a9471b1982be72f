#if canImport(Glibc)
import Glibc
#endif

/// The pipeline for a list of files: `TrackFeeder` -> audio ring -> output.
///
/// The main loop calls `pump()`: it tops up the ring, renders (file sinks) or
/// lets the writer thread play (ALSA), and turns what happened into
/// `PlaybackEvent`s in the order the listener heard them. Decoding runs on the
/// main loop's thread: one refill of a quarter of the ring takes well under a
/// millisecond, and keeping it there needs no lock between decoder and UI.
public final class PlaybackEngine {
    public enum Output: Equatable, Sendable {
        case alsa(device: String, latencyMilliseconds: Int)
        case wav(path: String)
        case null
    }

    public enum StartError: Error, Sendable, CustomStringConvertible {
        case nothingPlayable
        case device(AlsaError)
        case file(FileSink.FileError)
        case thread

        public var description: String {
            switch self {
            case .nothingPlayable: "nothing to play: no file could be decoded"
            case .device(let error): error.description
            case .file(let error): error.description
            case .thread: "could not start the audio writer thread"
            }
        }
    }

    public let output: Output
    public let feeder: TrackFeeder
    public private(set) var format = AudioFormat(rate: 44100, channels: 2)
    private var ring: SPSCRing?
    private let events = SPSCRing(minimumCapacity: 256, slotBytes: EngineEvent.slotBytes)
    private var alsa: AlsaWriter?
    private var file: FileSink?
    private var started = false
    private var announcedStart = -1
    private var announcedEnd = -1
    public private(set) var isFinished = false
    /// Set when the writer thread had to settle for normal scheduling.
    public private(set) var realtimeRefused = false

    public init(paths: [String], output: Output) {
        self.output = output
        feeder = TrackFeeder(paths: paths)
    }

    deinit { stop() }

    /// Opens the first decodable file and the output. Decoding errors of files
    /// skipped on the way come out of the first `pump()`.
    public func open() throws(StartError) {
        guard let format = feeder.openFirst() else { throw .nothingPlayable }
        self.format = format
        switch output {
        case .alsa(let device, let latency):
            let pcm: AlsaPCM
            do { pcm = try AlsaPCM(device: device, format: format, latencyMilliseconds: latency) } catch {
                throw .device(error)
            }
            // About a second of decoded audio ahead, and at least four device buffers.
            let ring = SPSCRing(minimumCapacity: max(format.rate, pcm.bufferFrames * 4), slotBytes: format.bytesPerFrame)
            self.ring = ring
            alsa = AlsaWriter(pcm: pcm, ring: ring, events: events)
        case .wav(let path):
            let ring = SPSCRing(minimumCapacity: 16384, slotBytes: format.bytesPerFrame)
            self.ring = ring
            do { file = try FileSink(.wav(path: path), format: format, ring: ring, events: events) } catch {
                throw .file(error)
            }
        case .null:
            let ring = SPSCRing(minimumCapacity: 16384, slotBytes: format.bytesPerFrame)
            self.ring = ring
            file = try? FileSink(.null, format: format, ring: ring, events: events)
        }
    }

    /// The device's period and buffer, for ALSA output.
    public var deviceBuffer: (period: Int, buffer: Int)? {
        alsa.map { ($0.pcm.periodFrames, $0.pcm.bufferFrames) }
    }

    /// Media frames the listener has heard.
    public var heardFrames: Int { alsa?.heardFrames ?? file?.heardFrames ?? 0 }

    public var underruns: Int { alsa?.underruns ?? 0 }

    /// Does the next slice of work and returns what the listener has now heard happen.
    /// For ALSA output, call again after `suggestedWaitMilliseconds`.
    public func pump() throws(StartError) -> [PlaybackEvent] {
        guard let ring, !isFinished else { return [] }
        var result: [PlaybackEvent] = []
        if let file {
            // Render in slices so track boundaries are reported between them in order.
            feeder.fill(ring.producer, maxFrames: 65536)
            collectFeederEvents(into: &result)
            file.render()
            collectTrackEvents(heard: file.heardFrames, into: &result)
            if feeder.isExhausted && ring.count == 0 {
                file.close()
                finish(into: &result)
            }
            return result
        }
        guard let alsa else { return [] }
        feeder.fill(ring.producer)
        collectFeederEvents(into: &result)
        if !started {
            guard alsa.start() else { throw .thread }
            started = true
            realtimeRefused = !alsa.isRealtime
        }
        if feeder.isExhausted { alsa.finishAfterQueued() }
        let lost = drainEngineEvents(into: &result)
        collectTrackEvents(heard: alsa.heardFrames, into: &result)
        if alsa.finished || lost {
            alsa.stop()
            collectTrackEvents(heard: alsa.heardFrames, into: &result)
            finish(into: &result)
        }
        return result
    }

    /// How long the main loop may sleep before the ring needs topping up:
    /// a quarter of the ring's duration, at most 250 ms. Zero for file sinks.
    public var suggestedWaitMilliseconds: Int {
        guard alsa != nil, let ring else { return 0 }
        return min(250, ring.capacity * 1000 / format.rate / 4)
    }

    /// Stops output at once.
    public func stop() {
        alsa?.stop()
        file?.close()
    }

    private func finish(into result: inout [PlaybackEvent]) {
        guard !isFinished else { return }
        isFinished = true
        if announcedEnd < announcedStart, announcedStart >= 0 {
            let track = feeder.tracks[announcedStart]
            result.append(.trackEnded(index: track.index, path: track.path))
            announcedEnd = announcedStart
        }
        result.append(.finished(underruns: underruns))
    }

    private func collectFeederEvents(into result: inout [PlaybackEvent]) {
        for event in feeder.takeEvents() {
            switch event {
            case .failed(let error): result.append(.skipped(error))
            case .truncated(let path, let decoded, let expected):
                result.append(.truncated(path: path, seconds: format.seconds(forFrames: decoded),
                                         expectedSeconds: format.seconds(forFrames: expected)))
            }
        }
    }

    /// Announces track starts and ends the listener has reached.
    private func collectTrackEvents(heard: Int, into result: inout [PlaybackEvent]) {
        let tracks = feeder.tracks
        while true {
            let next = announcedStart + 1
            if announcedEnd < announcedStart {
                // The current track ends when its last frame has been heard.
                let current = tracks[announcedStart]
                guard let end = current.endFrame, heard >= end, end > current.startFrame || next < tracks.count
                else { break }
                result.append(.trackEnded(index: current.index, path: current.path))
                announcedEnd = announcedStart
            } else if next < tracks.count, heard >= tracks[next].startFrame {
                result.append(.trackStarted(index: tracks[next].index, path: tracks[next].path))
                announcedStart = next
            } else {
                break
            }
        }
    }

    private func drainEngineEvents(into result: inout [PlaybackEvent]) -> Bool {
        var lost = false
        var event = EngineEvent(kind: .drained, frame: 0)
        let consumer = events.consumer
        while withUnsafeMutableBytes(of: &event, { consumer.pop(into: $0.baseAddress!) }) {
            switch event.kind {
            case .underrun: result.append(.underrun)
            case .starved: result.append(.starved)
            case .deviceLost:
                lost = true
                result.append(.deviceLost(message: AlsaError(device: deviceName, operation: "write",
                                                              code: Int32(truncatingIfNeeded: event.value)).description))
            case .drained, nil: break
            }
        }
        return lost
    }

    private var deviceName: String {
        if case .alsa(let device, _) = output { return device }
        return ""
    }
}

/// What the listener heard happen, in order.
public enum PlaybackEvent: Sendable {
    case trackStarted(index: Int, path: String)
    case trackEnded(index: Int, path: String)
    case skipped(DecoderError)
    case truncated(path: String, seconds: Double, expectedSeconds: Double)
    case underrun
    case starved
    case deviceLost(message: String)
    case finished(underruns: Int)
}
