import Alarms
import InterludeCore
import PlayerModel

/// Desktop notifications of alarms through
/// `org.freedesktop.Notifications` on the session bus, MPRIS's connection;
/// every call asynchronous, answered through the bus's `process()`.
///
/// - A missed alarm (found later than `alarm-grace`, `AlarmScheduler.unseenMissed`)
///   gets one notification: "Missed alarm", and its line.
/// - The next occurrence of each enabled alarm is announced `alarm-notify`
///   before it (default 10 min; 0 for none), once, with the `suppress-sound`
///   hint (the alarm itself is the sound) and, where the server's
///   capabilities list `actions` and the alarm repeats, a "Skip this one"
///   action: invoked (`ActionInvoked` from the server, for that
///   notification), it skips that occurrence as `alarm-skip` does, if it is
///   still the next.
///
/// Looked at on the loop's turns after each plan of the scheduler
/// (`alarmsPlanned`) and at the next announcement's time (a timer on the
/// runtime's clock); the server's capabilities are asked once. A session bus
/// without a notification server is said nothing of: notifications are extras.
package final class AlarmNotifications {
    package static let service = "org.freedesktop.Notifications"
    package static let path = "/org/freedesktop/Notifications"
    package static let interface = "org.freedesktop.Notifications"
    package static let skipAction = "skip"
    package static let matchRule = "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked',"
        + "path='/org/freedesktop/Notifications'"
    /// `alarm-notify`'s default.
    package static let defaultLead = Duration.seconds(600)

    /// One occurrence of one alarm.
    package struct Occurrence: Hashable {
        package let id: AlarmID
        package let fire: Int64
    }

    private let bus: Bus
    /// How long before an occurrence it is announced; nil: not at all.
    private let lead: Duration?
    private let receiver = Receiver()
    /// The server's capabilities, once it answered (empty when it did not).
    private var capabilities: Set<String>?
    private var askedCapabilities = false
    /// Occurrences announced, with the notification's id once the server gave it.
    package private(set) var announced: [Occurrence: UInt32] = [:]
    private var notifiedMissed: Set<Occurrence> = []
    private var look = true
    private var timer: TimerToken?
    private weak var core: (any PlayerCore)?
    /// The zone alarms ring in, for the announcement's day and time.
    private let zone: TimeZoneRules

    private final class Receiver: BusMatchHandler {
        package weak var notifications: AlarmNotifications?

        package override func received(_ message: BusMessage) {
            // (u s): the notification's id, the action's key.
            guard let notifications, let id = try? message.readUInt32(), let action = try? message.readString() else { return }
            notifications.invoked(id, action)
        }
    }

    package init(bus: Bus, lead: Duration?, zone: TimeZoneRules) throws(BusError) {
        self.bus = bus
        self.lead = lead
        self.zone = zone
        receiver.notifications = self
        try bus.addMatch(Self.matchRule, handler: receiver)
    }

    /// The scheduler planned again (an alarm added, changed, rung, skipped): look at the next turn.
    package func alarmsPlanned() { look = true }

    /// Notifies what is due: missed alarms not yet notified, announcements whose time came.
    package func tend(_ core: any PlayerCore) {
        self.core = core
        guard let plan = core.snapshot(.alarmPlan).alarmPlan else {
            // No scheduler: nothing to look at until it plans.
            look = false
            return
        }
        if capabilities == nil {
            // The answer comes on the bus (and sets `look`): no turn is wanted meanwhile.
            askCapabilities()
            return
        }
        for missed in plan.unseenMissed {
            let occurrence = Occurrence(id: AlarmID(rawValue: missed.id), fire: missed.dueAt)
            guard notifiedMissed.insert(occurrence).inserted else { continue }
            notify(summary: "Missed alarm", body: missed.line, actions: [], hints: [], occurrence: nil)
        }
        guard look else { return }
        look = false
        guard let lead else { return }
        if let timer { core.clock.cancel(timer) }
        timer = nil
        let now = core.clock.wallNow.secondsSince1970
        let leadSeconds = lead.components.seconds
        var nextLook: Int64?
        let format = AlarmTimeFormat(zone: ZonedTime(timeZone: zone))
        for alarm in plan.alarms where alarm.isEnabled {
            guard let fire = alarm.nextFire, fire > now else { continue }
            let occurrence = Occurrence(id: AlarmID(rawValue: alarm.id), fire: fire)
            if announced[occurrence] != nil { continue }
            let announceAt = fire - leadSeconds
            guard announceAt <= now else {
                nextLook = min(nextLook ?? announceAt, announceAt)
                continue
            }
            let label = alarm.label.isEmpty ? "" : ": " + alarm.label
            let skippable = !alarm.isOneShot && capabilities?.contains("actions") == true
            announced[occurrence] = 0
            notify(summary: "Alarm \(format.day(fire, now: now))\(label)",
                   body: format.nextAlarm(fire, now: now) + (skippable ? "; it can be skipped once" : ""),
                   actions: skippable ? [Self.skipAction, "Skip this one"] : [], hints: ["suppress-sound"], occurrence: occurrence)
        }
        if let nextLook {
            timer = core.clock.schedule(after: .seconds(max(1, nextLook - now))) { [weak self] in
                self?.timer = nil
                self?.look = true
            }
        }
    }

    /// Whether the loop's next turn should come at once: the capabilities not
    /// asked yet, or a look due that can be taken (not while their answer is
    /// awaited: it comes on the bus, which wakes the loop, and sets `look`).
    package var wantsTurnWithin: Int? {
        (!askedCapabilities || (look && capabilities != nil)) ? 0 : nil
    }

    private func askCapabilities() {
        guard !askedCapabilities else { return }
        askedCapabilities = true
        do {
            try bus.callAsync(destination: Self.service, path: Self.path, interface: Self.interface, member: "GetCapabilities",
                              done: { [weak self] reply, _ in
                                  self?.capabilities = Set((reply.flatMap { try? $0.readStrings() }) ?? [])
                                  self?.look = true
                              })
        } catch {
            capabilities = []
        }
    }

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`.
    private func notify(summary: String, body: String, actions: [String], hints: [String], occurrence: Occurrence?) {
        try? bus.callAsync(destination: Self.service, path: Self.path, interface: Self.interface, member: "Notify",
                           arguments: { message throws(BusError) in
                               try message.append("Interlude")
                               try message.append(uint32: 0)
                               try message.append("alarm-symbolic")
                               try message.append(summary)
                               try message.append(body)
                               try message.append(strings: actions)
                               try message.container("a", "{sv}") { () throws(BusError) in
                                   try message.entry("desktop-entry", variant: "s") { () throws(BusError) in try message.append("interlude") }
                                   try message.entry("category", variant: "s") { () throws(BusError) in try message.append("x-interlude.alarm") }
                                   for hint in hints {
                                       try message.entry(hint, variant: "b") { () throws(BusError) in try message.append(true) }
                                   }
                               }
                               try message.append(int32: -1)
                           }, done: { [weak self] reply, _ in
                               guard let occurrence, let id = reply.flatMap({ try? $0.readUInt32() }) else { return }
                               self?.announced[occurrence] = id
                           })
    }

    /// The server says the listener chose `action` on notification `id`.
    private func invoked(_ id: UInt32, _ action: String) {
        guard action == Self.skipAction, id != 0, let core,
              let occurrence = announced.first(where: { $0.value == id })?.key else { return }
        // Still the next of that alarm: a late click does not skip the one after.
        let plan = core.snapshot(.alarmPlan).alarmPlan
        guard plan?.alarms.first(where: { $0.id == occurrence.id.rawValue })?.nextFire == occurrence.fire,
              occurrence.fire > core.clock.wallNow.secondsSince1970 else { return }
        _ = core.perform(.skipAlarm(id: occurrence.id.rawValue))
    }
}
