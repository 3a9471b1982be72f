import PlayerModel
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
///
/// So that the announcement is handled before the machine sleeps, the source
/// holds logind's "delay" inhibitor lock for sleep (`Inhibit`, the descriptor
/// logind hands back): logind waits for it, at most its `InhibitDelayMaxSec`
/// (5 s by default), after `PrepareForSleep(true)`. The lock is given back
/// once the media has faded out (at most a second after the announcement) and
/// taken again on wake-up. Refused (no logind, a policy that says no), the
/// signal still works; the machine may then sleep before the player hears it,
/// and the clock jump or the late announcement after wake-up does the rest.
package final class LogindSleepSource: LoopSource {
    package static let matchRule = "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
        + "interface='org.freedesktop.login1.Manager',member='PrepareForSleep'"

    package let bus: Bus
    private let events: PlayerEventStream
    private let receiver = Receiver()
    private weak var core: (any PlayerCore)?
    private var reportedFailure = false
    private var workLeft = false
    /// The delay inhibitor's descriptor while held, else -1.
    private var delayLock: Int32 = -1
    /// After `PrepareForSleep(true)`: give the lock back once silent, or at this CLOCK_MONOTONIC second.
    private var releaseLockBy: Double?
    /// After `PrepareForSleep(false)`: take the lock again (outside the bus's dispatch).
    private var wantsLock = false

    /// The signal's one argument, handed to the source.
    private final class Receiver: BusMatchHandler {
        package weak var source: LogindSleepSource?

        package override func received(_ message: BusMessage) {
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
    package static func open(events: PlayerEventStream) -> LogindSleepSource? {
        // getenv, not the whole environment: this runs in every real-time play.
        let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) } ?? ""
        guard !address.isEmpty || access("/run/dbus/system_bus_socket", F_OK) == 0 else { return nil }
        do {
            let source = LogindSleepSource(bus: try Bus(.system), events: events)
            source.receiver.source = source
            try source.bus.addMatch(matchRule, handler: source.receiver)
            source.takeDelayLock()
            Bus.releaseSetUpCode()
            return source
        } catch {
            events.error("system sleep is noticed by the clock only (no logind): \(error.description)")
            return nil
        }
    }

    deinit {
        releaseDelayLock()
        bus.close()
    }

    private func announced(sleeping: Bool) {
        if sleeping {
            _ = core?.perform(.systemWillSleep)
            releaseLockBy = Self.monotonicSeconds() + 1
        } else {
            _ = core?.perform(.systemDidWake)
            // A sleep that was vetoed or failed also ends with `false`: the lock may still be held.
            releaseLockBy = nil
            wantsLock = delayLock < 0
        }
    }

    /// `Inhibit("sleep", ..., "delay")`: a short blocking call, at start-up and
    /// after a wake-up, while nothing plays. Refusal is not worth a word: the
    /// announcement works without the lock, only later.
    private func takeDelayLock() {
        guard delayLock < 0 else { return }
        var descriptor: Int32 = -1
        try? bus.call(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                      interface: "org.freedesktop.login1.Manager", member: "Inhibit", timeoutMicroseconds: 500_000,
                      arguments: { message throws(BusError) in
                          try message.append("sleep")
                          try message.append("Interlude")
                          try message.append("Pause playback before the system sleeps")
                          try message.append("delay")
                      },
                      read: { reply throws(BusError) in descriptor = try reply.readFileDescriptor() })
        delayLock = descriptor
    }

    private func releaseDelayLock() {
        guard delayLock >= 0 else { return }
        close(delayLock)
        delayLock = -1
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] { bus.pollRequest.map { [$0] } ?? [] }

    package var wakeWithinMilliseconds: Int? {
        // The lock is taken only on a bus still open (`tendDelayLock`): a closed one is no work.
        if workLeft || (wantsLock && bus.handle != nil) { return 0 }
        // Waiting for the fade to end before logind may go on: look again soon.
        if releaseLockBy != nil { return 10 }
        return bus.wakeWithinMilliseconds
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        self.core = core
        defer { tendDelayLock(core) }
        // Only when the bus has something: an idle bus's process() is a read() that finds nothing.
        guard !ready.isEmpty || workLeft || (bus.wakeWithinMilliseconds ?? 1) == 0 else { return }
        do {
            workLeft = try bus.process()
        } catch {
            // The bus went away (the daemon restarted): a sleep it announced
            // would never be followed by its wake-up, so end it here; the
            // clock jump goes on noticing sleeps.
            _ = core.perform(.systemDidWake)
            releaseDelayLock()
            releaseLockBy = nil
            wantsLock = false
            bus.close()
            workLeft = false
            guard !reportedFailure else { return }
            reportedFailure = true
            events.error("system bus: \(error.description); system sleep is noticed by the clock only")
        }
    }

    /// Silent (or out of time): logind may put the machine to sleep now.
    private func tendDelayLock(_ core: any PlayerCore) {
        if let deadline = releaseLockBy, Self.monotonicSeconds() >= deadline || core.snapshot(.playback).mediaStopped {
            releaseLockBy = nil
            releaseDelayLock()
        }
        if wantsLock && bus.handle != nil {
            wantsLock = false
            takeDelayLock()
        }
    }
}
