import AudioDecoding
import SpokenAudio
import Rooms
#if canImport(Glibc)
import Glibc
#endif

/// The pipeline for a list of files: `TrackFeeder` -> media ring -> output,
/// plus an interrupter voice (alarm tone, chime) mixed by the same writer.
///
/// The main loop calls `pump()`: it tops up the rings, renders (frame-clock
/// outputs) or lets the output's writer thread play (real-time outputs),
/// carries out pending pause/resume steps, and turns what happened into
/// `PlaybackEvent`s in the order the listener heard them. Decoding runs on the
/// main loop's thread: a refill of a quarter of the ring takes well under a
/// millisecond, and keeping it there needs no lock between decoder and UI.
///
/// The engine knows its output only as an `AudioOutput` (see that file for the
/// contract) and talks to the writer through the `WriterControl` it shares
/// with it: requests written here, reports written by the writer.
///
/// Positions are stream frames (frame 0 is the first frame of the first
/// file) of what the listener heard.
///
/// Files: this one (state, opening, positions), `+Pump` (the main loop's
/// step), `+Pause` (pause, cancel, resume), `+Queue` (jumps, the queue's end),
/// `+Voice` (interrupter voice, duck, volume), `+Device` (job control, a lost
/// device), `+Announcements` (what the listener heard happen).
public final class PlaybackEngine {
    /// The user's choice of output; `open(format:)` (in `Output/`) makes it.
    public enum Output: Equatable, Sendable {
        /// An ALSA device by name (`alsa:NAME`, or any name but `pulse`).
        case alsa(device: String, latencyMilliseconds: Int)
        /// The PulseAudio server through libpulse (`pulse`): `PulseOutput`, its
        /// stream's `media.role` `role`.
        case pulse(latencyMilliseconds: Int, role: String = "music")
        /// `default`: the PulseAudio server when one answers, else ALSA's `default` device.
        case systemDefault(latencyMilliseconds: Int, role: String = "music")
        case wav(path: String)
        case null
        /// A snapserver's pipe source (`snapcast:pipe:///tmp/snapfifo?...`): `SnapcastOutput`.
        case snapcast(SnapcastStream)
    }

    public enum StartError: Error, Sendable, CustomStringConvertible {
        case nothingPlayable
        case output(OutputError)

        public var description: String {
            switch self {
            case .nothingPlayable: "nothing to play: no file could be decoded"
            case .output(let error): error.description
            }
        }
    }

    /// The output chosen at `init(paths:output:)`; nil when one was injected.
    public let output: Output?
    let openOutput: (AudioFormat) throws(OutputError) -> any AudioOutput
    public let feeder: TrackFeeder
    public private(set) var format = AudioFormat(rate: 44100, channels: 2)
    var ring: SPSCRing?
    var voiceRing: SPSCRing?
    let events = SPSCRing(minimumCapacity: 256, slotBytes: EngineEvent.slotBytes)
    /// The output, and the rings and control block it shares with the engine.
    var sink: (any AudioOutput)?
    var link: WriterLink?
    var started = false
    var announcedStart = -1
    var announcedEnd = -1
    public internal(set) var isFinished = false
    /// Set when the writer thread had to settle for normal scheduling.
    public internal(set) var realtimeRefused = false

    // Stream position = streamBase + (writer media frames - writerBase).
    var streamBase = 0
    var writerBase = 0
    /// Frames the trimmer saved in the stretches before the last seek.
    var trimSavedBeforeSeek = 0
    var voice: VoiceSource?
    var voiceHasMore = false
    /// A resume waits until the output has written this device frame (`stopVoice(holdFrames:)`).
    var resumeHeldUntilDeviceFrame: Int?
    /// Where a resume continues: a stream frame, or a queue entry not yet
    /// decoded (a jump), resolved once the media has stopped.
    enum ResumeTarget {
        case frame(Int)
        case queue(index: Int, offset: Int)
        /// Exactly where the media stopped (`stopPosition`), decoded again.
        case stopFrame
    }
    var pendingResume: (target: ResumeTarget, fadeStep: Float, flushEpoch: Int)?
    /// The stream frame the writer is aimed at now (`+StopAt`): the aim of the
    /// pause under way, until it stops or a resume takes it back.
    var stopAim: Int?
    /// The end of the queue stops the media rather than the output (a player
    /// that stays open waits for more to play).
    public var keepsOutputAtQueueEnd = false
    var queueEndRequested = false
    var flushEpoch = 0
    /// The output's own buffer, which the media ring holds on top of the frames ahead.
    var deviceBufferFrames = 0
    var stopAnnounced = false
    /// The volume last set with `setVolume(_:)` (1 at start).
    public internal(set) var volume: Double = 1
    /// True after the device failed beyond recovery, until `reopenOutput()`.
    public internal(set) var isOutputLost = false
    /// A device that cannot be opened at `open()` leaves the engine waiting,
    /// lost from the start, instead of failing it (the full-screen player
    /// starts without a sound card; the user's play tries again).
    public var waitsForOutput = false
    /// Why the output could not be opened at `open()`, while no output has
    /// been opened since (`waitsForOutput`).
    public internal(set) var unavailableOutput: OutputError?

    public convenience init(paths: [String], output: Output) {
        self.init(paths: paths, output: output) { format throws(OutputError) in try output.open(format: format) }
    }

    /// An engine over an output made by `openOutput` (called in `open()` with
    /// the first file's format, and again by `reopenOutput()`).
    public convenience init(paths: [String],
                            openOutput: @escaping (AudioFormat) throws(OutputError) -> any AudioOutput) {
        self.init(paths: paths, output: nil, openOutput: openOutput)
    }

    private init(paths: [String], output: Output?,
                 openOutput: @escaping (AudioFormat) throws(OutputError) -> any AudioOutput) {
        self.output = output
        self.openOutput = openOutput
        feeder = TrackFeeder(paths: paths)
    }

    deinit { stop() }

    /// The shared control block, once an output is open.
    var control: UnsafeMutablePointer<WriterControl>? { link?.control }

    /// Opens the first decodable file and the output. Decoding errors of files
    /// skipped on the way come out of the first `pump()`.
    public func open() throws(StartError) {
        // An output whose format the user set (a Snapcast stream's): every file converts to it.
        if let fixed = output?.fixedFormat { feeder.fixFormat(fixed) }
        var opened = feeder.openFirst()
        if opened == nil && feeder.paths.isEmpty && keepsOutputAtQueueEnd {
            // Nothing to play yet: the output opens in CD format, later files convert to it.
            let fallback = output?.fixedFormat ?? AudioFormat(rate: 44100, channels: 2)
            feeder.startEmpty(format: fallback)
            opened = fallback
        }
        guard let format = opened else { throw .nothingPlayable }
        self.format = format
        let voiceRing = SPSCRing(minimumCapacity: format.rate / 2, slotBytes: format.bytesPerFrame)
        self.voiceRing = voiceRing
        let output: any AudioOutput
        do { output = try openOutput(format) } catch {
            guard waitsForOutput, error.isDeviceUnavailable else { throw .output(error) }
            waitWithoutOutput(voiceRing: voiceRing, because: error)
            return
        }
        do {
            let ring = SPSCRing(minimumCapacity: output.mediaRingFrames, slotBytes: format.bytesPerFrame)
            let link = WriterLink(media: ring, voice: voiceRing, events: events)
            try output.attach(link)
            deviceBufferFrames = output.bufferFrames
            self.ring = ring
            self.link = link
            sink = output
        } catch {
            throw .output(error)
        }
        if volume != 1 { applyVolume(rampFrames: 1) }
    }

    /// True when the output renders on the frame clock (WAV, null): time is the frames rendered.
    public var rendersOnFrameClock: Bool { sink?.clock == .frameClock }

    /// Media stream frame the listener has heard up to: a source frame (book
    /// time) at any speed.
    ///
    /// On a real-time output the writer measures it once a period; between
    /// measurements, while the media plays, it moves on with the clock (never
    /// past what was written), so an alarm's due position is the frame heard
    /// at that moment.
    public var heardPosition: Int {
        guard let control else { return 0 }
        // One snapshot of the pair: a frame count and the time it was measured.
        let snapshot = control.pointee.readHeard()
        var heard = snapshot.frames
        let measured = snapshot.nanoseconds
        if sink?.clock == .realTime, measured > 0, control.pointee.mediaRun.load(ordering: .relaxed),
           !control.pointee.mediaStopped.load(ordering: .relaxed) {
            let elapsed = max(0, WriterControl.monotonicNanoseconds() - measured)
            let written = control.pointee.mediaFramesWritten.load(ordering: .acquiring)
            heard = min(written, heard + elapsed / 1000 * format.rate / 1_000_000)
        }
        return streamBase + feeder.sourceOffset(forOutputOffset: max(0, heard - writerBase))
    }

    /// Every frame sent to the output (media, voice and silence): the frame clock.
    public var deviceFramesWritten: Int {
        control?.pointee.deviceFramesWritten.load(ordering: .acquiring) ?? 0
    }

    /// Source frames the trimmer cut from what was heard since the engine
    /// opened: the time saved (at 1.0x; the speed saves its own on top).
    public var trimSavedFrames: Int {
        guard let control else { return trimSavedBeforeSeek }
        let heard = control.pointee.readHeard().frames - writerBase
        return trimSavedBeforeSeek + (heard > 0 ? feeder.trimmedFrames(beforeOutputOffset: heard) : 0)
    }

    public var underruns: Int { control?.pointee.underruns.load(ordering: .relaxed) ?? 0 }

    /// True while a resume or a jump is under way: the media may be stopped for
    /// a moment, but it starts again by itself.
    public var isResumePending: Bool {
        guard let control else { return false }
        // Or handed to the writer, which restarts the media on its next write.
        return pendingResume != nil
            || (control.pointee.mediaRun.load(ordering: .relaxed) && control.pointee.mediaStopped.load(ordering: .acquiring))
    }

    /// True once a pause has taken effect: the media is silent and frozen.
    public var isMediaStopped: Bool { control?.pointee.mediaStopped.load(ordering: .acquiring) ?? false }

    /// Where the media stopped (stream frame), once `isMediaStopped`.
    public var stopPosition: Int? {
        guard let control, isMediaStopped else { return nil }
        let output = control.pointee.mediaStoppedAt.load(ordering: .acquiring) - writerBase
        return streamBase + (output > 0 ? feeder.sourceOffset(forOutputOffset: output) : output)
    }

    // MARK: Speed

    /// Playback speed, pitch kept (libsonic); 1.0x passes the decoder's frames
    /// through untouched. Positions stay in source frames at any speed.
    public var speed: PlaybackSpeed { feeder.speed }

    /// What is being decoded (the track heard, or in its last moments the
    /// next, decoded ahead): its codec and bitrate, and the format it decodes
    /// to before the pipeline's conversion. Nil when nothing is open.
    public var decodingStream: (info: StreamInfo, format: AudioFormat)? {
        feeder.currentDecoder.map { ($0.streamInfo, $0.sourceFormat) }
    }

    /// Changes the speed from the next frames decoded: the ring's worth
    /// already decoded plays out first (a third of a second on a device), and
    /// the position runs on without a jump.
    public func setSpeed(_ speed: PlaybackSpeed) throws(SpeedError) {
        try feeder.setSpeed(speed)
    }

    // MARK: Spoken audio

    /// Pauses shortened from the next frames decoded (see `TrackFeeder+Spoken`).
    public var trimStrength: TrimStrength { feeder.trimStrength }
    public func setTrimStrength(_ strength: TrimStrength) { feeder.setTrimStrength(strength) }
    /// Voices levelled from the next frames decoded.
    public var voiceBoost: VoiceBoost { feeder.voiceBoost }
    public func setVoiceBoost(_ boost: VoiceBoost) { feeder.setVoiceBoost(boost) }

    // MARK: Ending

    /// Stops output at once and finishes.
    public func stop() {
        sink?.stop()
    }

    /// Ends a render whose media will not continue (paused for good).
    public func finish() -> [PlaybackEvent] {
        var result: [PlaybackEvent] = []
        stop()
        finish(into: &result)
        return result
    }
}
