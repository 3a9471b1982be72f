/// What the player sees of a stream that is decoding, beyond the `Decoder`
/// contract (`TrackFeeder.liveStream`): the descriptor that says packets
/// arrived, the station's titles and drops as events, and the reconnection
/// the player's own backoff (`StreamReconnector`, on the loop's clock) asks for.
/// Main loop only, like the decoder it is.
public protocol LiveStream: AnyObject {
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
    /// Opens a new connection (after a drop): the reader thread starts again
    /// and decoding goes on, in the format the stream now has.
    func reconnect()
    /// No more attempts: `read` says `.end` once what was decoded is out.
    func giveUp()
}

public enum StreamEvent: Equatable, Sendable {
    /// Audio decoded on a new connection: `station` is `icy-name`, `codec` what it sends.
    case connected(station: String?, codec: String)
    /// The station's `StreamTitle` changed.
    case title(String)
    /// The connection failed after audio had played (FFmpeg's words).
    case dropped(reason: String)
    /// A reconnection did not get as far as audio.
    case attemptFailed(reason: String)
}
