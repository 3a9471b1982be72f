import PlayerModel
import TUI

/// Key presses as the interface state turns them into actions.
extension FullScreenPlayer {
    /// A key's action: player commands go to the runtime's dispatcher, and
    /// what it answers goes to the command line.
    func perform(_ action: InterfaceAction, _ runtime: PlayerRuntime) {
        switch action {
        case .cycleTheme:
            applyTheme(catalog.name(after: cycleName))
        case .player(let command):
            switch runtime.perform(command) {
            case .done(let report?):
                ui.message = .init(text: report.sentence, isError: false)
            case .refused(let reason) where !command.startsPlayback:
                // Worded with the keys bound now.
                ui.message = .init(text: ui.sentence(for: reason), isError: false)
            case .done(nil), .refused:
                // A refused play is in the event log already (`playRefused`).
                break
            }
        }
    }
}
