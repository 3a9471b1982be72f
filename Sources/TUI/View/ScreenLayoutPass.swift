import PlayerModel

/// What the layout pass decided for one frame: where everything goes, the
/// banner's text, and for each list pane (and the help screen) which of its
/// rows show. `ScreenRenderer.draw` only reads it.
public struct ScreenArrangement: Sendable {
    public var layout: Layout
    public var banner: (message: String, countdown: String)?
    /// The rows of each list pane that fit its area, after its scroll offset moved to show the selection.
    public var visibleRows: [Pane: Range<Int>] = [:]
    /// The rows of the help screen that show, while it does.
    public var visibleHelpRows: Range<Int>?
}

/// The step before drawing, and the only one that changes the interface
/// state: a list's scroll offset depends on the height its pane gets, which
/// only the layout knows, and page up/down move by the focused pane's height.
/// So for the terminal's size it lays the screen out, scrolls each list pane
/// so its selection shows, keeps the event log on its newest entry while it
/// follows, and records the page size. Drawing is then a pure function of
/// the arrangement, the state and the snapshot.
public struct ScreenLayoutPass {
    public init() {}

    public func arrange(size: TerminalSize, state: inout InterfaceState, snapshot: PlayerSnapshot,
                        now: Double) -> ScreenArrangement {
        let banner = Banner(snapshot.session).text(now: now, resumeKey: state.bindings.name(of: .playPause))
            ?? Banner.missed(snapshot.missedAlarms, dismissKey: state.bindings.name(of: .alarmDismiss))
        let layout = Layout(size: size, banner: banner != nil, focus: state.focus, topLeft: state.topLeft,
                            topRight: state.topRight)
        var arrangement = ScreenArrangement(layout: layout, banner: banner)
        guard layout.mode != .tooSmall else { return arrangement }
        if state.showsHelp {
            let content = Self.helpContent(of: layout.body)
            state.pageSize = max(1, content.height - 1)
            arrangement.visibleHelpRows = state.helpCursor.visibleRange(
                height: content.height, count: ScreenRenderer.helpRows(for: state.bindings).count)
            return arrangement
        }
        for (pane, area) in layout.panes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard area.height > 0, area.width > 0 else { continue }
            let content = Self.content(of: area)
            guard content.height > 0 else { continue }
            if pane == state.focus { state.pageSize = max(1, content.height - 1) }
            if let rows = scroll(pane, height: content.height, state: &state, snapshot: snapshot) {
                arrangement.visibleRows[pane] = rows
            }
        }
        return arrangement
    }

    /// Scrolls `pane`'s list for `height` rows; nil for a pane that is not a list.
    private func scroll(_ pane: Pane, height: Int, state: inout InterfaceState,
                        snapshot: PlayerSnapshot) -> Range<Int>? {
        switch pane {
        case .browser:
            guard var browser = state.browser else { return 0..<0 }
            let rows = browser.cursor.visibleRange(height: height, count: browser.visible.count)
            state.replaceBrowser(browser)
            return rows
        case .queue:
            return state.queueCursor.visibleRange(height: height, count: state.visibleQueue(snapshot).count)
        case .nowPlaying, .lyrics:
            return nil
        case .alarms:
            return state.alarmsCursor.visibleRange(height: height, count: snapshot.alarms.count)
        case .eventLog:
            let count = state.visibleLog.count
            if state.logFollows { state.logCursor.select(count - 1, count: count) }
            return state.logCursor.visibleRange(height: height, count: count)
        case .books:
            return state.booksCursor.visibleRange(height: height, count: snapshot.books.count)
        case .chapters:
            return state.chaptersCursor.visibleRange(height: height, count: snapshot.book?.chapters.count ?? 0)
        case .bookmarks:
            return state.bookmarksCursor.visibleRange(height: height, count: snapshot.book?.bookmarks.count ?? 0)
        case .playlists:
            return state.playlistsCursor.visibleRange(height: height, count: snapshot.playlists.count)
        case .radio:
            return state.stationsCursor.visibleRange(height: height, count: snapshot.stations.count)
        case .podcasts:
            if let podcast = state.openedPodcast(snapshot) {
                return state.episodesCursor.visibleRange(height: height, count: podcast.episodes.count)
            }
            return state.podcastsCursor.visibleRange(height: height, count: snapshot.podcasts.count)
        case .library:
            guard var library = state.library else { return 0..<0 }
            // The rows are read when the pane first shows.
            library.loadIfNeeded()
            var rows = library.cursor.visibleRange(height: height, count: library.rows.count)
            // Near the end of a cut list: more of it (a search, as a key of the filter costs).
            if library.wantsMore(showing: rows) {
                library.loadMore()
                rows = library.cursor.visibleRange(height: height, count: library.rows.count)
            }
            state.library = library
            return rows
        }
    }

    /// A pane's area below its title row.
    static func content(of area: Rect) -> Rect {
        Rect(row: area.row + 1, column: area.column, width: area.width, height: area.height - 1)
    }

    /// The help screen's area below its title row.
    static func helpContent(of body: Rect) -> Rect {
        Rect(row: body.row + 1, column: 0, width: body.width, height: body.height - 1)
    }
}
