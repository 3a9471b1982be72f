import Core
import LoopIO
import PlayerModel
import InterludeCore
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The runtime's host: signals (a resize, the end of the run, job control)
/// in, a frame out after each turn (only when something changed, or the
/// clock and countdown move). The keys are its loop source (`+Keys`).
extension FullScreenPlayer: PlayerHost {
    func handleSignal(_ number: Int32) -> Bool {
        if number == SIGWINCH {
            resize()
            return true
        }
        // SIGINT, SIGTERM, SIGHUP end the run: keep the book's place first.
        book?.save()
        return false
    }

    func afterIteration() {
        guard let core, let presenter, let terminal else { return }
        book?.tick()
        // A frame the terminal could not take (output stopped) goes once it can.
        presenter.presentDeferred()
        let turn = core.snapshot(.session)
        if ui.focus != lastFocus {
            lastFocus = ui.focus
            // The books pane shows the state files as they are now.
            if ui.focus == .books { shelf.refresh(currentPath: turn.bookPath) }
            if ui.focus == .playlists { refreshPlaylists() }
            // The radio pane shows the station file as it is now (another player may have changed it).
            if ui.focus == .radio { _ = core.snapshot(.stations) }
            // The podcasts pane lists the files again (a `podcast add` in a shell meanwhile), on its thread.
            if ui.focus == .podcasts { _ = core.perform(.listPodcasts) }
        }
        updateLyrics(core, playing: turn.currentPath)
        // Changes that come without an event (the engine finishing, a test alarm gone) still redraw.
        let state = PlaybackState(state: turn.state, entry: turn.currentIndex, alarmPlan: turn.alarmPlanGeneration)
        if state != lastState {
            lastState = state
            redraw.setNeedsDraw()
        }
        guard redraw.shouldDraw(now: monotonicSeconds(), moving: isMoving(turn)) else { return }
        let snapshot = snapshot(core)
        let arrangement = ScreenLayoutPass().arrange(size: terminal.size, state: &ui, snapshot: snapshot, now: now)
        let overlay = updatePictures(arrangement, core: core, playing: snapshot.currentPath)
        present(ScreenRenderer().draw(arrangement, state: ui, snapshot: snapshot), overlay: overlay, presenter: presenter)
        library?.startFirstScan()
    }

    var maximumWaitMilliseconds: Int? {
        guard let core else { return nil }
        let wait = redraw.maximumWaitMilliseconds(moving: isMoving(core.snapshot(.session)))
        // Looks again for a stopped terminal's return: no key says so (Ctrl-Q is the tty's own).
        return presenter?.deferred == nil ? wait : min(wait ?? 250, 250)
    }

    /// Whether the screen changes by itself: the clock while playing, the countdown.
    func isMoving(_ turn: PlayerSnapshot) -> Bool {
        turn.state == .playing || Banner(turn.session).isCountingDown
    }

    func willStop() {
        terminal?.suspend()
    }

    func didContinue() {
        terminal?.resume()
        presenter?.invalidate()
        redraw.setNeedsDraw()
    }

    var now: Double { events.now }

    var loopSources: [LoopSource] {
        [self as LoopSource] + (coverArt.map { [$0 as LoopSource] } ?? []) + (lyricsLoader.map { [$0 as LoopSource] } ?? [])
    }

    func resize() {
        terminal?.resize()
        presenter?.invalidate()
        redraw.setNeedsDraw()
    }
}
