import InterludeCore

/// A place in a book the listener marked, with an optional note.
public struct Bookmark: Equatable, Sendable {
    /// Numbered from 1 within a book, never reused, so `--bookmark 3` keeps
    /// naming the same mark after others are deleted.
    public let id: Int
    public let positionMilliseconds: Int
    public var note: String?
    public let created: WallInstant

    public init(id: Int, positionMilliseconds: Int, note: String?, created: WallInstant) {
        self.id = id
        self.positionMilliseconds = positionMilliseconds
        self.note = note.flatMap { $0.isEmpty ? nil : $0 }
        self.created = created
    }
}
