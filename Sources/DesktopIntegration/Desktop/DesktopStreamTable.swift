import AudioEngine
import AudioSession

/// Which of the desktop's streams interrupt the player now, by time alone, so
/// it is tested without a sound server: a pure table the source feeds with
/// what the server reports, on the monotonic clock in microseconds.
///
/// A stream with a role the table names counts from when it plays until it is
/// removed. A corked stream (its program paused it: a call on hold, an alarm
/// stopped but kept) stops counting once it has stayed corked for
/// `corkGraceMicroseconds`, so the player comes back for a long hold but does
/// not flap over a momentary cork; uncorked, it counts again, which the source
/// turns into a new interruption. A stream that starts corked (created before
/// it has data) counts only once it plays. The player's own streams, another
/// Interlude's, and roles outside the table never count: another Interlude's
/// stream takes the `phone` role while its alarm rings (for the sound server's
/// role-cork), and it pauses this player itself over MPRIS, as it pauses every
/// other player (`OtherPlayers`); taken for a call as well, two players on
/// one server would each resume the other on their own schedules.
package struct DesktopStreamTable {
    package static let corkGraceMicroseconds: Int64 = 2_000_000

    package struct Entry: Equatable {
        package var stream: DesktopStream
        package var priorityClass: PriorityClass
        /// When it was first seen corked, while it is.
        package var corkedSince: Int64?
        package var counts = false
    }

    package let roles: [String: PriorityClass]
    package let ownProcessID: Int32
    package private(set) var entries: [UInt32: Entry] = [:]

    package init(roles: [String: PriorityClass], ownProcessID: Int32) {
        self.roles = roles
        self.ownProcessID = ownProcessID
    }

    /// A new or changed stream as the server describes it.
    package mutating func seen(_ stream: DesktopStream, now: Int64) {
        guard stream.processID != ownProcessID, stream.applicationID != PulseOutput.applicationID,
              let role = stream.role, let priorityClass = roles[role] else {
            entries[stream.index] = nil
            return
        }
        var entry = entries[stream.index] ?? Entry(stream: stream, priorityClass: priorityClass)
        entry.stream = stream
        entry.priorityClass = priorityClass
        if stream.corked {
            if entry.corkedSince == nil { entry.corkedSince = now }
        } else {
            entry.corkedSince = nil
            entry.counts = true
        }
        entries[stream.index] = entry
        expire(now: now)
    }

    package mutating func removed(_ index: UInt32) { entries[index] = nil }

    /// The server went away, and its streams with it.
    package mutating func removeAll() { entries.removeAll() }

    /// Streams corked for the grace period stop counting.
    package mutating func expire(now: Int64) {
        guard let next = nextExpiry, now >= next else { return }
        for (index, entry) in entries where entry.counts {
            if let since = entry.corkedSince, now - since >= Self.corkGraceMicroseconds { entries[index]?.counts = false }
        }
    }

    /// When the next corked stream stops counting, if one will.
    package var nextExpiry: Int64? {
        var next: Int64?
        for entry in entries.values where entry.counts {
            guard let since = entry.corkedSince else { continue }
            next = min(next ?? since + Self.corkGraceMicroseconds, since + Self.corkGraceMicroseconds)
        }
        return next
    }

    /// The streams that count, in the server's order.
    package var counting: [Entry] {
        entries.values.filter(\.counts).sorted { $0.stream.index < $1.stream.index }
    }
}
