/// The panes, in the order Tab and the digit keys use. The last three are the
/// audiobook panes: in the split layout the books pane takes the browser's
/// place and the chapters and bookmarks panes the queue's, while focused.
/// The library pane (9) and the playlists pane (0) take the browser's place too;
/// the lyrics pane (L, its key) the queue's, the radio pane (R) and the podcasts pane (P) the browser's.
public enum Pane: Int, CaseIterable, Sendable {
    case browser = 1
    case queue
    case nowPlaying
    case alarms
    case eventLog
    case books
    case chapters
    case bookmarks
    case library
    case playlists
    case lyrics
    case radio
    case podcasts

    public var title: String {
        switch self {
        case .browser: "Browser"
        case .queue: "Queue"
        case .nowPlaying: "Now playing"
        case .alarms: "Alarms"
        case .eventLog: "Event log"
        case .books: "Books"
        case .chapters: "Chapters"
        case .bookmarks: "Bookmarks"
        case .library: "Library"
        case .playlists: "Playlists"
        case .lyrics: "Lyrics"
        case .radio: "Radio"
        case .podcasts: "Podcasts"
        }
    }

    /// A short title for the tab row of the one-pane layout.
    public var shortTitle: String {
        switch self {
        case .browser: "Browse"
        case .queue: "Queue"
        case .nowPlaying: "Now"
        case .alarms: "Alarms"
        case .eventLog: "Log"
        case .books: "Books"
        case .chapters: "Chapters"
        case .bookmarks: "Marks"
        case .library: "Library"
        case .playlists: "Lists"
        case .lyrics: "Lyrics"
        case .radio: "Radio"
        case .podcasts: "Podcasts"
        }
    }

    /// The digit key that focuses the pane, as the tab row and titles show it.
    public var digit: String {
        switch self {
        case .playlists: "0"
        case .lyrics: "L"
        case .radio: "R"
        case .podcasts: "P"
        default: String(rawValue)
        }
    }

    /// Tab's order: 1 to 9 and round again. The playlists pane (0) is reached by its
    /// digit, and its tab shows only while it is focused, so the tab row of a
    /// 40-column terminal still names the five panes music uses.
    public var next: Pane {
        switch self {
        case .library, .playlists, .lyrics, .radio, .podcasts: .browser
        default: Pane(rawValue: rawValue + 1)!
        }
    }
}

extension Pane {
    /// Where a pane goes in the split layout: panes that share a slot take
    /// turns in it (the one focused last shows).
    public enum Slot: Sendable {
        case topLeft, topRight, middle, bottomLeft, bottomRight
    }

    public var slot: Slot {
        switch self {
        case .browser, .books, .library, .playlists, .radio, .podcasts: .topLeft
        case .queue, .chapters, .bookmarks, .lyrics: .topRight
        case .nowPlaying: .middle
        case .alarms: .bottomLeft
        case .eventLog: .bottomRight
        }
    }
}
