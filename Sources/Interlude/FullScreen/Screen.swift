import InterludeCore
import LoopIO
import PlayerModel
import Themes
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// One terminal the player draws on: its own panes, selection, prompts,
/// message and theme over the one core its host runs. The process's own
/// terminal (`interlude --new`, or a player run in the foreground), or one a
/// screen client handed the service (`ScreenAttachment`): every screen shows
/// the same player, and each one's keys act on it.
final class Screen {
    unowned let host: FullScreenPlayer
    let terminal: any ScreenTerminal
    let presenter: ScreenPresenter
    var ui: InterfaceState
    var redraw = RedrawPolicy()
    var lastState: FullScreenPlayer.PlaybackState?
    var lastFocus: Pane?
    /// The cover art's pictures (`+CoverArt`); nil when none are drawn.
    var coverArt: CoverArtView?
    /// Made when the lyrics pane first shows.
    var lyricsLoader: LyricsLoader?
    /// Keys given back to ncurses after the terminal's answers were read: in its
    /// own queue, not on the input descriptor, so the next turn reads them without a poll's word.
    var inputGivenBack = false
    var shownOverlay: GraphicsOverlay?
    /// The terminal's answers read so far, while DA1's is still to come (`+CoverArt`).
    var awaitedReplies: AwaitedReplies?
    /// The theme the user asked for last (cycling goes on from it, even when it fell back).
    var cycleName = ThemeCatalog.defaultName
    /// Set by `leave` (q): the host ends this screen after the turn.
    var leaving = false
    /// Given back after a job-control stop of the screen's client: nothing is drawn meanwhile.
    var suspended = false

    var events: PlayerEventStream { host.events }
    var settings: PlayerConfigFile { host.settings }

    init(host: FullScreenPlayer, terminal: any ScreenTerminal, ui: InterfaceState) {
        self.host = host
        self.terminal = terminal
        self.presenter = ScreenPresenter(terminal: terminal)
        self.ui = ui
    }

    /// The descriptor keys are read from.
    var input: Int32 { (terminal as? AnsiTerminal)?.descriptor ?? terminal.device.input }
    /// The descriptor frames and pictures are written to.
    var output: Int32 { terminal.device.output }

    /// Draws a frame when something changed (or the clock moves), after each turn of the loop.
    func afterIteration(_ core: any PlayerCore, turn: PlayerSnapshot) {
        guard !suspended else { return }
        // A frame the terminal could not take (output stopped) goes once it can.
        presenter.presentDeferred()
        if ui.focus != lastFocus {
            lastFocus = ui.focus
            // The books pane shows the state files as they are now.
            if ui.focus == .books { host.shelf.refresh(currentPath: turn.bookPath) }
            if ui.focus == .playlists { host.refreshPlaylists() }
            // The radio pane shows the station file as it is now (another player may have changed it).
            if ui.focus == .radio { _ = core.snapshot(.stations) }
            // The podcasts pane lists the files again (a `podcast add` in a shell meanwhile), on its thread.
            if ui.focus == .podcasts { _ = core.perform(.listPodcasts) }
        }
        updateLyrics(core, playing: turn.currentPath)
        // Changes that come without an event (the engine finishing, a test alarm gone) still redraw.
        let state = FullScreenPlayer.PlaybackState(state: turn.state, entry: turn.currentIndex,
                                                   alarmPlan: turn.alarmPlanGeneration)
        if state != lastState {
            lastState = state
            redraw.setNeedsDraw()
        }
        guard redraw.shouldDraw(now: monotonicSeconds(), moving: FullScreenPlayer.isMoving(turn)) else { return }
        let snapshot = host.snapshot(core)
        let arrangement = ScreenLayoutPass().arrange(size: terminal.size, state: &ui, snapshot: snapshot, now: host.now)
        let overlay = updatePictures(arrangement, core: core, playing: snapshot.currentPath)
        present(ScreenRenderer().draw(arrangement, state: ui, snapshot: snapshot), overlay: overlay, presenter: presenter)
    }

    func maximumWaitMilliseconds(moving: Bool) -> Int? {
        guard !suspended else { return nil }
        let wait = redraw.maximumWaitMilliseconds(moving: moving)
        // Looks again for a stopped terminal's return: no key says so (Ctrl-Q is the tty's own).
        return presenter.deferred == nil ? wait : min(wait ?? 250, 250)
    }

    /// An event for the log and the banner.
    func record(_ timed: TimedPlayerEvent) {
        ui.record(timed)
        redraw.setNeedsDraw()
    }

    /// A line for the command line.
    func say(_ text: String, isError: Bool = false) {
        ui.message = .init(text: text, isError: isError)
        redraw.setNeedsDraw()
    }

    func resize() {
        terminal.resize()
        presenter.invalidate()
        redraw.setNeedsDraw()
    }

    /// Gives the terminal back (a job-control stop of whoever owns it).
    func suspend() {
        suspended = true
        terminal.suspend()
    }

    /// Takes it again and repaints all of it.
    func resume() {
        suspended = false
        terminal.resume()
        presenter.invalidate()
        redraw.setNeedsDraw()
    }

    /// Gives the terminal back for good.
    func end() {
        terminal.end()
    }

    var loopSources: [LoopSource] {
        [self as LoopSource] + (coverArt.map { [$0 as LoopSource] } ?? []) + (lyricsLoader.map { [$0 as LoopSource] } ?? [])
    }
}
