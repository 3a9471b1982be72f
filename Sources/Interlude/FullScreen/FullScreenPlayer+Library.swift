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
        let live: LibraryLiveIndex
        // What the index says as it opens (built anew: none yet, damaged, another layout) is done by
        // the player itself, a notice; the library's problems ("library: ...") are errors.
        var opening = true
        var notices: [String] = []
        do {
            live = try LibraryLiveIndex(settings: settings, report: { [events] line in
                if opening && !line.hasPrefix("library:") {
                    notices.append(line)
                    events.notice(line)
                } else {
                    events.error(line)
                }
            })
        } catch {
            events.error(error.description)
            return
        }
        opening = false
        let openingNotices = notices
        live.onChange = { [unowned self] status, rowsChanged in
            for screen in screens {
                // The index built, its notice is dealt with: gone from the status line.
                if status == nil, let shown = screen.ui.message, !shown.isError, openingNotices.contains(shown.text) {
                    screen.ui.message = nil
                }
                guard var pane = screen.ui.library else { continue }
                pane.status = status
                if rowsChanged { pane.reload() }
                screen.ui.library = pane
                screen.redraw.setNeedsDraw()
            }
        }
        services?.library = live
        for screen in screens { screen.ui.library = LibraryPaneModel(source: live) }
        // The scan starts after the first frame (`afterIteration`): the screen
        // comes first, and a rescan of 100,000 files needs the CPU for a second.
    }
}
