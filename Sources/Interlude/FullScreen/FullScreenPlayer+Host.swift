import LoopIO
import Core
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
        guard let runtime, let presenter, let terminal else { return }
        book?.tick()
        // A frame the terminal could not take (output stopped) goes once it can.
        presenter.presentDeferred()
        if ui.focus != lastFocus {
            lastFocus = ui.focus
            // The books pane shows the state files as they are now.
            if ui.focus == .books { shelf.refresh(current: book) }
            if ui.focus == .playlists { refreshPlaylists() }
            // The radio pane shows the station file as it is now (another player may have changed it).
            if ui.focus == .radio, let problem = runtime.favouriteStations.reload() { runtime.events.error(problem) }
            // The podcasts pane lists the files again (a `podcast add` in a shell meanwhile), on its thread.
            if ui.focus == .podcasts { runtime.podcasts.list() }
        }
        if runtime.removeRungTestAlarms() { redraw.setNeedsDraw() }
        updateLyrics(runtime)
        // Changes that come without an event (the engine finishing, say) still redraw.
        let state = PlaybackState(finished: runtime.engine.isFinished, playing: runtime.isPlaying,
                                  interrupted: runtime.isInterrupted, entry: runtime.current?.index)
        if state != lastState {
            lastState = state
            redraw.setNeedsDraw()
        }
        guard redraw.shouldDraw(now: monotonicSeconds(), moving: isMoving(runtime)) else { return }
        let snapshot = snapshot(runtime)
        let arrangement = ScreenLayoutPass().arrange(size: terminal.size, state: &ui, snapshot: snapshot, now: now)
        let overlay = updatePictures(arrangement, runtime: runtime)
        present(ScreenRenderer().draw(arrangement, state: ui, snapshot: snapshot), overlay: overlay, presenter: presenter)
        library?.startFirstScan()
    }

    var maximumWaitMilliseconds: Int? {
        guard let runtime else { return nil }
        let wait = redraw.maximumWaitMilliseconds(moving: isMoving(runtime))
        // Looks again for a stopped terminal's return: no key says so (Ctrl-Q is the tty's own).
        return presenter?.deferred == nil ? wait : min(wait ?? 250, 250)
    }

    /// Whether the screen changes by itself: the clock while playing, the countdown.
    func isMoving(_ runtime: PlayerRuntime) -> Bool {
        (runtime.isPlaying && !runtime.engine.isFinished) || Banner(runtime.sessionSnapshot).isCountingDown
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
