/// A file's lyrics (or, for a book, the text being read): timed lines from an
/// LRC file or an ID3 SYLT frame, or untimed text from USLT, a Vorbis comment
/// (`LYRICS`, `UNSYNCEDLYRICS`) or MP4's `©lyr`. A small value, bounded: at
/// most `lineLimit` lines and `byteLimit` bytes of text are kept, whatever the
/// file holds, and every time is range-checked where it is read.
public struct Lyrics: Equatable, Sendable {
    /// A timed line: shown from `milliseconds` of the file's own time (the
    /// heard position, not the wall clock) until the next line's.
    public struct Line: Equatable, Sendable {
        public let milliseconds: Int
        public let text: String

        public init(milliseconds: Int, text: String) {
            self.milliseconds = milliseconds
            self.text = text
        }
    }

    public enum Content: Equatable, Sendable {
        /// In time order (lines of one time in the file's order).
        case synced([Line])
        case unsynced([String])
    }

    public var content: Content
    /// Where they came from, for the pane's title: "song.lrc", "ID3 SYLT", "LYRICS".
    public var source: String
    /// The one problem met reading them, as one line naming the file or frame
    /// and the line ("song.lrc line 7: bad time [1:75.00], dropped (and 2
    /// more)"); nil when there was none.
    public var problem: String?

    public init(content: Content, source: String, problem: String? = nil) {
        self.content = content
        self.source = source
        self.problem = problem
    }

    /// Lyrics run to a hundred lines; a book's text read aloud to a few thousand.
    public static let lineLimit = 20_000
    /// The text kept: a long book's whole text fits; a damaged or hostile tag does not fill memory.
    public static let byteLimit = 1 << 20
    /// Times beyond 100 hours (longer than any book) are damage.
    public static let maximumMilliseconds = 100 * 3_600_000

    public var isSynced: Bool {
        if case .synced = content { return true }
        return false
    }

    /// The lines as text, timed or not.
    public var texts: [String] {
        switch content {
        case .synced(let lines): lines.map(\.text)
        case .unsynced(let lines): lines
        }
    }

    /// The line being heard at `milliseconds` of the file: the last line
    /// whose time has been passed (of several at one time, the last of
    /// them); nil before the first line and for untimed lyrics.
    public func currentLine(atMilliseconds milliseconds: Int) -> Int? {
        guard case .synced(let lines) = content else { return nil }
        return Self.currentLine(in: lines, atMilliseconds: milliseconds)
    }

    /// `currentLine` over lines in time order: a binary search, so a redraw
    /// four times a second costs nothing for a book's thousands of lines.
    public static func currentLine(in lines: [Line], atMilliseconds milliseconds: Int) -> Int? {
        var low = 0, high = lines.count
        // Invariant: every line before `low` has started; none from `high` on has.
        while low < high {
            let middle = low + (high - low) / 2
            if lines[middle].milliseconds <= milliseconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

/// Text collected under `Lyrics`' limits: lines are added until either is
/// reached, then the rest is counted as dropped for the one problem line.
struct LyricsBudget {
    private(set) var bytes = 0
    private(set) var lines = 0
    private(set) var isSpent = false

    /// Whether `text` may be kept; false once a limit is reached.
    mutating func admit(_ text: String) -> Bool {
        guard !isSpent else { return false }
        let size = text.utf8.count
        guard lines < Lyrics.lineLimit, bytes + size <= Lyrics.byteLimit else {
            isSpent = true
            return false
        }
        lines += 1
        bytes += size
        return true
    }

    /// "SOURCE: longer than the 20,000 lines (1 MB) kept; the rest is not shown".
    func problem(_ source: String) -> String? {
        isSpent ? "\(source): longer than the \(Lyrics.lineLimit) lines (1 MB) kept; the rest is not shown" : nil
    }
}
