/// The seconds played (MPD's `stats` `playtime`), counted from the state
/// the player is in at each turn of its loop: a stretch playing runs from
/// the turn that found it playing to the next that found it not.
public struct MPDPlayTime: Sendable, Equatable {
    private var played = 0.0
    private var playingSince: Double?

    public init() {}

    /// Whether the last state noted was playing.
    public var isPlaying: Bool { playingSince != nil }

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
