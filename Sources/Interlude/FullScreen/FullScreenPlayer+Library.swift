import LoopIO
import LibraryIO
import TUI

/// The library pane (9): the index of the library folders, scanned on its own
/// thread from start-up, searched on every key of the pane's filter, rescanned
/// when inotify reports a change.
extension FullScreenPlayer {
    func openLibrary() {
        let settings = LibrarySettings.load(environment: ProcessEnvironment.current(), config: self.settings)
        guard !settings.folders.isEmpty else { return }
        // What the index says as it opens is done by the player itself, a notice, gone from the status
        // line once the index is built; the library's problems are errors. It opens after the first
        // frame (`LibraryLiveIndex.openedIndex`).
        var openingNotices: [String] = []
        let live = LibraryLiveIndex(settings: settings, report: { [events] in events.error($0) }, notice: { [events] line in
            openingNotices.append(line)
            events.notice(line)
        })
        live.onChange = { [unowned self] status, rowsChanged in
            for screen in screens {
                // The index built, its notice is dealt with: gone from the status line.
                if status == nil, let shown = screen.ui.message, !shown.isError, openingNotices.contains(shown.text) {
                    screen.ui.message = nil
                }
                guard var pane = screen.ui.library else { continue }
                pane.status = status
                // A pane not shown yet reads its rows when it shows.
                if rowsChanged, pane.isLoaded { pane.reload() }
                screen.ui.library = pane
                screen.redraw.setNeedsDraw()
            }
        }
        services?.library = live
        // The rows are read when the pane first shows.
        for screen in screens { screen.ui.library = LibraryPaneModel(source: live, loaded: false) }
        // The index opens and the scan starts after the first frame (`afterIteration`): the screen
        // comes first, and a rescan of 100,000 files needs the CPU for a second.
    }
}
