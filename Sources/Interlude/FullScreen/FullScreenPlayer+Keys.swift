import PlayerModel
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The keys: the terminal is the loop's first source. A press is read, the
/// interface state turns it into actions, player commands go to the
/// runtime's dispatcher and what it answers goes to the command line.
extension FullScreenPlayer: LoopSource {
    var pollRequests: [LoopPollRequest] {
        // Read the terminal only while we are its foreground job: a background
        // read would stop the process with SIGTTIN.
        tcgetpgrp(0) == getpgrp() ? [LoopPollRequest(fd: 0)] : []
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty || inputGivenBack, let terminal else { return }
        inputGivenBack = false
        while let input = terminal.readInput() {
            switch input {
            case .resize:
                // Done by ncurses already: only the size and a full repaint.
                terminal.noteResize()
                presenter?.invalidate()
            case .report(let bytes):
                // An answer to the start-up query, late, or another report: never keys.
                takeTerminalReport(bytes)
            case .key(let key):
                // The player's time, for the key's line in the event log.
                ui.now = events.now
                // Taken only by the actions that read it.
                for action in ui.handle(key, snapshot: snapshot(core), source: source) { perform(action, core) }
            }
            redraw.setNeedsDraw()
        }
    }

    func perform(_ action: InterfaceAction, _ core: any PlayerCore) {
        switch action {
        case .cycleTheme:
            applyTheme(catalog.name(after: cycleName))
        case .player(let command):
            let opened = booksOpened
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
            if booksOpened != opened, let resumed { ui.message = .init(text: resumed, isError: false) }
        }
    }
}
