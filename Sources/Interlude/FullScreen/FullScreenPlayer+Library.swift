import LoopIO
import LibraryIO
import TUI

/// The library pane (9): the index of the library folders, scanned on its own
/// thread from start-up, searched on every key of the pane's filter, rescanned
/// when inotify reports a change.
extension FullScreenPlayer {
    /// Called after the first frame (`afterIteration`), as the scan starts
    /// then: the index's open reads every page of its tracks (60 ms at
    /// 100,000 on an idle machine), which the first frame does not show.
    func openLibrary() {
        let settings = LibrarySettings.load(environment: ProcessEnvironment.current(), config: self.settings)
        guard !settings.folders.isEmpty else { return }
        let live: LibraryLiveIndex
        do {
            live = try LibraryLiveIndex(settings: settings, report: { [events] in events.error($0) })
        } catch {
            events.error(error.description)
            return
        }
        live.onChange = { [unowned self] status, rowsChanged in
            for screen in screens {
                guard var pane = screen.ui.library else { continue }
                pane.status = status
                // A pane not shown yet reads its rows when it shows.
                if rowsChanged, pane.isLoaded { pane.reload() }
                screen.ui.library = pane
                screen.redraw.setNeedsDraw()
            }
        }
        services?.library = live
        for screen in screens {
            screen.ui.library = LibraryPaneModel(source: live, loaded: false)
            // The library's tab (9) shows from now.
            screen.redraw.setNeedsDraw()
        }
    }
}
