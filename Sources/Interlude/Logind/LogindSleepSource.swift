import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// System sleep as logind announces it: `PrepareForSleep(true)` on the system
/// bus before the machine sleeps, `PrepareForSleep(false)` after it wakes. A
/// `LoopSource` over `Bus`: the system bus's descriptor is polled in the main
/// loop's one wait, the signal handled on the main thread. The runtime marks
/// its session suspended on `true`, so the late `began` after wake-up carries
/// `wasSuspended` without waiting for the clock-jump detection (which stays,
/// for systems without logind and for a wake-up announced late).
///
/// Only logind may announce a sleep: the match names its bus name as the
/// sender, so the bus daemon delivers no other program's `PrepareForSleep`.
final class LogindSleepSource: LoopSource {
    static let matchRule = "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
        + "interface='org.freedesktop.login1.Manager',member='PrepareForSleep'"

    let bus: Bus
    private let events: PlayerEventStream
    private let receiver = Receiver()
    private weak var runtime: PlayerRuntime?
    private var reportedFailure = false
    private var workLeft = false

    /// The signal's one argument, handed to the source.
    private final class Receiver: BusMatchHandler {
        weak var source: LogindSleepSource?

        override func received(_ message: BusMessage) {
            // A malformed signal (not a boolean) is no announcement.
            guard let sleeping = try? message.readBool() else { return }
            source?.announced(sleeping: sleeping)
        }
    }

    private init(bus: Bus, events: PlayerEventStream) {
        self.bus = bus
        self.events = events
    }

    /// Connects to the system bus and subscribes, or returns nil. Without a
    /// system bus at all (no `DBUS_SYSTEM_BUS_ADDRESS`, no
    /// `/run/dbus/system_bus_socket`: a container, a minimal system) it stays
    /// silent and loads nothing: the clock jump still sees a sleep. A bus that
    /// is there but refuses is said once.
    static func open(events: PlayerEventStream) -> LogindSleepSource? {
        // getenv, not the whole environment: this runs in every real-time play.
        let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) } ?? ""
        guard !address.isEmpty || access("/run/dbus/system_bus_socket", F_OK) == 0 else { return nil }
        do {
            let source = LogindSleepSource(bus: try Bus(.system), events: events)
            source.receiver.source = source
            try source.bus.addMatch(matchRule, handler: source.receiver)
            Bus.releaseSetUpCode()
            return source
        } catch {
            events.error("system sleep is noticed by the clock only (no logind): \(error.description)")
            return nil
        }
    }

    deinit { bus.close() }

    private func announced(sleeping: Bool) {
        guard let runtime else { return }
        if sleeping { runtime.systemWillSleep() } else { runtime.systemDidWake() }
    }

    // MARK: LoopSource

    var pollRequests: [LoopPollRequest] { bus.pollRequest.map { [$0] } ?? [] }

    var wakeWithinMilliseconds: Int? { workLeft ? 0 : bus.wakeWithinMilliseconds }

    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime) {
        self.runtime = runtime
        // Only when the bus has something: an idle bus's process() is a read() that finds nothing.
        guard !ready.isEmpty || workLeft || (bus.wakeWithinMilliseconds ?? 1) == 0 else { return }
        do {
            workLeft = try bus.process()
        } catch {
            // The bus went away (the daemon restarted): a sleep it announced
            // would never be followed by its wake-up, so end it here; the
            // clock jump goes on noticing sleeps.
            runtime.systemDidWake()
            bus.close()
            workLeft = false
            guard !reportedFailure else { return }
            reportedFailure = true
            events.error("system bus: \(error.description); system sleep is noticed by the clock only")
        }
    }
}
