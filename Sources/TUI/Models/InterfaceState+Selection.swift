import BookFormat
import PlayerModel

/// The lists: what each shows (filtered), moving in them, and what enter,
/// `b` and `e` do with the selection.
extension InterfaceState {
    /// Queue rows shown (filtered), with their index in the queue.
    public func visibleQueue(_ snapshot: PlayerSnapshot) -> [(index: Int, entry: PlayerSnapshot.QueueEntry)] {
        let needle = queueFilter.lowercased()
        return snapshot.queue.enumerated().compactMap { index, entry in
            needle.isEmpty || entry.title.lowercased().contains(needle) || entry.path.lowercased().contains(needle)
                ? (index, entry) : nil
        }
    }

    /// Log entries shown (filtered).
    public var visibleLog: [LoggedEvent] {
        guard !logFilter.isEmpty else { return log.entries }
        let needle = logFilter.lowercased()
        return log.entries.filter { $0.summary.lowercased().contains(needle) }
    }

    /// Replaces the browser (the view keeps its scroll position in it; the
    /// host points it at another folder).
    public mutating func replaceBrowser(_ browser: BrowserModel) { self.browser = browser }


    mutating func moveInFocusedPane(_ action: KeyAction, snapshot: PlayerSnapshot) {
        switch focus {
        case .browser:
            guard var browser else { return }
            move(&browser.cursor, action, count: browser.visible.count)
            self.browser = browser
        case .queue: move(&queueCursor, action, count: visibleQueue(snapshot).count)
        case .alarms: move(&alarmsCursor, action, count: snapshot.alarms.count)
        case .eventLog:
            let count = visibleLog.count
            if logFollows { logCursor.select(count - 1, count: count) }
            move(&logCursor, action, count: count)
            logFollows = logCursor.selection >= count - 1
        case .books: move(&booksCursor, action, count: snapshot.books.count)
        case .chapters: move(&chaptersCursor, action, count: snapshot.book?.chapters.count ?? 0)
        case .bookmarks: move(&bookmarksCursor, action, count: snapshot.book?.bookmarks.count ?? 0)
        case .playlists: move(&playlistsCursor, action, count: snapshot.playlists.count)
        case .radio: move(&stationsCursor, action, count: snapshot.stations.count)
        case .podcasts:
            if let podcast = openedPodcast(snapshot) {
                move(&episodesCursor, action, count: podcast.episodes.count)
            } else {
                move(&podcastsCursor, action, count: snapshot.podcasts.count)
            }
        case .library:
            guard var library else { return }
            move(&library.cursor, action, count: library.rows.count)
            self.library = library
        case .lyrics:
            // Untimed lyrics scroll by their top row; timed ones follow the heard line.
            let count = lyricsPane.lyrics.map { $0.isSynced ? 0 : $0.texts.count } ?? 0
            move(&lyricsPane.cursor, action, count: max(1, count - pageSize))
        case .nowPlaying: break
        }
    }

    func move(_ cursor: inout ListCursor, _ action: KeyAction, count: Int) {
        switch action {
        case .up: cursor.move(by: -1, count: count)
        case .down: cursor.move(by: 1, count: count)
        case .pageUp: cursor.move(by: -max(1, pageSize), count: count)
        case .pageDown: cursor.move(by: max(1, pageSize), count: count)
        case .top: cursor.select(0, count: count)
        case .bottom: cursor.select(count - 1, count: count)
        default: break
        }
    }

    mutating func playSelection(snapshot: PlayerSnapshot, source: some BrowserSource) -> [InterfaceAction] {
        switch focus {
        case .browser:
            guard var browser, let entry = browser.selected else { return [] }
            if entry.isDirectory {
                browser.enter(entry, source: source)
                self.browser = browser
                return []
            }
            // In the books folder a file is a book's (its folder's, or its own when loose there), and an M4B is a book
            // anywhere: it opens as the book, at its place, never as music from 0:00.
            if let book = browser.book(containing: entry) { return [.player(.openBook(book))] }
            let files = browser.files
            let start = files.firstIndex { $0.path == entry.path } ?? 0
            return [.player(.playQueue(files.map(\.path), startAt: start))]
        case .queue:
            let rows = visibleQueue(snapshot)
            queueCursor.clamp(count: rows.count)
            guard rows.indices.contains(queueCursor.selection) else { return [] }
            let index = rows[queueCursor.selection].index
            if snapshot.bookPath != nil {
                // A book's files are its queue: enter keeps it the book (its chapters, its place, the books pane's
                // row), going to that file in it, or playing on from the place on the file that plays.
                if index == snapshot.currentIndex { return snapshot.state == .playing ? [] : [.player(.play)] }
                return [.player(.jump(toQueueIndex: index, play: true))]
            }
            return [.player(.playQueue(snapshot.queue.map(\.path), startAt: index))]
        case .alarms:
            alarmsCursor.clamp(count: snapshot.alarms.count)
            guard snapshot.alarms.indices.contains(alarmsCursor.selection) else { return [] }
            let alarm = snapshot.alarms[alarmsCursor.selection]
            ask(.alarmEdit(id: alarm.id), prefilled: alarm.schedule)
            return []
        case .books:
            booksCursor.clamp(count: snapshot.books.count)
            guard snapshot.books.indices.contains(booksCursor.selection) else { return [] }
            return [.player(.openBook(snapshot.books[booksCursor.selection].path))]
        case .chapters:
            let count = snapshot.book?.chapters.count ?? 0
            chaptersCursor.clamp(count: count)
            guard chaptersCursor.selection < count else { return [] }
            return [.player(.jumpToChapter(chaptersCursor.selection))]
        case .bookmarks:
            let marks = snapshot.book?.bookmarks ?? []
            bookmarksCursor.clamp(count: marks.count)
            guard marks.indices.contains(bookmarksCursor.selection) else { return [] }
            return [.player(.jumpToBookmark(id: marks[bookmarksCursor.selection].id))]
        case .playlists:
            playlistsCursor.clamp(count: snapshot.playlists.count)
            guard snapshot.playlists.indices.contains(playlistsCursor.selection) else { return [] }
            return [.player(.loadPlaylist(path: snapshot.playlists[playlistsCursor.selection].path))]
        case .radio:
            stationsCursor.clamp(count: snapshot.stations.count)
            guard snapshot.stations.indices.contains(stationsCursor.selection) else { return [] }
            return [.player(.playStation(.url(snapshot.stations[stationsCursor.selection].url)))]
        case .podcasts:
            // Enter opens a podcast's episodes; on an episode it plays it (its download, else streamed).
            if let podcast = openedPodcast(snapshot) {
                episodesCursor.clamp(count: podcast.episodes.count)
                guard podcast.episodes.indices.contains(episodesCursor.selection) else { return [] }
                return [.player(.playEpisode(podcast: podcast.id, episode: podcast.episodes[episodesCursor.selection].id))]
            }
            podcastsCursor.clamp(count: snapshot.podcasts.count)
            guard snapshot.podcasts.indices.contains(podcastsCursor.selection) else { return [] }
            openPodcast = snapshot.podcasts[podcastsCursor.selection].id
            episodesCursor = ListCursor()
            return []
        case .library:
            // Enter opens or closes an artist or album; on a track it plays
            // the track's album (the list, in the tracks view) from there.
            guard var library else { return [] }
            defer { self.library = library }
            if library.toggleSelected() { return [] }
            guard let context = library.playContext else { return [] }
            return [.player(.playQueue(context.paths, startAt: context.start))]
        default:
            return []
        }
    }

    /// `b`: the browser's selection (a folder of audio files or a file with chapters), or the books pane's.
    mutating func openSelectionAsBook(snapshot: PlayerSnapshot) -> [InterfaceAction] {
        switch focus {
        case .browser:
            guard let browser, let entry = browser.selected, entry.name != "..", !entry.isShortcut else { return [] }
            return [.player(.openBook(browser.book(containing: entry) ?? entry.path))]
        case .books:
            booksCursor.clamp(count: snapshot.books.count)
            guard snapshot.books.indices.contains(booksCursor.selection) else { return [] }
            return [.player(.openBook(snapshot.books[booksCursor.selection].path))]
        default:
            message = Message(text: "\(named(.bookOpen)) opens the browser's selection as a book "
                              + "(a folder of audio files or a file with chapters)", isError: false)
            return []
        }
    }

    /// `~`: the browser goes to the home folder (and the browser pane shows).
    mutating func browseHome(source: some BrowserSource) {
        guard var browser, let home = browser.home, !home.isEmpty else {
            message = Message(text: "no home folder (HOME is not set)", isError: false)
            return
        }
        browser.go(to: home, source: source)
        self.browser = browser
        focus(.browser)
    }

    mutating func addSelectionToQueue(source: some BrowserSource) -> [InterfaceAction] {
        if focus == .library, var library {
            // A track, an album or all of an artist's albums, in the tree's order
            // (an unopened artist's read now, in the whole library's tree).
            let paths = library.selectedTracks.map(\.path)
            self.library = library
            return paths.isEmpty ? [] : [.player(.enqueue(paths))]
        }
        guard focus == .browser, let entry = browser?.selected else {
            message = Message(text: "\(named(.queueAdd)) adds the browser's selection to the queue", isError: false)
            return []
        }
        if !entry.isDirectory { return [.player(.enqueue([entry.path]))] }
        guard entry.name != "..", !entry.isShortcut else { return [] }
        // The folder and every folder in it, as cmus adds one: in the order the browser lists them.
        let files = source.audioFiles(under: entry.path, limit: FolderWalk.limit)
        if files.isEmpty { message = Message(text: "no audio files in \(entry.name) or its folders", isError: false) }
        return files.isEmpty ? [] : [.player(.enqueue(files))]
    }
}
