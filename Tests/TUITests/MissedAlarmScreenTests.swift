import PlayerModel
import Testing
import Themes
@testable import TUI

/// Alarms on the screen: the missed alarms in the banner (while nothing
/// holds playback) and in the alarms pane, the next alarm on the status line.
struct MissedAlarmScreenTests {
    init() { _ = Locale.prepared }

    private func screen(_ snapshot: PlayerSnapshot) -> InMemoryTerminal {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: MemoryBrowserSource.library))
        let size = TerminalSize(columns: 200, rows: 50)
        let terminal = InMemoryTerminal(size: size)
        ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: size, state: &ui, snapshot: snapshot, now: 0))
        return terminal
    }

    @Test("missed alarms: the latest in the banner with how many more and the key that marks them seen; the pane's row says so")
    func missedInBannerAndPane() {
        var snapshot = PlayerSnapshot()
        snapshot.alarms = [AlarmRow(id: 1, label: "wake", nextFire: "2025-06-17 07:00:00", schedule: "07:00", isEnabled: true,
                                    note: "missed 3 h late, the computer was asleep")]
        snapshot.missedAlarms = ["missed alarm 2: 11 min late, the player was stopped",
                                 "missed alarm 1 wake: 3 h late, the computer was asleep"]
        let terminal = screen(snapshot)
        #expect(terminal.line(1) .hasPrefix(" missed alarm 1 wake: 3 h late, the computer was asleep (and 1 more) — x: seen"),
                "\(terminal.screenText)")
        #expect(terminal.screenText.contains("#1 on   2025-06-17 07:00:00  wake  (missed 3 h late, the computer was asleep)"))
        snapshot.missedAlarms = []
        #expect(!screen(snapshot).screenText.contains("missed alarm"), "seen: the banner goes")
    }

    @Test("the status line announces the next alarm, and gives way to the ringing one")
    func nextAlarmOnTheStatusLine() {
        var snapshot = PlayerSnapshot()
        snapshot.nextAlarm = "next alarm tomorrow 07:00 (in 7 h 12 min)"
        #expect(screen(snapshot).screenText.contains("stopped · vol 100% · next alarm tomorrow 07:00 (in 7 h 12 min)"))
        snapshot.alarmRinging = true
        let ringing = screen(snapshot).screenText
        #expect(ringing.contains("alarm ringing (z snooze, x dismiss)") && !ringing.contains("next alarm"))
    }
}
