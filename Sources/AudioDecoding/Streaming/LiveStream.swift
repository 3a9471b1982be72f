import Streams

/// What the player sees of a stream that is decoding, beyond the `Decoder`
/// contract (`TrackFeeder.liveStream`): the descriptor that says packets
/// arrived, the station's titles and drops as events, and the reconnection
/// the player's own backoff asks for (`StationConnection`, which
/// `StationSupervisor` drives on the loop's clock).
/// Main loop only, like the decoder it is.
public protocol LiveStream: StationConnection {
    /// The station's URL, as given.
    var url: String { get }
    /// Readable when the reader thread handed something over; -1 while no
    /// reader runs (waiting for a reconnection).
    var wakeDescriptor: Int32 { get }
    /// The last `read` found nothing to decode (and the stream is not over):
    /// the loop waits on `wakeDescriptor` rather than a refill timer.
    var isAwaitingData: Bool { get }
    /// `icy-name`, once the station sent it.
    var stationName: String? { get }
    /// The `StreamTitle` of the audio heard (a title waits for its audio: `StationTitleTimeline`).
    var title: String? { get }
    /// What happened since the last call, in order.
    func takeStreamEvents() -> [StreamEvent]

    // The time-shift. Frames are positions in the
    // stream's own track (the engine's heard frame minus the track's start).

    /// Readable when the reader has a time-shift line (polled always, paused too); -1 without a reader.
    var noteDescriptor: Int32 { get }
    /// Where `heardFrame` is against the live edge; nil for a resource of known length, or without a reader.
    func timeShift(heardFrame: Int) -> TimeShiftPosition?
    /// The listener has heard up to `frame` (each loop turn): the buffer's limit keeps it if it can.
    /// `playing`: the media runs and no pause is under way.
    func listenerHeard(frame: Int, playing: Bool)
    /// The next resume (or `PlaybackEngine.restartMedia`) plays `frames`
    /// further on (negative: back) than the heard frame; the refusal in one
    /// line when the buffer does not reach that far.
    func moveResumePoint(by frames: Int, heardFrame: Int) -> String?
    /// The next resume (or `restartMedia`) plays at the live edge.
    func moveToLive()
    /// Lines for the listener since the last call: the buffer dropped its
    /// oldest audio, a resume moved on or went live.
    func takeTimeShiftLines() -> [String]
}
