import PlayerModel
import Themes
import TUI

/// Colour themes: loaded from the catalog, problems reported, and given to the terminal.
extension Screen {
    func applyTheme(_ name: String) {
        var theme = Theme.standard
        var shown = ThemeCatalog.defaultName
        do {
            let load = try host.catalog.load(name)
            theme = load.theme
            shown = load.fellBackToDefault ? ThemeCatalog.defaultName : name
            for problem in load.problems { events.error("theme: \(problem.description)") }
            if let first = load.problems.first {
                ui.message = .init(text: "theme \(name): \(CommandReport.count(load.problems.count, "problem")), using the default theme; "
                                   + first.description, isError: true)
            }
        } catch {
            events.error(error.description)
            ui.message = .init(text: error.description, isError: true)
        }
        ui.themeName = shown == name ? name : "\(shown) (\(name) has errors)"
        terminal.setTheme(theme.rendering(for: terminal.colorDepth))
        presenter.invalidate()
        redraw.setNeedsDraw()
        // Keep cycling from the requested name, even when it fell back; the next screen and player.json take it.
        cycleName = name
        host.themeName = name
    }
}
