import PlayerModel
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The keys: each screen's terminal is a loop source. A press is read, the
/// interface state turns it into actions, player commands go to the core's
/// dispatcher and what it answers goes to this screen's command line.
extension Screen: LoopSource {
    var pollRequests: [LoopPollRequest] {
        guard !suspended, !leaving else { return [] }
        // The process's own terminal is read only while it is the foreground
        // job: a background read would stop the process with SIGTTIN. A
        // handed terminal is no controlling terminal of the service's.
        if terminal.device.isStandard && tcgetpgrp(0) != getpgrp() { return [] }
        return [LoopPollRequest(fd: input)]
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty || inputGivenBack, !suspended, !leaving else { return }
        if ready.contains(where: { $0.events & Self.hangUp != 0 }) && ready.allSatisfy({ $0.events & LoopPollRequest.readable == 0 }) {
            // The terminal is gone (its window closed): the screen ends, the player goes on.
            leaving = true
            return
        }
        inputGivenBack = false
        while let input = terminal.readInput() {
            switch input {
            case .resize:
                // Done by ncurses already: only the size and a full repaint.
                terminal.noteResize()
                presenter.invalidate()
            case .report(let bytes):
                // An answer to the start-up query, late, or another report: never keys.
                takeTerminalReport(bytes)
            case .key(let key):
                // The player's time, for the key's line in the event log.
                ui.now = events.now
                // Taken only by the actions that read it.
                for action in ui.handle(key, snapshot: host.snapshot(core), source: host.source) { perform(action, core) }
            }
            redraw.setNeedsDraw()
        }
    }

    /// poll(2)'s POLLHUP and POLLERR, as Linux numbers them.
    static let hangUp: Int16 = 0x010 | 0x008

    func perform(_ action: InterfaceAction, _ core: any PlayerCore) {
        switch action {
        case .cycleTheme:
            applyTheme(host.catalog.name(after: cycleName))
        case .leave:
            leaving = true
        case .player(let command):
            let opened = host.booksOpened
            switch core.perform(command) {
            case .done(let report?):
                ui.message = .init(text: report.sentence, isError: false)
            case .refused(let reason) where !command.startsPlayback:
                // Worded with the keys bound now.
                ui.message = .init(text: ui.sentence(for: reason), isError: false)
            case .done(nil), .refused:
                // A refused play is in the event log already (`playRefused`).
                break
            }
            // A book the command opened says where it resumed, over "opening ...".
            if host.booksOpened != opened, let resumed = host.resumed { ui.message = .init(text: resumed, isError: false) }
        }
    }
}
