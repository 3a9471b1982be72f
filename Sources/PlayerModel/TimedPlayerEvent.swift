/// An event with the player's time when it happened: seconds since the
/// player started, on its clock (the frame clock when rendering to a file).
public struct TimedPlayerEvent: Sendable, Equatable {
    public var time: Double
    public var event: PlayerEvent

    public init(time: Double, event: PlayerEvent) {
        self.time = time
        self.event = event
    }
}
