import MusicLibrary
import InterludeCore
import PlayerModel
import Themes

/// Builds the frame for the interface state and a player snapshot, after
/// `ScreenLayoutPass` has laid it out (the one step that moves scroll offsets
/// and the page size). Drawing itself is pure: the same arrangement, state and
/// snapshot give the same cells, so layout, alignment and the banner are
/// tested on frames without a terminal.
public struct ScreenRenderer {
    public var measure: @Sendable (Character) -> Int

    public init(measure: @escaping @Sendable (Character) -> Int = TextWidth.columns(of:)) {
        self.measure = measure
    }

    /// Lays the screen out for `size` (scrolling `state`'s lists) and draws it.
    /// `now` is event time (seconds since the player started), for the countdown.
    public func frame(size: TerminalSize, state: inout InterfaceState, snapshot: PlayerSnapshot, now: Double) -> Frame {
        let arrangement = ScreenLayoutPass().arrange(size: size, state: &state, snapshot: snapshot, now: now)
        return draw(arrangement, state: state, snapshot: snapshot)
    }

    /// The frame for an arrangement made by `ScreenLayoutPass` from this state.
    public func draw(_ arrangement: ScreenArrangement, state: InterfaceState, snapshot: PlayerSnapshot) -> Frame {
        let layout = arrangement.layout
        let size = layout.size
        var frame = Frame(size: size, measure: measure)
        let banner = arrangement.banner
        guard layout.mode != .tooSmall else {
            drawTooSmall(&frame, size: size)
            return frame
        }
        drawTitle(&frame, layout: layout, state: state, snapshot: snapshot)
        if let row = layout.bannerRow, let banner {
            let written = frame.write(" " + banner.message, row: row, column: 0, element: .banner)
            frame.writePadded(banner.countdown, row: row, column: written, width: size.columns - written,
                              element: .bannerCountdown)
        }
        if state.showsHelp {
            drawHelp(&frame, area: layout.body, state: state, rows: arrangement.visibleHelpRows ?? 0..<0)
        } else {
            if let row = layout.tabRow { drawTabs(&frame, row: row, focus: state.focus, book: snapshot.book != nil,
                                                             library: state.library != nil) }
            if let row = layout.summaryRow { drawSummary(&frame, row: row, snapshot: snapshot) }
            for separator in layout.separators {
                for row in separator.row..<(separator.row + separator.height) {
                    frame.write("│", row: row, column: separator.column, element: .paneBorder)
                }
            }
            for (pane, area) in layout.panes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                drawPane(pane, area: area, frame: &frame, state: state, snapshot: snapshot,
                         rows: arrangement.visibleRows[pane] ?? 0..<0)
            }
        }
        drawStatus(&frame, row: layout.statusRow, snapshot: snapshot, library: state.library?.status, bindings: state.bindings)
        drawCommandLine(&frame, row: layout.commandRow, state: state)
        return frame
    }

    // MARK: Frame rows

    private func drawTooSmall(_ frame: inout Frame, size: TerminalSize) {
        guard size.rows > 0, size.columns > 0 else { return }
        let lines = ["terminal too small", "\(size.columns)x\(size.rows), needs \(Layout.minimum.columns)x\(Layout.minimum.rows)",
                     "(still playing)"]
        let first = max(0, (size.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() where first + offset < size.rows {
            let text = frame.truncated(line, to: size.columns)
            let column = max(0, (size.columns - frame.width(of: text)) / 2)
            frame.write(text, row: first + offset, column: column, element: offset == 0 ? .errorText : .listRow)
        }
    }

    private func drawTitle(_ frame: inout Frame, layout: Layout, state: InterfaceState, snapshot: PlayerSnapshot) {
        let width = layout.size.columns
        // The podcasts' background work ("refreshing 12/50") shows whichever pane is focused.
        let right = (snapshot.podcastActivity.map { "podcasts: \($0)  " } ?? "") + "theme \(state.themeName) "
        frame.fill(row: layout.titleRow, column: 0, count: width, element: .titleBar)
        frame.write(" Interlude", row: layout.titleRow, column: 0, element: .titleBar)
        let rightWidth = frame.width(of: right)
        if width - rightWidth > 12 {
            frame.write(right, row: layout.titleRow, column: width - rightWidth, element: .titleBar)
        }
    }

    /// The tab row: the book panes (6-8) show while a book plays or one of
    /// them is focused (they are reachable by digit and Tab all the same).
    private func drawTabs(_ frame: inout Frame, row: Int, focus: Pane, book: Bool, library: Bool) {
        var column = 0
        frame.fill(row: row, column: 0, count: frame.size.columns, element: .paneTitleInactive)
        let bookPanes: [Pane] = [.books, .chapters, .bookmarks]
        // The library's tab (9) only when there is a library; the playlists' (0), the lyrics' (L), the radio's (R)
        // and the podcasts' (P) only while focused.
        let panes = Pane.allCases.filter {
            ($0 != .library || library || focus == .library) && (($0 != .playlists && $0 != .lyrics && $0 != .radio && $0 != .podcasts) || focus == $0)
        }
        let shown = book || bookPanes.contains(focus) ? panes : panes.filter { !bookPanes.contains($0) }
        let full = shown.map { "\($0.digit) \($0.shortTitle) " }.joined()
        // Too narrow for every name: the others by number only.
        let compact = frame.width(of: full) > frame.size.columns
        for pane in shown {
            let text = compact && pane != focus ? pane.digit : "\(pane.digit) \(pane.shortTitle)"
            let element: ThemeElement = pane == focus ? .paneTitleActive : .paneTitleInactive
            column += frame.write(text, row: row, column: column, element: element)
            column += frame.write(" ", row: row, column: column, element: .paneTitleInactive)
        }
    }

    private func drawSummary(_ frame: inout Frame, row: Int, snapshot: PlayerSnapshot) {
        let times = Self.timeText(snapshot)
        let timesWidth = frame.width(of: times)
        let titleWidth = frame.size.columns - timesWidth - 3
        let title = snapshot.title.isEmpty ? "(nothing playing)" : snapshot.title
        frame.writePadded(Self.stateSymbol(snapshot.state) + " " + frame.truncated(title, to: titleWidth),
                          row: row, column: 0, width: frame.size.columns - timesWidth - 1, element: .playingRow)
        frame.write(times, row: row, column: frame.size.columns - timesWidth, element: .secondaryText)
    }

    /// "vol 80%", or while muted "muted (vol 80%)": the volume unmuting returns to.
    static func volumeText(_ snapshot: PlayerSnapshot, word: String) -> String {
        if let level = snapshot.mutedFrom { return "muted (\(word) \(Int((level * 100).rounded()))%)" }
        return "\(word) \(Int((snapshot.volume * 100).rounded()))%"
    }

    private func drawStatus(_ frame: inout Frame, row: Int, snapshot: PlayerSnapshot, library: String?, bindings: KeyBindings) {
        var parts = [snapshot.state.rawValue, Self.volumeText(snapshot, word: "vol")]
        if let speed = snapshot.speed { parts.append(speed) }
        if let spoken = snapshot.spokenAudio {
            // Spoken audio's settings while on, and what trimming saved ("trim medium saved 1:23").
            if spoken.trimSilence != "off" { parts.append("trim \(spoken.trimSilence) " + spoken.savedLine) }
            if spoken.voiceBoost != "off" { parts.append("boost \(spoken.voiceBoost) LUFS") }
        }
        if snapshot.shuffle { parts.append("shuffle") }
        if let line = snapshot.timeShiftLine { parts.append(line) }
        if snapshot.repeatMode != "off" { parts.append("repeat \(snapshot.repeatMode)") }
        if let book = snapshot.book, let setting = book.sleepSetting {
            let left = book.sleepRemaining.map { Self.clock($0.rounded(.up)) } ?? "—"
            parts.append(setting == "end of chapter" ? "sleep at chapter end \(left)" : "sleep \(left)")
        }
        // The keys bound now ("z snooze, x dismiss"), so a rebound key is the one named.
        func hinted(_ text: String, _ hints: [(KeyAction, String)]) -> String {
            let named = hints.compactMap { action, word in bindings.keys(for: action).first.map { "\($0) \(word)" } }
            return named.isEmpty ? text : "\(text) (\(named.joined(separator: ", ")))"
        }
        if snapshot.alarmRinging { parts.append(hinted("alarm ringing", [(.alarmSnooze, "snooze"), (.alarmDismiss, "dismiss")])) }
        else if let next = snapshot.nextAlarm { parts.append(next) }
        if snapshot.sessionSuspended { parts.append(hinted("session suspended", [(.sessionSuspendToggle, "continues")])) }
        if snapshot.callActive { parts.append(hinted("call", [(.callToggle, "ends")])) }
        // The library's scan, whichever pane has the focus.
        if let library { parts.append("library " + library) }
        frame.writePadded(" " + parts.joined(separator: " · "), row: row, column: 0, width: frame.size.columns,
                          element: .statusLine)
    }

    private func drawCommandLine(_ frame: inout Frame, row: Int, state: InterfaceState) {
        if let prompt = state.prompt {
            drawPrompt(&frame, row: row, question: prompt.question, state: state)
        } else if let message = state.message {
            frame.writePadded(frame.truncated(message.text, to: frame.size.columns), row: row, column: 0,
                              width: frame.size.columns, element: message.isError ? .errorText : .commandLine)
        } else {
            frame.writePadded(Self.footer(state.bindings), row: row, column: 0, width: frame.size.columns,
                              element: .secondaryText)
        }
    }

    /// The prompt's line: the cursor is `_` at the end, else the character
    /// under it in reverse; a pre-filled value that typing replaces is shown
    /// selected (in reverse). A long line shows the part around the cursor.
    private func drawPrompt(_ frame: inout Frame, row: Int, question: String, state: InterfaceState) {
        let characters = Array(state.input)
        let cursor = min(max(0, state.inputCursor), characters.count)
        let under = cursor < characters.count ? String(characters[cursor]) : "_"
        let after = cursor + 1 < characters.count ? String(characters[(cursor + 1)...]) : ""
        var before = question + String(characters[..<cursor])
        let room = frame.size.columns - 1 - frame.width(of: under)
        while frame.width(of: before) > room, !before.isEmpty { before.removeFirst() }
        frame.writePadded("", row: row, column: 0, width: frame.size.columns, element: .commandLine)
        var column = 0
        if state.inputSelected, before.count >= characters.count {
            let plain = before.dropLast(cursor)
            column += frame.write(plain, row: row, column: column, element: .commandLine)
            column += frame.write(before.suffix(cursor), row: row, column: column, element: .selectedRowFocused)
        } else {
            column += frame.write(before, row: row, column: column, element: .commandLine)
        }
        column += frame.write(under, row: row, column: column, element: under == "_" ? .commandLine : .selectedRowFocused)
        frame.write(after, row: row, column: column, element: .commandLine)
    }

    // MARK: Panes

    private func drawPane(_ pane: Pane, area: Rect, frame: inout Frame, state: InterfaceState,
                          snapshot: PlayerSnapshot, rows: Range<Int>) {
        guard area.height > 0, area.width > 0 else { return }
        let focused = pane == state.focus
        var title = " \(pane.digit) \(pane.title)"
        switch pane {
        case .browser:
            if let browser = state.browser {
                title += ": " + browser.directory
                if !browser.filter.isEmpty { title += "  /" + browser.filter }
            }
        case .queue:
            title += " (\(snapshot.queue.count))"
            if !state.queueFilter.isEmpty { title += "  /" + state.queueFilter }
        case .eventLog:
            if !state.logFilter.isEmpty { title += "  /" + state.logFilter }
        case .books:
            title += " (\(snapshot.books.count))"
            if let spoken = snapshot.spokenAudio, spoken.bookTimeSaved != nil { title += "  " + spoken.savedLine }
        case .playlists:
            title += " (\(snapshot.playlists.count))"
        case .radio:
            title += " (\(snapshot.stations.count))"
        case .podcasts:
            if let podcast = state.openedPodcast(snapshot) {
                title += ": \(podcast.title) (\(podcast.episodes.count))"
            } else {
                title += " (\(snapshot.podcasts.count))"
            }
            if let activity = snapshot.podcastActivity { title += "  " + activity }
        case .chapters, .bookmarks:
            if let book = snapshot.book { title += ": " + book.title }
        case .lyrics:
            if let lyrics = state.lyricsPane.lyrics { title += " (\(lyrics.source)\(lyrics.isSynced ? ", timed" : ""))" }
        case .library:
            if let library = state.library {
                title += " (\(library.trackCount)\(library.isTruncated ? "+" : "") tracks"
                    + (library.view == .tracks ? ", by \(library.sort.column.rawValue)\(library.sort.descending ? " desc" : "")" : "") + ")"
                if !library.filter.isEmpty { title += "  /" + library.filter }
                if let status = library.status { title += "  " + status }
            }
        default: break
        }
        frame.writePadded(frame.truncated(title, to: area.width), row: area.row, column: area.column, width: area.width,
                          element: focused ? .paneTitleActive : .paneTitleInactive)
        let content = ScreenLayoutPass.content(of: area)
        guard content.height > 0 else { return }
        switch pane {
        case .browser: drawBrowser(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .queue: drawQueue(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .nowPlaying: drawNowPlaying(&frame, content, snapshot: snapshot, picture: state.pictures[.nowPlaying])
        case .alarms: drawAlarms(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .eventLog: drawLog(&frame, content, state: state, focused: focused, range: rows)
        case .books: drawBooks(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .chapters: drawChapters(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .bookmarks: drawBookmarks(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .playlists:
            drawRows(&frame, content, cursor: state.playlistsCursor, range: rows, focused: focused,
                     empty: "no playlists yet" + (state.bindings.name(of: .queueSave).map { ": \($0) saves the queue as one" } ?? "")
                         + (state.bindings.name(of: .playSelection).map { " (\($0) here plays it)" } ?? ""),
                     rows: snapshot.playlists.map { (text: $0.name, playing: false) })
        case .library: drawLibrary(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .lyrics: drawLyrics(&frame, content, state: state, snapshot: snapshot)
        case .radio: drawRadio(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        case .podcasts: drawPodcasts(&frame, content, state: state, focused: focused, snapshot: snapshot, range: rows)
        }
    }

    private func rowElement(selected: Bool, focused: Bool, playing: Bool, plain: ThemeElement) -> ThemeElement {
        switch (selected, playing) {
        case (true, true): .playingRowSelected
        case (true, false): focused ? .selectedRowFocused : .selectedRowUnfocused
        case (false, true): .playingRow
        case (false, false): plain
        }
    }

    private func blank(_ frame: inout Frame, _ area: Rect, from row: Int) {
        for line in row..<(area.row + area.height) {
            frame.fill(row: line, column: area.column, count: area.width, element: .listRow)
        }
    }

    private func drawBrowser(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                             snapshot: PlayerSnapshot, range: Range<Int>) {
        guard let browser = state.browser else {
            frame.writePadded(" no folder", row: area.row, column: area.column, width: area.width, element: .secondaryText)
            blank(&frame, area, from: area.row + 1)
            return
        }
        let rows = browser.visible
        let playing = snapshot.currentIndex.flatMap { snapshot.queue.indices.contains($0) ? snapshot.queue[$0].path : nil }
        var line = area.row
        if rows.isEmpty {
            let text = browser.problem ?? (browser.filter.isEmpty ? "no folders or audio files here" : "nothing matches")
            frame.writePadded(" " + frame.truncated(text, to: area.width - 1), row: line, column: area.column,
                              width: area.width, element: browser.problem == nil ? .secondaryText : .errorText)
            line += 1
        }
        for index in range {
            let entry = rows[index]
            let selected = index == browser.cursor.selection
            let element = rowElement(selected: selected, focused: focused, playing: entry.path == playing,
                                     plain: entry.isDirectory ? .directoryRow : .listRow)
            let text = entry.isDirectory ? entry.title + "/" : entry.title
            frame.writePadded(" " + frame.truncated(text, to: area.width - 2), row: line, column: area.column,
                              width: area.width, element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    private func drawLibrary(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                             snapshot: PlayerSnapshot, range: Range<Int>) {
        guard let library = state.library else {
            frame.writePadded(" no library", row: area.row, column: area.column, width: area.width, element: .secondaryText)
            blank(&frame, area, from: area.row + 1)
            return
        }
        let playing = snapshot.currentIndex.flatMap { snapshot.queue.indices.contains($0) ? snapshot.queue[$0].path : nil }
        var line = area.row
        if library.rows.isEmpty {
            let text = library.problem ?? (library.filter.isEmpty ? "no tracks indexed yet" : "nothing matches")
            frame.writePadded(" " + frame.truncated(text, to: area.width - 1), row: line, column: area.column,
                              width: area.width, element: library.problem == nil ? .secondaryText : .errorText)
            line += 1
        }
        for index in range where library.rows.indices.contains(index) {
            let selected = index == library.cursor.selection
            let text: String
            var isPlaying = false
            var plain = ThemeElement.listRow
            switch library.rows[index] {
            case .artist(let name, let albums, let tracks, let open):
                text = (open ? "▾ " : "▸ ") + name + "  (\(albums) album\(albums == 1 ? "" : "s"), \(tracks))"
                plain = .directoryRow
            case .album(_, let title, let year, let tracks, let open):
                text = "  " + (open ? "▾ " : "▸ ") + (year.map { "\($0) " } ?? "") + title + "  (\(tracks))"
                plain = .directoryRow
            case .track(let track):
                isPlaying = track.path == playing
                let number = track.trackNumber.map { $0 < 10 ? "0\($0) " : "\($0) " } ?? ""
                let duration = track.durationSeconds.map { "  " + Self.clock($0) } ?? ""
                if library.view == .tree {
                    text = "      " + number + track.displayTitle + duration
                } else {
                    let artist = track.artist ?? track.albumArtist ?? "?"
                    text = " " + track.displayTitle + " · " + artist + " · " + (track.album ?? "")
                        + (track.year.map { " (\($0))" } ?? "") + duration
                }
            }
            let element = rowElement(selected: selected, focused: focused, playing: isPlaying, plain: plain)
            frame.writePadded(" " + frame.truncated(text, to: area.width - 2), row: line, column: area.column,
                              width: area.width, element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    private func drawQueue(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                           snapshot: PlayerSnapshot, range: Range<Int>) {
        let rows = state.visibleQueue(snapshot)
        var line = area.row
        if rows.isEmpty {
            let adding = [KeyAction.playSelection, .queueAdd].compactMap(state.bindings.name(of:))
            let text = !snapshot.queue.isEmpty ? "nothing matches"
                : "empty" + (adding.isEmpty ? "" : ": \(adding.joined(separator: " or ")) in the browser adds files")
            frame.writePadded(" " + frame.truncated(text, to: area.width - 1), row: line, column: area.column,
                              width: area.width, element: .secondaryText)
            line += 1
        }
        let numberWidth = String(snapshot.queue.count).count
        let marked = state.queueMarkedRange(snapshot)
        for index in range {
            let (queueIndex, entry) = rows[index]
            let selected = index == state.queueCursor.selection
            let element = rowElement(selected: selected, focused: focused, playing: queueIndex == snapshot.currentIndex,
                                     plain: .listRow)
            var number = String(queueIndex + 1)
            while number.count < numberWidth { number = " " + number }
            let marker = queueIndex == snapshot.currentIndex ? Self.stateSymbol(snapshot.state) : " "
            // A marked entry's row begins with "*" (the queue pane's edits take it).
            let prefix = (marked?.contains(queueIndex) == true ? "*" : " ") + "\(number) \(marker) "
            frame.writePadded(prefix + frame.truncated(entry.title, to: area.width - frame.width(of: prefix)),
                              row: line, column: area.column, width: area.width, element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    /// Where the picture of a pane laid out at `area` goes (the cells the
    /// cover art is asked for), or nil.
    public static func pictureArea(for pane: Pane, paneArea area: Rect) -> Rect? {
        pictureArea(for: pane, content: ScreenLayoutPass.content(of: area))
    }

    /// Where a pane's picture goes in its content (`ScreenLayoutPass.content`):
    /// below the now-playing pane's four lines when it is tall (one row
    /// between, a column of margin each side), else at its right; at the right
    /// third of the books pane. nil where no picture fits (fewer than 2 rows or 4 columns).
    static func pictureArea(for pane: Pane, content: Rect) -> Rect? {
        let area: Rect
        switch pane {
        case .nowPlaying where content.height >= 8:
            area = Rect(row: content.row + 5, column: content.column + 1, width: content.width - 2, height: content.height - 5)
        case .nowPlaying:
            let width = min(content.height * 2, content.width / 4)
            area = Rect(row: content.row, column: content.column + content.width - width - 1, width: width, height: content.height)
        case .books where content.width >= 40:
            let width = content.width / 3
            area = Rect(row: content.row, column: content.column + content.width - width - 1, width: width, height: content.height)
        default: return nil
        }
        return area.width >= 4 && area.height >= 2 ? area : nil
    }

    /// The area a pane's picture is placed in, when it has one made for this
    /// size (a picture for another size waits for the one made for this size).
    private static func placedArea(pane: Pane, content: Rect, picture: PanePicture?) -> Rect? {
        guard let picture, let area = pictureArea(for: pane, content: content),
              picture.size.columns <= area.width, picture.size.rows <= area.height else { return nil }
        return area
    }

    /// Blanks the picture's area with a column of margin each side and places its cells.
    private func place(_ picture: PanePicture, in area: Rect, frame: inout Frame) {
        for row in area.row..<(area.row + area.height) {
            frame.fill(row: row, column: area.column - 1, count: area.width + 2, element: .listRow)
        }
        if case .symbols(let cells) = picture { frame.place(cells, row: area.row, column: area.column) }
    }

    /// The text's part of a pane's content beside or above its picture.
    private static func textArea(content: Rect, picture area: Rect?) -> Rect {
        guard let area else { return content }
        var text = content
        if area.row == content.row { text.width = area.column - content.column - 1 } else { text.height = area.row - content.row }
        return text
    }

    private func drawNowPlaying(_ frame: inout Frame, _ content: Rect, snapshot: PlayerSnapshot, picture: PanePicture?) {
        let pictureArea = Self.placedArea(pane: .nowPlaying, content: content, picture: picture)
        let area = Self.textArea(content: content, picture: pictureArea)
        let width = area.width
        var lines: [(String, ThemeElement)] = []
        if snapshot.title.isEmpty {
            lines.append((" nothing playing", .secondaryText))
        } else {
            lines.append((" " + frame.truncated(snapshot.title, to: width - 2), .playingRow))
            let byline = [snapshot.artist, snapshot.album].filter { !$0.isEmpty }.joined(separator: " — ")
            lines.append((" " + frame.truncated(byline, to: width - 2), .secondaryText))
        }
        var row = area.row
        let end = area.row + area.height
        // The progress bar goes on the third row, or the last one in a small pane.
        let progressRow = min(area.row + 2, end - 1)
        for (text, element) in lines where row < progressRow || (row < end && area.height == 1) {
            frame.writePadded(text, row: row, column: area.column, width: width, element: element)
            row += 1
        }
        blank(&frame, Rect(row: row, column: area.column, width: width, height: max(0, progressRow - row)), from: row)
        if progressRow >= area.row {
            drawProgress(&frame, row: progressRow, column: area.column, width: width, snapshot: snapshot)
            row = progressRow + 1
        }
        if row < end {
            let state = " \(Self.stateSymbol(snapshot.state)) \(snapshot.state.rawValue) · \(Self.volumeText(snapshot, word: "volume"))"
            frame.writePadded(state, row: row, column: area.column, width: width, element: .listRow)
            row += 1
        }
        blank(&frame, area, from: row)
        if let picture, let pictureArea { place(picture, in: pictureArea, frame: &frame) }
    }

    private func drawProgress(_ frame: inout Frame, row: Int, column: Int, width: Int, snapshot: PlayerSnapshot) {
        let times = " " + Self.timeText(snapshot) + " "
        let written = frame.write(times, row: row, column: column, limit: width, element: .listRow)
        let barWidth = width - written - 1
        guard barWidth > 0 else {
            frame.fill(row: row, column: column + written, count: width - written, element: .listRow)
            return
        }
        var filled = 0
        if let duration = snapshot.duration, duration > 0 {
            filled = min(barWidth, Int(Double(barWidth) * snapshot.elapsed / duration))
        }
        frame.write(String(repeating: "=", count: filled), row: row, column: column + written, element: .progressFilled)
        frame.write(String(repeating: "-", count: barWidth - filled), row: row, column: column + written + filled,
                    element: .progressEmpty)
        frame.fill(row: row, column: column + width - 1, count: 1, element: .listRow)
    }

    private func drawAlarms(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                            snapshot: PlayerSnapshot, range: Range<Int>) {
        let rows = snapshot.alarms
        var line = area.row
        if rows.isEmpty {
            let ways = [(KeyAction.alarmNew, "adds one"), (.alarmAsk, "asks for seconds")].compactMap { action, does in
                state.bindings.name(of: action).map { "\($0) \(does)" }
            }
            let text = "no alarms" + (ways.isEmpty ? "" : ": " + ways.joined(separator: ", "))
            frame.writePadded(" " + frame.truncated(text, to: area.width - 1),
                              row: line, column: area.column, width: area.width, element: .secondaryText)
            line += 1
        }
        for index in range {
            let alarm = rows[index]
            let selected = index == state.alarmsCursor.selection
            let plain: ThemeElement = alarm.isEnabled ? .alarmEnabled : .alarmDisabled
            let element = rowElement(selected: selected, focused: focused, playing: false, plain: plain)
            let flag = alarm.isRinging ? "RING" : alarm.isEnabled ? "on  " : "off "
            let when = alarm.nextFire.isEmpty ? "—" : alarm.nextFire
            let text = " #\(alarm.id) \(flag) \(when)  \(alarm.label)" + (alarm.note.isEmpty ? "" : "  (\(alarm.note))")
                + (alarm.wake.isEmpty ? "" : "  · \(alarm.wake)")
            frame.writePadded(frame.truncated(text, to: area.width), row: line, column: area.column, width: area.width,
                              element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    /// A list pane: one line of text per row, an empty-list note, the selection.
    func drawRows(_ frame: inout Frame, _ area: Rect, cursor: ListCursor, range: Range<Int>, focused: Bool,
                          empty: String, rows: [(text: String, playing: Bool)]) {
        var line = area.row
        if rows.isEmpty {
            frame.writePadded(" " + frame.truncated(empty, to: area.width - 1), row: line, column: area.column,
                              width: area.width, element: .secondaryText)
            line += 1
        }
        for index in range {
            let element = rowElement(selected: index == cursor.selection, focused: focused, playing: rows[index].playing,
                                     plain: .listRow)
            frame.writePadded(frame.truncated(rows[index].text, to: area.width), row: line, column: area.column,
                              width: area.width, element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    private func drawBooks(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                           snapshot: PlayerSnapshot, range: Range<Int>) {
        let rows = snapshot.books.map { book in
            (text: BookPaneText.bookRow(book, width: area.width, frame: frame), playing: book.isCurrent)
        }
        drawRows(&frame, area, cursor: state.booksCursor, range: range, focused: focused,
                 empty: "no books yet" + (state.bindings.name(of: .bookOpen).map { ": \($0) on a book folder in the browser opens one" }
                     ?? ""), rows: rows)
    }

    private func drawChapters(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                              snapshot: PlayerSnapshot, range: Range<Int>) {
        let chapters = snapshot.book?.chapters ?? []
        let rows = chapters.enumerated().map { index, chapter in
            (text: BookPaneText.chapterRow(chapter, number: index + 1, count: chapters.count,
                                           isCurrent: index == snapshot.book?.currentChapter, width: area.width,
                                           frame: frame),
             playing: index == snapshot.book?.currentChapter)
        }
        drawRows(&frame, area, cursor: state.chaptersCursor, range: range, focused: focused,
                 empty: "no book playing", rows: rows)
    }

    private func drawBookmarks(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool,
                               snapshot: PlayerSnapshot, range: Range<Int>) {
        let rows = (snapshot.book?.bookmarks ?? []).map { mark in
            (text: BookPaneText.bookmarkRow(mark), playing: false)
        }
        drawRows(&frame, area, cursor: state.bookmarksCursor, range: range, focused: focused,
                 empty: snapshot.book == nil ? "no book playing" : "no bookmarks: m adds one", rows: rows)
    }

    /// Each event whole: a line wider than the pane wraps (at spaces between
    /// fields where it can) under the text after the time, since the field at
    /// the end of an interruption, `wasSuspended`, is the one that matters.
    /// The selected entry (the newest while following) stays in view whole;
    /// entries above it give way when wrapped lines need the rows.
    private func drawLog(_ frame: inout Frame, _ area: Rect, state: InterfaceState, focused: Bool, range: Range<Int>) {
        let entries = state.visibleLog
        struct Row { let index: Int; let time: String?; let text: String }
        var rows: [Row] = []
        var selectedLastRow: Int?
        for index in range {
            let event = entries[index]
            let time = " " + LoggedEvent.fixed(event.time, decimals: 3) + " "
            let available = max(1, area.width - frame.width(of: time))
            for (part, text) in Self.wrapped(event.summary, width: available, frame: frame).enumerated() {
                rows.append(Row(index: index, time: part == 0 ? time : nil, text: text))
            }
            if index == state.logCursor.selection { selectedLastRow = rows.count - 1 }
        }
        let first = max(0, (selectedLastRow ?? rows.count - 1) - area.height + 1)
        var line = area.row
        for row in rows[first...].prefix(area.height) {
            let event = entries[row.index]
            let selected = focused && !state.logFollows && row.index == state.logCursor.selection
            let time = row.time ?? String(repeating: " ", count: frame.width(of: " " + LoggedEvent.fixed(event.time, decimals: 3) + " "))
            let timeWidth = frame.write(time, row: line, column: area.column, limit: area.width,
                                        element: selected ? .selectedRowFocused : .secondaryText)
            let element: ThemeElement
            if selected {
                element = .selectedRowFocused
            } else {
                switch EventLog.kind(of: event) {
                case .began: element = .logBegan
                case .ended: element = .logEnded
                case .error: element = .errorText
                case .action: element = .logAction
                }
            }
            let available = area.width - timeWidth
            frame.writePadded(row.text, row: line, column: area.column + timeWidth, width: available, element: element)
            line += 1
        }
        blank(&frame, area, from: line)
    }

    /// `text` in lines of at most `width` columns, broken after a space where
    /// one falls in the line, else mid-word.
    static func wrapped(_ text: String, width: Int, frame: Frame) -> [String] {
        guard frame.width(of: text) > width else { return [text] }
        var lines: [String] = []
        var current = ""
        var used = 0
        for character in text {
            let characterWidth = frame.width(of: String(character))
            if used + characterWidth > width, !current.isEmpty {
                if let space = current.lastIndex(of: " "), space != current.startIndex,
                   frame.width(of: current[current.index(after: space)...]) + characterWidth <= width {
                    let rest = String(current[current.index(after: space)...])
                    lines.append(String(current[...space]))
                    current = rest
                } else {
                    lines.append(current)
                    current = ""
                }
                used = frame.width(of: current)
            }
            current.append(character)
            used += characterWidth
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The command line's line when it has nothing to say: "? help · tab/0-9
    /// panes · q leave · Q quit" with the keys bound now (0-9 while the ten pane keys
    /// are the digits); what is unbound is left out.
    static func footer(_ bindings: KeyBindings) -> String {
        let panes: [KeyAction] = [.pane0, .pane1, .pane2, .pane3, .pane4, .pane5, .pane6, .pane7, .pane8, .pane9]
        let digits = panes.enumerated().allSatisfy { bindings.keys(for: $0.element).contains(.character(Character("\($0.offset)"))) }
        let paneKeys = [bindings.name(of: .nextPane), digits ? "0-9" : nil].compactMap { $0 }
        return [bindings.name(of: .help).map { "\($0) help" }, paneKeys.isEmpty ? nil : paneKeys.joined(separator: "/") + " panes",
                bindings.name(of: .leave).map { "\($0) leave" }, bindings.name(of: .quit).map { "\($0) quit" }].compactMap { $0 }.joined(separator: " · ")
    }

    /// The help screen's rows: a heading per section, then a row per action.
    static func helpRows(for bindings: KeyBindings) -> [(keys: String, name: String, summary: String, heading: Bool)] {
        var rows: [(keys: String, name: String, summary: String, heading: Bool)] = []
        for section in KeyHelp.sections(for: bindings) {
            if !rows.isEmpty { rows.append(("", "", "", false)) }
            rows.append((section.section.rawValue, "", "", true))
            for entry in section.entries {
                let keys = entry.keys.isEmpty ? KeyHelp.unboundMarker : entry.keys.map(\.description).joined(separator: " ")
                rows.append((keys, entry.action.rawValue, entry.action.summary, false))
            }
        }
        return rows
    }

    private func drawHelp(_ frame: inout Frame, area: Rect, state: InterfaceState, rows range: Range<Int>) {
        let rows = Self.helpRows(for: state.bindings)
        let keyWidth = rows.filter { !$0.heading }.map { frame.width(of: $0.keys) }.max() ?? 0
        let nameWidth = rows.map { frame.width(of: $0.name) }.max() ?? 0
        frame.writePadded(" Keys (? or q closes; up/down scroll)", row: area.row, column: 0, width: area.width,
                          element: .paneTitleActive)
        let content = ScreenLayoutPass.helpContent(of: area)
        var line = content.row
        for index in range {
            let row = rows[index]
            if row.heading {
                frame.writePadded(" " + row.keys, row: line, column: 0, width: area.width, element: .helpHeading)
            } else {
                var column = frame.write("  ", row: line, column: 0, element: .helpText)
                let keys = frame.truncated(row.keys, to: keyWidth)
                frame.writePadded(keys, row: line, column: column, width: min(keyWidth, area.width - column), element: .helpKey)
                column = min(area.width, column + keyWidth)
                column += frame.write("  ", row: line, column: column, element: .helpText)
                if column < area.width {
                    frame.writePadded(row.name, row: line, column: column, width: min(nameWidth, area.width - column),
                                      element: .secondaryText)
                    column = min(area.width, column + nameWidth)
                }
                if column < area.width {
                    frame.writePadded("  " + row.summary, row: line, column: column, width: area.width - column,
                                      element: .helpText)
                }
            }
            line += 1
        }
        blank(&frame, content, from: line)
    }

    // MARK: Text

    static func stateSymbol(_ state: PlayerSnapshot.State) -> String {
        switch state {
        case .playing: "▶"
        case .paused, .interrupted: "‖"
        case .stopped: "■"
        }
    }

    static func timeText(_ snapshot: PlayerSnapshot) -> String {
        "\(clock(snapshot.elapsed)) / \(snapshot.duration.map(clock) ?? "-:--")"
    }

    /// m:ss or h:mm:ss.
    static func clock(_ seconds: Double) -> String { clockText(seconds) }
}
