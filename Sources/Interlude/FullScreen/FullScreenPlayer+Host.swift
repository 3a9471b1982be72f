import Core
import LoopIO
import PlayerModel
import InterludeCore
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The runtime's host: signals (a resize, the end of the run, job control)
/// in, each screen's frame out after each turn (only when something changed,
/// or the clock and countdown move). The screens' keys and the service's
/// listener are its loop sources.
extension FullScreenPlayer: PlayerHost {
    func handleSignal(_ number: Int32) -> Bool {
        if number == SIGWINCH {
            for screen in screens where screen.terminal.device.isStandard { screen.resize() }
            return true
        }
        // SIGINT, SIGTERM, SIGHUP end the run: keep the book's place first.
        book?.save()
        return false
    }

    func afterIteration() {
        guard let core else { return }
        book?.tick()
        endLeavingScreens(core)
        let turn = core.snapshot(.session)
        for screen in screens { screen.afterIteration(core, turn: turn) }
        if mode == .service { saveStateIfMoved(turn) }
        library?.startFirstScan()
    }

    /// Screens left (q) or whose terminal went away: given back, their clients told.
    func endLeavingScreens(_ core: any PlayerCore) {
        guard screens.contains(where: \.leaving) else { return }
        for screen in screens where screen.leaving {
            if mode == .foreground {
                _ = core.perform(.quit)
                return
            }
            screen.end()
            attachments?.detach(screen, saying: leavingLine(core))
        }
        screens.removeAll(where: \.leaving)
    }

    /// What a screen leaving the service says: that playback and alarms go on, and how to come back.
    func leavingLine(_ core: any PlayerCore) -> String {
        let snapshot = core.snapshot(.full)
        let playing = snapshot.state == .playing ? "playback goes on" : "the player goes on"
        let alarms = snapshot.nextAlarm.map { ", \($0)" } ?? ""
        return "\(playing) in the background\(alarms); 'interlude' to come back, 'interlude quit' to stop it"
    }

    /// The service keeps player.json current while music plays (each 5 s, and at
    /// each change of the queue or entry), so a crash or a `kill -9` loses little.
    func saveStateIfMoved(_ turn: PlayerSnapshot) {
        guard let runtime, let stateStore, book == nil else { return }
        let now = monotonicSeconds()
        let queue = turn.queuePaths
        guard !queue.isEmpty else { return }
        let index = turn.currentIndex ?? 0
        let changed = savedPlace.map { $0.queue != queue || $0.index != index } ?? true
        let moved = turn.state == .playing && now - lastPlaceSave >= 5
        guard changed || moved else { return }
        lastPlaceSave = now
        saveState(stateStore, runtime)
    }

    var maximumWaitMilliseconds: Int? {
        guard let core, !screens.isEmpty else { return nil }
        let moving = Self.isMoving(core.snapshot(.session))
        return screens.compactMap { $0.maximumWaitMilliseconds(moving: moving) }.min()
    }

    /// Whether the screen changes by itself: the clock while playing, the countdown.
    static func isMoving(_ turn: PlayerSnapshot) -> Bool {
        turn.state == .playing || Banner(turn.session).isCountingDown
    }

    func willStop() {
        for screen in screens where screen.terminal.device.isStandard { screen.suspend() }
    }

    func didContinue() {
        for screen in screens where screen.terminal.device.isStandard { screen.resume() }
    }

    var now: Double { events.now }

    var loopSources: [LoopSource] {
        (attachments.map { [$0 as LoopSource] } ?? []) + screens.flatMap(\.loopSources)
    }
}
