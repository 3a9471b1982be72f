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
    /// The last `StreamTitle`.
    var title: String? { get }
    /// What happened since the last call, in order.
    func takeStreamEvents() -> [StreamEvent]
}
