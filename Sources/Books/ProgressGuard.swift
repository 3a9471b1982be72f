/// A place near the start never overwrites real progress: an episode or a
/// book opened at 0:00 (from a download after its stream was heard to 40:00,
/// by a second player, after its state was lost and found again) does not
/// write 0:00, 0:01, ... over the 40:00 its state file holds, unless the
/// listener chose to be there (sought back, started over, a bookmark).
///
/// One guard per playing session: once it refused a place, it keeps refusing
/// the places before the progress it kept, until playback passes it or the
/// listener chooses a place.
public struct ProgressGuard: Equatable, Sendable {
    /// What counts as the start.
    public static let nearStartMilliseconds = 30_000
    /// What counts as real progress: more than the start and the longest
    /// smart rewind by default (30 s) from it, so a resume never trips it.
    public static let realProgressMilliseconds = 60_000

    /// The progress kept from places near the start, while it is kept.
    public private(set) var kept: Int?

    public init() {}

    /// Whether `position` may be written over `stored` (what the state file
    /// holds now); `chosen`: the listener put playback there.
    public mutating func admits(_ position: Int, over stored: Int, chosen: Bool) -> Bool {
        if chosen {
            kept = nil
            return true
        }
        if let kept {
            guard position >= kept else { return false }
            self.kept = nil
            return true
        }
        if position < Self.nearStartMilliseconds && stored >= Self.realProgressMilliseconds && position < stored {
            kept = stored
            return false
        }
        return true
    }
}
