/// What follows the end of a track or of the queue.
public enum RepeatMode: String, CaseIterable, Equatable, Sendable {
    case off
    /// The queue starts again (in a new shuffle cycle when shuffled).
    case all
    /// The track plays again, gaplessly.
    case one

    /// The `r` key's order: off, all, one, off (as cmus and most players cycle).
    public var next: RepeatMode {
        switch self {
        case .off: .all
        case .all: .one
        case .one: .off
        }
    }
}
