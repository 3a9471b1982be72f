/// The other MPRIS players on the session bus, paused while an alarm rings
/// and resumed when it ends (dismissed or timed out; a snooze keeps them
/// paused until the alarm it snoozed ends). Over MPRIS's own connection,
/// every call asynchronous: the replies come back through the bus's
/// `process()` in the main loop, which never waits for another player.
///
/// Exactly the players the alarm paused are resumed, and only those still
/// paused by it: a player is known by its unique bus name (`:1.42`), so one
/// that went away, or came back as a new process under the same name, gets
/// no `Play`; and a player that reports any other `PlaybackStatus` after the
/// alarm paused it (the listener played it, stopped it, or played and paused
/// it again) is the listener's again and is left alone.
package final class OtherPlayers {
    package static let namePrefix = "org.mpris.MediaPlayer2."
    package static let matchRule = "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "path='/org/mpris/MediaPlayer2',arg0='org.mpris.MediaPlayer2.Player'"

    private let bus: Bus
    /// Our own well-known name, never paused.
    private let ownName: () -> String
    private let receiver = Receiver()
    /// An alarm rings now (between its `ringingBegan` and its end).
    private var ringing = false
    /// Unique names of the players this alarm paused and that are still paused by it.
    package private(set) var paused: Set<String> = []
    /// Unique names whose `Pause` is on its way.
    private var pausing: Set<String> = []
    /// Once per run, what failed (the bus is still MPRIS's; a player's refusal is not worth a word).
    private var report: (String) -> Void

    private final class Receiver: BusMatchHandler {
        package weak var players: OtherPlayers?

        package override func received(_ message: BusMessage) {
            guard let sender = message.sender, let players, players.paused.contains(sender) || players.pausing.contains(sender)
            else { return }
            // (s a{sv} as): the interface, the changed values, the invalidated names.
            guard (try? message.readString()) != nil, let changed = try? message.readStringEntries(),
                  let status = changed["PlaybackStatus"] else { return }
            players.statusChanged(sender, to: status)
        }
    }

    package init(bus: Bus, ownName: @escaping () -> String, report: @escaping (String) -> Void) throws(BusError) {
        self.bus = bus
        self.ownName = ownName
        self.report = report
        receiver.players = self
        try bus.addMatch(Self.matchRule, handler: receiver)
    }

    /// An alarm began ringing (or rang again after a snooze): pause every other player that plays.
    package func alarmBegan() {
        ringing = true
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "ListNames") { [weak self] reply in
            guard let self, let names = try? reply.readStrings() else { return }
            let own = ownName()
            for name in names where name.hasPrefix(Self.namePrefix) && name != own { pauseIfPlaying(name) }
        }
    }

    /// The alarm ended for good: play again the players it paused that are still paused.
    package func alarmEnded() {
        ringing = false
        pausing.removeAll()
        let players = paused
        paused.removeAll()
        for player in players {
            readStatus(player) { [weak self] status, _ in
                guard let self, status == "Paused", !ringing else { return }
                call(destination: player, path: MprisSource.objectPath, interface: MprisSource.playerInterface, member: "Play") { _ in }
            }
        }
    }

    private func pauseIfPlaying(_ name: String) {
        readStatus(name) { [weak self] status, unique in
            guard let self, ringing, status == "Playing", let unique, !paused.contains(unique) else { return }
            pausing.insert(unique)
            call(destination: unique, path: MprisSource.objectPath, interface: MprisSource.playerInterface, member: "Pause") { [weak self] _ in
                guard let self, pausing.remove(unique) != nil, ringing else { return }
                paused.insert(unique)
            }
        }
    }

    /// A player's `PlaybackStatus` changed: anything but Paused after the
    /// alarm paused it makes it the listener's again.
    private func statusChanged(_ player: String, to status: String) {
        guard status != "Paused" else { return }
        // A Pause on its way is answered before the player's own change is
        // announced only if the player says Paused first: a Playing now is the old state.
        if pausing.contains(player) { return }
        paused.remove(player)
    }

    /// `PlaybackStatus` of `name` and the unique name that answered.
    private func readStatus(_ name: String, _ done: @escaping (String?, String?) -> Void) {
        call(destination: name, path: MprisSource.objectPath, interface: "org.freedesktop.DBus.Properties", member: "Get",
             arguments: { message throws(BusError) in
                 try message.append(MprisSource.playerInterface)
                 try message.append("PlaybackStatus")
             }, failed: { done(nil, nil) }) { reply in
            let status = try? reply.enter("v", "s") { () throws(BusError) in try reply.readString() }
            done(status, reply.sender)
        }
    }

    private func call(destination: String, path: String, interface: String, member: String,
                      arguments: (BusMessage) throws(BusError) -> Void = { _ throws(BusError) in },
                      failed: @escaping () -> Void = {}, _ read: @escaping (BusMessage) -> Void) {
        do {
            try bus.callAsync(destination: destination, path: path, interface: interface, member: member,
                              timeoutMicroseconds: 5_000_000, arguments: arguments) { reply, _ in
                if let reply { read(reply) } else { failed() }
            }
        } catch {
            report("other players: \(error.description)")
            report = { _ in }
            failed()
        }
    }
}
