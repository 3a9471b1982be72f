import PlayerModel

/// Key dispatch: each bound action either changes the interface (focus,
/// lists, prompts, help) or becomes a player command.
extension InterfaceState {
    /// Handles one key press; returns what the player should do. A bound
    /// key is one look-up in the bindings' table; the snapshot is taken only
    /// by the actions that read it (a plain command such as play-pause does not).
    public mutating func handle(_ key: Key, snapshot: @autoclosure () -> PlayerSnapshot,
                                source: some BrowserSource) -> [InterfaceAction] {
        if let prompt { return handlePromptKey(key, prompt: prompt, snapshot: snapshot()) }
        guard let binding = bindings.table[key] else {
            if showsHelp, key == .named(.escape) { showsHelp = false }
            return []
        }
        // Delete acts on the pane it is pressed in: the queue's selection there (the log says so too).
        let action = binding.action == .bookmarkDelete && focus == .queue ? KeyAction.queueRemove : binding.action
        if showsHelp {
            switch action {
            case .help, .quit, .leave: showsHelp = false; return []
            case .up, .down, .pageUp, .pageDown, .top, .bottom:
                move(&helpCursor, action, count: KeyHelp.lines(for: bindings).count)
                return []
            default: break
            }
        }
        logKey(action)
        switch action {
        case .playSelection: return playSelection(snapshot: snapshot(), source: source)
        case .queueAdd: return addSelectionToQueue(source: source)
        case .queueSave:
            ask(.playlistName)
            return []
        case .seekTo:
            ask(.seekTime)
            return []
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            moveInFocusedPane(action, snapshot: snapshot())
            return []
        case .queueRemove, .queueMoveUp, .queueMoveDown, .queueMark:
            return editQueue(action, snapshot: snapshot())
        case .nextPane:
            // Without a library, Tab goes round the other panes.
            let next = focus.next == .library && library == nil ? Pane.library.next : focus.next
            focus(next, snapshot: snapshot())
            return []
        case .pane1: focus(.browser); return []
        case .browserHome: browseHome(source: source); return []
        case .pane2: focus(.queue); return []
        case .pane3: focus(.nowPlaying); return []
        case .pane4: focus(.alarms); return []
        case .pane5: focus(.eventLog); return []
        case .pane6: focus(.books); return []
        case .pane7: focus(.chapters, snapshot: snapshot()); return []
        case .pane8: focus(.bookmarks); return []
        case .pane0: focus(.playlists); return []
        case .lyrics: focus(.lyrics); return []
        case .radio: focus(.radio); return []
        case .podcasts:
            // Pressed again in the pane's episodes: back to the podcasts.
            if focus == .podcasts, openPodcast != nil { openPodcast = nil } else { focus(.podcasts) }
            return []
        case .podcastDownload, .podcastMark:
            guard let (podcast, episode) = selectedEpisode(snapshot()) else { return [] }
            if action == .podcastDownload { return [.player(.downloadEpisode(podcast: podcast.id, episode: episode.id))] }
            return [.player(.markEpisode(podcast: podcast.id, episode: episode.id, played: !episode.played))]
        case .stationAddURL:
            ask(.stationURL)
            return []
        case .podcastAdd:
            ask(.podcastURL)
            return []
        case .podcastImport:
            ask(.opmlPath)
            return []
        case .podcastRemove:
            guard let podcast = selectedPodcast(snapshot()) else { return [] }
            ask(.podcastRemoval(id: podcast.id, title: podcast.title))
            return []
        case .stationRename, .stationRemove:
            guard let station = selected(snapshot().stations, in: .radio, cursor: \.stationsCursor, what: "a station",
                                         none: "no stations" + (bindings.name(of: .stationAdd).map { "; \($0) adds the stream playing" } ?? ""))
            else { return [] }
            if action == .stationRemove { return [.player(.removeStation(.url(station.url)))] }
            ask(.stationName(url: station.url), prefilled: station.name)
            return []
        case .pane9:
            guard library != nil else {
                message = Message(text: "no music library (library = FOLDER in the config file)", isError: false)
                return []
            }
            focus(.library)
            return []
        case .libraryView, .librarySort:
            guard focus == .library, var library else {
                message = Message(text: "\(named(.libraryView)) and \(named(.librarySort)) change the library pane's view"
                                  + inParentheses(.pane9), isError: false)
                return []
            }
            if action == .libraryView { library.toggleView() } else { library.cycleSort() }
            self.library = library
            return []
        case .filter:
            switch focus {
            case .browser, .queue, .eventLog, .library:
                ask(.filter(focus), prefilled: currentFilter(focus))
            default:
                message = Message(text: "\(named(.filter)) filters the browser, the queue, the event log or the library",
                                  isError: false)
            }
            return []
        case .chapterNext, .chapterPrevious, .sleepTimer, .skipBack, .skipForward, .bookmarkAdd, .bookmarkDelete:
            guard let book = snapshot().book else {
                let ways = [bindings.name(of: .bookOpen).map { "\($0) on a book folder in the browser" },
                            bindings.name(of: .playSelection).map { "\($0) in the books pane" }].compactMap { $0 }
                let opens = ways.isEmpty ? "" : " (\(ways.joined(separator: ", or ")), opens one)"
                message = Message(text: "\(action.rawValue): no book is playing" + opens, isError: false)
                return []
            }
            switch action {
            case .chapterNext, .chapterPrevious, .sleepTimer, .skipBack, .skipForward:
                return binding.command.map { [.player($0)] } ?? []
            case .bookmarkAdd:
                ask(.bookmarkNote)
                return []
            default:
                guard focus == .bookmarks else {
                    message = Message(text: "select a bookmark in the bookmarks pane\(inParentheses(.pane8)) first", isError: false)
                    return []
                }
                bookmarksCursor.clamp(count: book.bookmarks.count)
                guard book.bookmarks.indices.contains(bookmarksCursor.selection) else { return [] }
                return [.player(.deleteBookmark(id: book.bookmarks[bookmarksCursor.selection].id))]
            }
        case .bookOpen: return openSelectionAsBook(snapshot: snapshot())
        case .alarmNew:
            ask(.alarmNew)
            return []
        case .alarmEdit, .alarmToggle, .alarmDelete:
            guard let alarm = selected(snapshot().alarms, in: .alarms, cursor: \.alarmsCursor, what: "an alarm",
                                       none: "no alarms" + (bindings.name(of: .alarmNew).map { "; \($0) adds one" } ?? ""))
            else { return [] }
            switch action {
            case .alarmEdit:
                ask(.alarmEdit(id: alarm.id), prefilled: alarm.schedule)
                return []
            case .alarmToggle: return [.player(.setAlarmEnabled(id: alarm.id, !alarm.isEnabled))]
            default: return [.player(.deleteAlarm(id: alarm.id))]
            }
        case .alarmAsk:
            ask(.alarmSeconds)
            return []
        case .help:
            showsHelp = true
            helpCursor = ListCursor()
            return []
        case .themeCycle: return [.cycleTheme]
        case .leave: return [.leave]
        default:
            // Every other key row: the table's reading of a command without
            // arguments (as standard input's and the socket's), stored in the
            // binding when the key was bound. A new plain command needs nothing here.
            return binding.command.map { [.player($0)] } ?? []
        }
    }

    /// The row a pane's key acts on: `pane`'s selection among `rows`; else,
    /// when another pane is focused or `rows` is empty, a message saying so and nil.
    mutating func selected<Row>(_ rows: [Row], in pane: Pane, cursor: WritableKeyPath<InterfaceState, ListCursor>,
                                what: String, none: String) -> Row? {
        guard focus == pane else {
            let key = pane == .alarms ? inParentheses(.pane4) : pane == .radio ? inParentheses(.radio) : ""
            message = Message(text: "select \(what) in the \(pane.title.lowercased()) pane\(key) first", isError: false)
            return nil
        }
        self[keyPath: cursor].clamp(count: rows.count)
        guard rows.indices.contains(self[keyPath: cursor].selection) else {
            message = Message(text: none, isError: false)
            return nil
        }
        return rows[self[keyPath: cursor].selection]
    }

    /// The podcasts pane's selected episode, with its podcast; else a message saying what to select and nil.
    mutating func selectedEpisode(_ snapshot: PlayerSnapshot) -> (PodcastRow, EpisodeRow)? {
        let pane = inParentheses(.podcasts)
        guard focus == .podcasts, let id = openPodcast, let podcast = snapshot.podcasts.first(where: { $0.id == id }) else {
            message = Message(text: "select an episode in the podcasts pane\(pane) first (enter opens a podcast)", isError: false)
            return nil
        }
        episodesCursor.clamp(count: podcast.episodes.count)
        guard podcast.episodes.indices.contains(episodesCursor.selection) else {
            message = Message(text: "\(podcast.title) has no episodes" + (bindings.name(of: .podcastRefresh).map { "; \($0) refreshes" } ?? ""),
                              isError: false)
            return nil
        }
        return (podcast, podcast.episodes[episodesCursor.selection])
    }

    /// The podcasts pane's podcast: the one whose episodes it shows, else its list's selection.
    mutating func selectedPodcast(_ snapshot: PlayerSnapshot) -> PodcastRow? {
        if focus == .podcasts, let opened = openedPodcast(snapshot) { return opened }
        return selected(snapshot.podcasts, in: .podcasts, cursor: \.podcastsCursor, what: "a podcast",
                        none: "no podcasts" + (bindings.name(of: .podcastAdd).map { "; \($0) subscribes to a feed" } ?? ""))
    }

    /// The podcast the pane shows the episodes of, if it is still subscribed.
    func openedPodcast(_ snapshot: PlayerSnapshot) -> PodcastRow? {
        openPodcast.flatMap { id in snapshot.podcasts.first { $0.id == id } }
    }

    /// A refusal as the screen words it: with the keys bound now (the first
    /// of each command's keys), so a rebound key is named by its new key.
    public func sentence(for reason: Refusal) -> String {
        reason.sentence { name in KeyAction(rawValue: name).flatMap(bindings.name(of:)) }
    }

    /// The key bound to `action` now, or its name (as the keys file and `?` write it) when none is.
    func named(_ action: KeyAction) -> String { bindings.name(of: action) ?? action.rawValue }

    /// " (4)": the key bound to a pane now, or nothing when none is.
    func inParentheses(_ action: KeyAction) -> String { bindings.name(of: action).map { " (\($0))" } ?? "" }


    mutating func logKey(_ action: KeyAction) {
        switch action {
        case .up, .down, .pageUp, .pageDown, .top, .bottom, .nextPane, .pane1, .pane2, .pane3, .pane4, .pane5, .pane6,
             .pane7, .pane8, .pane9, .pane0, .lyrics, .radio, .podcasts, .libraryView, .librarySort, .help, .browserHome, .queueMark:
            return  // Moving around is not a player action.
        default:
            log.append(LoggedEvent(time: now, key: action))
        }
    }
}
