/// MPD's idle subsystems a client waits on (`idle player mixer`): what
/// changed since it last asked is kept per client, so a change between two
/// `idle`s is told by the second at once, as MPD does.
public enum MPDSubsystem: String, CaseIterable, Sendable {
    case database, update, storedPlaylist = "stored_playlist", playlist, player, mixer, output, options, partition,
         sticker, subscription, message, neighbor, mount
}

public struct MPDIdleState: Sendable {
    public private(set) var pending: Set<MPDSubsystem> = []
    /// Set while the client waits in `idle`: the subsystems it waits on.
    public private(set) var waiting: Set<MPDSubsystem>?

    public init() {}

    /// The subsystems an `idle` names (all when none), or MPD's complaint.
    public static func subsystems(_ names: [String]) throws(MPDFailure) -> Set<MPDSubsystem> {
        guard !names.isEmpty else { return Set(MPDSubsystem.allCases) }
        var chosen: Set<MPDSubsystem> = []
        for name in names {
            guard let subsystem = MPDSubsystem.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw MPDFailure(.argument, "Unrecognized idle event: \(name)", command: "idle")
            }
            chosen.insert(subsystem)
        }
        return chosen
    }

    /// Something changed: the reply when a waiting client is due one now.
    public mutating func changed(_ subsystems: Set<MPDSubsystem>) -> String? {
        pending.formUnion(subsystems)
        return deliver()
    }

    /// `idle`: the reply now when something it waits on changed already, else nil (it waits).
    public mutating func wait(on subsystems: Set<MPDSubsystem>) -> String? {
        waiting = subsystems
        return deliver()
    }

    /// `noidle`: the `OK` that ends the wait, or nil when the client was not waiting (MPD ignores it).
    public mutating func cancel() -> String? {
        guard waiting != nil else { return nil }
        waiting = nil
        return "OK\n"
    }

    public var isWaiting: Bool { waiting != nil }

    private mutating func deliver() -> String? {
        guard let wanted = waiting else { return nil }
        let due = pending.intersection(wanted)
        guard !due.isEmpty else { return nil }
        pending.subtract(due)
        waiting = nil
        // MPD's order: the order of its subsystem table.
        return MPDSubsystem.allCases.filter(due.contains).map { "changed: \($0.rawValue)\n" }.joined() + "OK\n"
    }
}
