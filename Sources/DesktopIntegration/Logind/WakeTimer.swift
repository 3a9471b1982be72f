import Alarms
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// A wake of the computer for the next enabled alarm, where the system lets
/// this user: a transient timer of the systemd user manager
/// (`org.freedesktop.systemd1.Manager.StartTransientUnit` on the session
/// bus, MPRIS's connection) with `WakeSystem=yes` at the alarm's time
/// (`OnCalendar=` in UTC, to the second): the kernel's `CLOCK_REALTIME_ALARM`
/// under systemd's control, since systemd 254 allowed to a local user.
///
/// What the timer starts is the player's user service (`interlude.service`,
/// `UserServiceUnit`), so a computer woken for an alarm rings it even when the
/// player had died. A transient timer triggers the service of its own name
/// (systemd takes no `Unit=` for a transient timer over D-Bus, and a timer
/// named `interlude.timer`, started again at each re-arm, would race the old
/// one's unloading), so it comes with a service of its own name that runs
/// `/bin/true` and `Wants=interlude.service`: its start pulls the player's in
/// (nothing more when it runs; ignored, with a line in the journal, when the
/// unit is not installed).
///
/// Re-armed when the next alarm changes (looked at after each plan of the
/// scheduler, `AlarmScheduler.onPlanned`: every change of the alarms, this
/// process's or another's, ends in one), before the system sleeps and after
/// every wake-up: the old timer is stopped and a
/// new one, of a new name, started. Every call is asynchronous: the main loop
/// never waits for the user manager. What happened is the `alarmWake` event:
/// "wakes the computer" with the time, or "rings only while the computer is
/// awake" with the reason (no user manager, no permission, its own message).
///
/// A refusal or a missing user manager is asked again on a backoff (`retry`:
/// a second, doubling to a minute, on the runtime's clock), so one that
/// starts later (or a policy that changes) still gets the wake; the event
/// says a failure once, not again at each retry that fails the same way. The
/// loop is asked for a turn at once only while a look is due (`wantsTurnWithin`),
/// never while a call is out: its answer wakes the loop on the bus.
package final class WakeTimer {
    package static let manager = "org.freedesktop.systemd1"
    package static let path = "/org/freedesktop/systemd1"
    package static let interface = "org.freedesktop.systemd1.Manager"
    /// The retries' backoff: a second after the first failure, doubling to a minute.
    package static func retry() -> ReconnectBackoff {
        ReconnectBackoff(firstDelayMilliseconds: 1000, longestDelayMilliseconds: 60_000)
    }

    private let bus: Bus
    private let events: PlayerEventStream
    /// The timer unit armed now and its wall second.
    private var armed: (instant: Int64, unit: String)?
    /// What was asked last: nil for no alarm at all.
    private var asked: Int64??
    /// The scheduler planned again: look whether the next alarm changed.
    private var look = true
    /// Sleep or wake, or a retry due: arm again even when it did not.
    private var forced = true
    private var counter = 0
    /// After a failed arm: the next attempt's timer on the runtime's clock, and the delays.
    private var retryTimer: TimerToken?
    private var backoff = WakeTimer.retry()
    /// The core of the last turn, for the retry's timer.
    private weak var core: (any PlayerCore)?
    /// What the last `alarmWake` said: its time, or why not.
    private var reported: (at: Int64?, reason: String?)?

    package init(bus: Bus, events: PlayerEventStream) {
        self.bus = bus
        self.events = events
    }

    /// The system sleeps or woke: arm again at the next turn.
    package func rearmSoon() { forced = true }

    /// The scheduler planned again (an alarm added, removed, changed, rung,
    /// snoozed, or read from another process's save): look at the next turn.
    package func alarmsPlanned() { look = true }

    /// Whether the loop's next turn should come at once, for `tend`; else no wake of its own
    /// (a retry's time is the clock's timer, an answer is the bus's descriptor).
    package var wantsTurnWithin: Int? { forced || look ? 0 : nil }

    /// Arms the next enabled alarm's wake when it changed (or when forced).
    package func tend(_ core: any PlayerCore) {
        self.core = core
        guard forced || look else { return }
        look = false
        // No scheduler: no alarm to wake for, and nothing to look at until it plans.
        guard let plan = core.snapshot(.alarmPlan).alarmPlan else {
            forced = false
            return
        }
        let next = plan.alarms.filter(\.isEnabled).compactMap(\.nextFire).min()
        if !forced, let asked, asked == next { return }
        forced = false
        asked = .some(next)
        arm(next)
    }

    private func arm(_ instant: Int64?) {
        if let timer = retryTimer { core?.clock.cancel(timer) }
        retryTimer = nil
        if let old = armed {
            armed = nil
            try? bus.callAsync(destination: Self.manager, path: Self.path, interface: Self.interface, member: "StopUnit",
                               arguments: { message throws(BusError) in
                                   try message.append(old.unit)
                                   try message.append("replace")
                               }, done: { _, _ in })
        }
        guard let instant else { return }
        counter += 1
        let base = "interlude-wake-\(getpid())-\(counter)"
        let calendar = Self.calendarSpec(instant)
        do {
            try bus.callAsync(destination: Self.manager, path: Self.path, interface: Self.interface, member: "StartTransientUnit",
                              arguments: { message throws(BusError) in
                                  try message.append(base + ".timer")
                                  try message.append("replace")
                                  try Self.timerProperties(message, calendar: calendar)
                                  try Self.serviceUnit(message, name: base + ".service")
                              }, done: { [weak self] reply, error in
                                  guard let self else { return }
                                  if reply != nil {
                                      armed = (instant, base + ".timer")
                                      backoff.connected()
                                      report(at: instant, reason: nil)
                                  } else {
                                      failed(Self.reason(error))
                                  }
                              })
        } catch {
            failed(error.description)
        }
    }

    /// Said once (a retry that fails the same way says nothing), and asked again after the backoff's delay.
    private func failed(_ reason: String) {
        report(at: nil, reason: reason)
        guard let core, retryTimer == nil else { return }
        retryTimer = core.clock.schedule(after: .milliseconds(backoff.failed())) { [weak self] in
            guard let self else { return }
            retryTimer = nil
            forced = true
        }
    }

    private func report(at instant: Int64?, reason: String?) {
        if let reported, reported.at == instant, reported.reason == reason, reason != nil { return }
        reported = (instant, reason)
        events.emit(.alarmWake(at: instant, reason: reason))
    }

    /// Why the user manager did not arm it, in the listener's words.
    package static func reason(_ error: BusError?) -> String {
        // A bus without systemd still names it for activation (dbus's own
        // org.freedesktop.systemd1.service, which runs /bin/false): Spawn.ChildExited.
        if let name = error?.name, name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") { return "no user manager on the session bus" }
        return switch error?.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            "no user manager on the session bus"
        case "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired":
            "no permission to wake the computer"
        default:
            error.map { "the user manager refused: \($0.message)" } ?? "the user manager did not answer"
        }
    }

    /// `OnCalendar=` for a wall second: `YYYY-MM-DD HH:MM:SS UTC`.
    package static func calendarSpec(_ instant: Int64) -> String {
        let (date, seconds) = ZonedTime(timeZone: .utc).local(at: instant)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date) \(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60)) UTC"
    }

    /// The timer's `a(sv)`: the calendar, the wake, to the second, gone once elapsed.
    private static func timerProperties(_ message: BusMessage, calendar: String) throws(BusError) {
        try message.container("a", "(sv)") { () throws(BusError) in
            try property(message, "Description", "s") { () throws(BusError) in try message.append("Interlude alarm: wake the computer") }
            try property(message, "TimersCalendar", "a(ss)") { () throws(BusError) in
                try message.container("a", "(ss)") { () throws(BusError) in
                    try message.container("r", "ss") { () throws(BusError) in
                        try message.append("OnCalendar")
                        try message.append(calendar)
                    }
                }
            }
            try property(message, "WakeSystem", "b") { () throws(BusError) in try message.append(true) }
            try property(message, "RemainAfterElapse", "b") { () throws(BusError) in try message.append(false) }
            try property(message, "AccuracyUSec", "t") { () throws(BusError) in try message.append(unsigned: 1_000_000) }
        }
    }

    /// The auxiliary `a(sa(sv))`: the service the timer starts, which wants the player's service.
    private static func serviceUnit(_ message: BusMessage, name: String) throws(BusError) {
        try message.container("a", "(sa(sv))") { () throws(BusError) in
            try message.container("r", "sa(sv)") { () throws(BusError) in
                try message.append(name)
                try message.container("a", "(sv)") { () throws(BusError) in
                    try property(message, "Description", "s") { () throws(BusError) in try message.append("Interlude alarm wake") }
                    try property(message, "Wants", "as") { () throws(BusError) in
                        try message.append(strings: [UserServiceUnit.serviceName])
                    }
                    try property(message, "ExecStart", "a(sasb)") { () throws(BusError) in
                        try message.container("a", "(sasb)") { () throws(BusError) in
                            try message.container("r", "sasb") { () throws(BusError) in
                                try message.append("/bin/true")
                                try message.append(strings: ["/bin/true"])
                                try message.append(false)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func property(_ message: BusMessage, _ key: String, _ signature: String,
                                 _ body: () throws(BusError) -> Void) throws(BusError) {
        try message.container("r", "sv") { () throws(BusError) in
            try message.append(key)
            try message.container("v", signature, body)
        }
    }
}
