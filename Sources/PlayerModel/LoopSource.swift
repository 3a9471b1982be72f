/// The one way to add a descriptor to the main loop's one `poll` (its own
/// are the signalfd and the timerfds): the keys or standard input, a control
/// socket, the session bus, the sound server's subscription, the library's
/// watches. Every source is driven on the main thread, inside the loop's
/// turn, never on an audio thread; what it may see of the player is the
/// `PlayerCore` it is handed. Timers go through the core's `Clock`.
///
/// The host lists its sources in `PlayerHost.loopSources`, its input first.
public protocol LoopSource: AnyObject {
    /// What to poll now, asked before every wait: a library such as sd-bus or
    /// libpulse may want `POLLOUT` too, and its descriptors may change.
    var pollRequests: [LoopPollRequest] { get }
    /// Wake within this long even if nothing is readable (a library's own
    /// timeout), or nil. 0 only for work the next turn can do: an answer
    /// awaited from a peer wakes the loop on its descriptor, and a retry is a
    /// timer on the core's clock, on a backoff (`LoopIdleTests` measures the
    /// paused loop).
    var wakeWithinMilliseconds: Int? { get }
    /// After the wait: `ready` holds this source's descriptors that have
    /// events (with the events that occurred); called once per turn, also with
    /// none ready, so a source can do its timed work.
    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore)
}

/// A descriptor and poll's event bits (`POLLIN`, `POLLOUT`, ...): requested
/// before a wait, or what occurred after it.
public struct LoopPollRequest: Equatable, Sendable {
    /// poll(2)'s `POLLIN` and `POLLOUT`, the same bits on every Linux
    /// architecture: this module imports no C.
    public static let readable: Int16 = 0x001
    public static let writable: Int16 = 0x004

    public var fd: Int32
    public var events: Int16

    public init(fd: Int32, events: Int16 = LoopPollRequest.readable) {
        self.fd = fd
        self.events = events
    }
}

extension LoopSource {
    public var wakeWithinMilliseconds: Int? { nil }
}

/// Sources whose members may change during the run (the services a host
/// opened for it: the library index joins once the screen is up), listed
/// again before every wait.
public protocol LoopSources: AnyObject {
    func appendSources(to sources: inout [LoopSource])
}
