/// Where chapter and skip commands go from a book position. Targets are
/// book positions; the application seeks there.
public struct BookNavigation: Equatable, Sendable {
    /// Skip lengths in milliseconds (BookPlayer and Voice default to 30 s).
    public var skipBackMilliseconds: Int
    public var skipForwardMilliseconds: Int
    /// "Previous chapter" within this much of a chapter's start goes to the
    /// previous chapter; later, it goes back to the current one's start (as
    /// CD players and BookPlayer do).
    public var restartThresholdMilliseconds: Int

    public static let defaultSkipMilliseconds = 30_000

    public init(skipBackMilliseconds: Int = defaultSkipMilliseconds,
                skipForwardMilliseconds: Int = defaultSkipMilliseconds,
                restartThresholdMilliseconds: Int = 3_000) {
        self.skipBackMilliseconds = max(0, skipBackMilliseconds)
        self.skipForwardMilliseconds = max(0, skipForwardMilliseconds)
        self.restartThresholdMilliseconds = max(0, restartThresholdMilliseconds)
    }

    /// The start of the next chapter that starts after `position`, nil in the last one.
    public func nextChapter(in book: Book, from position: Int) -> BookChapter? {
        let here = book.clamp(position)
        return book.chapters.first { $0.startMilliseconds > here }
    }

    /// The current chapter's start, or the previous chapter's when `position`
    /// is within the restart threshold of it (the book's start at the first).
    public func previousChapter(in book: Book, from position: Int) -> BookChapter {
        let here = book.clamp(position)
        let current = book.chapter(at: here)
        if here - current.startMilliseconds > restartThresholdMilliseconds { return current }
        // The previous chapter with a length of its own (zero-length ones share a start).
        return book.chapters.last { $0.startMilliseconds < current.startMilliseconds } ?? book.chapters[0]
    }

    public func skipBack(in book: Book, from position: Int) -> Int {
        book.clamp(position - skipBackMilliseconds)
    }

    /// At most the end of the book.
    public func skipForward(in book: Book, from position: Int) -> Int {
        book.clamp(position + skipForwardMilliseconds)
    }
}
