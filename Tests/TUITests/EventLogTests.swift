import AudioSession
import InterludeCore
import PlayerModel
import Testing
@testable import TUI

/// The log pane reads typed events: each line shows the fields `--events
/// json` prints, numbers as printed (to their decimals), whole ones bare.
struct EventLogTests {
    @Test("numbers: rounded to their printed decimals, then whole ones bare and others to 3 decimals")
    func numbers() {
        #expect(LoggedEvent(time: 0, event: .paused(position: 12.3456789)).summary == "paused position=12.346")
        #expect(LoggedEvent(time: 0, event: .resumeScheduled(delay: 1)).summary == "resumeScheduled delay=1")
        #expect(LoggedEvent(time: 0, event: .bookmarkAdded(id: 2, position: 20)).summary == "bookmarkAdded id=2 position=20")
        #expect(LoggedEvent(time: 0, event: .volume(0.55)).summary == "volume volume=0.550")
    }

    @Test("an interruption shows every field and is coloured as began or ended; failures as errors")
    func kinds() {
        let began = InterruptionNotification(kind: .began, options: [], reason: .default, wasSuspended: true,
                                             interruptionID: InterruptionID(rawValue: 1),
                                             source: .session(SessionID(rawValue: 2), .alarm), time: .origin)
        let ended = InterruptionNotification(kind: .ended, options: [.shouldResume], reason: nil, wasSuspended: true,
                                             interruptionID: InterruptionID(rawValue: 1),
                                             source: .session(SessionID(rawValue: 2), .alarm), time: .origin)
        #expect(LoggedEvent(time: 0, event: .interruption(began)).summary
                == "interruption type=began options=[] reason=default wasSuspended=true id=1 source=alarm")
        #expect(LoggedEvent(time: 0, event: .interruption(ended)).summary
                == "interruption type=ended options=[\"shouldResume\"] reason=null wasSuspended=true id=1 source=alarm")
        #expect(EventLog.kind(of: LoggedEvent(time: 0, event: .interruption(began))) == .began)
        #expect(EventLog.kind(of: LoggedEvent(time: 0, event: .interruption(ended))) == .ended)
        #expect(EventLog.kind(of: LoggedEvent(time: 0, event: .resumeFailed(reason: "busy"))) == .error)
        #expect(EventLog.kind(of: LoggedEvent(time: 0, event: .alarmRinging([]))) == .action)
    }

    @Test("an error event also goes to the command line")
    func errorsReachTheCommandLine() {
        var ui = InterfaceState(browser: nil)
        ui.record(TimedPlayerEvent(time: 2, event: .error("keys: line 3: unknown action 'x'")))
        #expect(ui.message == .init(text: "keys: line 3: unknown action 'x'", isError: true))
        #expect(ui.log.entries.map(\.summary) == ["error message=keys: line 3: unknown action 'x'"])
    }
}
