/// The seconds played (MPD's `stats` `playtime`), counted from the state
/// the player is in at each of its events: a stretch playing runs from an
/// event that found it playing to the next that found it not.
public struct MPDPlayTime: Sendable, Equatable {
    private var played = 0.0
    private var playingSince: Double?

    public init() {}

    /// The player's state at `now` (monotonic seconds).
    public mutating func note(playing: Bool, at now: Double) {
        if let since = playingSince, !playing {
            played += max(0, now - since)
            playingSince = nil
        } else if playingSince == nil, playing {
            playingSince = now
        }
    }

    /// All played until `now`, the stretch going on included.
    public func seconds(at now: Double) -> Double {
        played + (playingSince.map { max(0, now - $0) } ?? 0)
    }
}
