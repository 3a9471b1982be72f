import LoopIO
import LibraryIO
import Core
import CCoverArt
import InterludeCore
import PlayerModel
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The cover art on the screen: how it is drawn (the config's `cover-art`,
/// else what the terminal answers), each pane's picture set before the frame
/// is drawn, and a graphics protocol's picture written after the refresh
/// over the cells the frame keeps blank for it.
extension Screen {
    /// A graphics protocol's picture as last written: its sequence and its top-left cell.
    struct GraphicsOverlay: Equatable {
        var bytes: [UInt8]
        var row: Int
        var column: Int
        var drawing: GraphicsProtocol
    }

    /// After the screen is taken, before the first frame: asks the terminal
    /// (unless the config forces a way) and makes the view that draws pictures.
    func openCoverArt(terminal: any ScreenTerminal) {
        let setting = settings.coverArt ?? .auto
        let colors = terminal.pictureColors
        var cell = (width: Int32(0), height: Int32(0))
        var cellPixels = interlude_cell_pixels(output, &cell.width, &cell.height) == 0 ? (Int(cell.width), Int(cell.height)) : (10, 20)
        let drawing: GraphicsProtocol
        if let forced = GraphicsProtocol(forced: setting, colors: colors) {
            drawing = forced
        } else {
            // A handed terminal is not waited for: the service's loop goes on, and the answers come among the keys.
            let replies = askTerminal(timeoutMilliseconds: terminal.device.isStandard ? 1000 : 0)
            // Keys typed meanwhile are keys, not answers (the first key, "9", was lost).
            let typed = replies.typedAhead
            terminal.giveBackInput(typed)
            inputGivenBack = !typed.isEmpty
            drawing = replies.choice(colors: colors)
            if let answered = replies.cellPixels { cellPixels = answered }
            if !replies.isComplete {
                // Too slow for the wait (a loaded machine, a slow link): the answers
                // still to come arrive among the keys, as reports, and decide then.
                awaitedReplies = AwaitedReplies(bytes: replies.bytes, colors: colors, cellPixels: cellPixels)
                terminal.expectsReports = true
            }
        }
        showCoverArt(drawing, colors: colors, cellPixels: cellPixels)
    }

    /// The start-up query's answers while DA1's has not come, with what the choice needs.
    struct AwaitedReplies {
        var bytes: [UInt8]
        let colors: PictureColorMode
        let cellPixels: (width: Int, height: Int)
    }

    /// A report the terminal sent after the start-up wait: the answers it
    /// completes choose the drawing as they would have at start (block
    /// symbols until then). Other reports are dropped.
    func takeTerminalReport(_ report: [UInt8]) {
        guard var awaited = awaitedReplies else { return }
        awaited.bytes = Array((awaited.bytes + report).suffix(TerminalGraphicsReplies.limit))
        let replies = TerminalGraphicsReplies(awaited.bytes)
        guard replies.isComplete else {
            awaitedReplies = awaited
            return
        }
        awaitedReplies = nil
        terminal.expectsReports = false
        let drawing = replies.choice(colors: awaited.colors)
        guard drawing != (coverArt?.drawing ?? .none) else { return }
        showCoverArt(drawing, colors: awaited.colors, cellPixels: replies.cellPixels ?? awaited.cellPixels)
        redraw.setNeedsDraw()
    }

    private func showCoverArt(_ drawing: GraphicsProtocol, colors: PictureColorMode, cellPixels: (width: Int, height: Int)) {
        guard drawing != .none else {
            coverArt = nil
            return
        }
        let view = CoverArtView(drawing: drawing, colors: colors, cellPixels: cellPixels)
        view.onChange = { [unowned self] in redraw.setNeedsDraw() }
        view.report = { [unowned self] line in events.error(line) }
        coverArt = view
    }

    /// Sends `TerminalGraphicsReplies.query` and reads the answers until
    /// DA1's has come, or the wait is over (a terminal that answers nothing).
    func askTerminal(timeoutMilliseconds: Int) -> TerminalGraphicsReplies {
        let query = TerminalGraphicsReplies.query
        guard writeAll(query) else { return TerminalGraphicsReplies([]) }
        var bytes: [UInt8] = []
        let deadline = Self.monotonicMilliseconds() + timeoutMilliseconds
        while bytes.count < TerminalGraphicsReplies.limit, !TerminalGraphicsReplies(bytes).isComplete {
            let left = deadline - Self.monotonicMilliseconds()
            guard left > 0 else { break }
            var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready == 1 else { break }
            var chunk = [UInt8](repeating: 0, count: 512)
            let count = read(input, &chunk, chunk.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return TerminalGraphicsReplies(bytes)
    }

    /// Each pane's picture for this arrangement (the now-playing pane's: the
    /// playing file's cover), and the graphics to write over it, if any.
    func updatePictures(_ arrangement: ScreenArrangement, core: any PlayerCore, playing: String?) -> GraphicsOverlay? {
        guard let coverArt else { return nil }
        ui.pictures = [:]
        guard !ui.showsHelp, let pane = arrangement.layout.panes[.nowPlaying],
              let area = ScreenRenderer.pictureArea(for: .nowPlaying, paneArea: pane),
              let path = playing, !path.contains("://") else { return nil }
        let pictures = core.snapshot(.tags(of: [path])).tags[path]?.pictures ?? []
        guard case .picture(let picture, let graphics) = coverArt.outcome(path: path, pictures: pictures,
                                                                         area: TerminalSize(columns: area.width, rows: area.height))
        else { return nil }
        ui.pictures[.nowPlaying] = picture
        return graphics.isEmpty ? nil : GraphicsOverlay(bytes: graphics, row: area.row, column: area.column, drawing: coverArt.drawing)
    }

    /// Presents the frame and writes a graphics picture after it: again
    /// whenever the screen was repainted whole; a picture that changes or
    /// goes first has the screen repainted (text cells over a sixel picture
    /// only replace the cells written; kitty's placements are deleted).
    func present(_ frame: Frame, overlay: GraphicsOverlay?, presenter: ScreenPresenter) {
        if let shown = shownOverlay, shown != overlay {
            if shown.drawing == .kitty { _ = writeAll(Array("\u{1B}_Ga=d,d=A\u{1B}\\".utf8)) }
            presenter.invalidate()
            shownOverlay = nil
        }
        let repaintsAll = presenter.repaintsAll
        let sent = presenter.present(frame)
        guard let overlay, presenter.deferred == nil, overlay != shownOverlay || (sent && repaintsAll) else { return }
        var bytes = Array("\u{1B}7\u{1B}[\(overlay.row + 1);\(overlay.column + 1)H".utf8)
        bytes += overlay.bytes
        bytes += Array("\u{1B}8".utf8)
        if writeAll(bytes) { shownOverlay = overlay }
    }

    @discardableResult
    private func writeAll(_ bytes: [UInt8]) -> Bool { terminal.writeRaw(bytes) }

    private static func monotonicMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}
