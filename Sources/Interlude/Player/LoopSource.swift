import Glibc

/// The one way to add a descriptor to the main loop's one `poll` (its own
/// are the signalfd and the timerfds): the keys or standard input, a control
/// socket, the session bus, the sound server's subscription, the library's
/// watches. Every source is driven on the main thread, inside the loop's
/// turn, never on an audio thread; it may call the runtime's `perform` and
/// subscribe to its event stream. Timers go through the runtime's `Clock`.
///
/// The host lists its sources in `PlayerHost.loopSources`, its input first.
protocol LoopSource: AnyObject {
    /// What to poll now, asked before every wait: a library such as sd-bus or
    /// libpulse may want `POLLOUT` too, and its descriptors may change.
    var pollRequests: [LoopPollRequest] { get }
    /// Wake within this long even if nothing is readable (a library's own
    /// timeout), or nil.
    var wakeWithinMilliseconds: Int? { get }
    /// After the wait: `ready` holds this source's descriptors that have
    /// events (with the events that occurred); called once per turn, also with
    /// none ready, so a source can do its timed work.
    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime)
}

/// A descriptor and poll's event bits (`POLLIN`, `POLLOUT`, ...): requested
/// before a wait, or what occurred after it.
struct LoopPollRequest: Equatable {
    var fd: Int32
    var events: Int16

    init(fd: Int32, events: Int16 = Int16(POLLIN)) {
        self.fd = fd
        self.events = events
    }
}

extension LoopSource {
    var wakeWithinMilliseconds: Int? { nil }
}
