import PlayerModel
import Testing
@testable import TUI

struct KeyDispatchTests {
    let source = MemoryBrowserSource.library

    func state() -> InterfaceState {
        InterfaceState(browser: BrowserModel(root: "/music", source: source))
    }

    func press(_ state: inout InterfaceState, _ keys: [Key], snapshot: PlayerSnapshot = PlayerSnapshot()) -> [InterfaceAction] {
        keys.flatMap { state.handle($0, snapshot: snapshot, source: source) }
    }

    /// What keys send the player: its own commands.
    func player(_ commands: [PlayerCommand]) -> [InterfaceAction] { commands.map(InterfaceAction.player) }

    func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }

    @Test("the alarm-testing keys send their commands")
    func alarmTestingKeys() {
        var ui = state()
        #expect(press(&ui, typed("azxscND")) == player([.fireTestAlarm, .snoozeAlarm, .dismissAlarm, .toggleSessionSuspended,
                                                  .toggleCall, .notificationChime, .simulateDeviceLoss]))
        #expect(ui.log.entries.map { $0.string("action") } == ["alarm-fire-test", "alarm-snooze", "alarm-dismiss",
            "session-suspend-toggle", "call-toggle", "notification-chime", "device-lost"])
    }

    @Test("A asks for seconds; a number adds the alarm, anything else is an error")
    func alarmPrompt() {
        var ui = state()
        #expect(press(&ui, [Key.character("A")]).isEmpty)
        #expect(ui.prompt == .alarmSeconds)
        #expect(InterfaceState.Prompt.alarmSeconds.question == "alarm in how many seconds? ")
        #expect(press(&ui, typed("3") + [.named(.enter)]) == player([.addAlarm(afterSeconds: 3)]))
        #expect(ui.prompt == nil)
        _ = press(&ui, [Key.character("A")] + typed("soon") + [.named(.enter)])
        #expect(ui.message?.isError == true)
        #expect(ui.message?.text.contains("'soon'") == true)
    }

    @Test("space, n, p, arrows and volume")
    func playbackKeys() {
        var ui = state()
        var snapshot = PlayerSnapshot()
        snapshot.volume = 0.5
        #expect(press(&ui, [.named(.space), .character("n"), .character("p"), .named(.left), .named(.right),
                            .character("+"), .character("-"), .character("]"), .character("[")], snapshot: snapshot)
                == player([.togglePlayPause, .next, .previous, .seek(seconds: -10), .seek(seconds: 10), .volumeUp,
                    .volumeDown, .speedUp, .speedDown]))
    }

    @Test("tab and digits move the focus")
    func focus() {
        var ui = state()
        #expect(ui.focus == .browser)
        _ = press(&ui, [.named(.tab)])
        #expect(ui.focus == .queue)
        _ = press(&ui, [Key.character("5")])
        #expect(ui.focus == .eventLog)
        // Then the book panes (6-8), and round to the browser.
        _ = press(&ui, [.named(.tab)])
        #expect(ui.focus == .books)
        _ = press(&ui, [.named(.tab), .named(.tab)])
        #expect(ui.focus == .bookmarks)
        _ = press(&ui, [.named(.tab)])
        #expect(ui.focus == .browser)
        _ = press(&ui, [Key.character("4")])
        #expect(ui.focus == .alarms)
    }

    @Test("enter on a file plays the folder's files from it, in natural order; on a folder opens it; .. goes up, above the first folder too")
    func playSelection() {
        var ui = state()
        #expect(ui.browser?.visible.map(\.name) == ["..", "Albums", "1 one.mp3", "2 two.mp3", "10 ten.mp3"])
        #expect(ui.browser?.selected?.name == "Albums", "the first entry is selected, below the way up")
        let commands = press(&ui, [.named(.down), .named(.down), .named(.enter)])
        #expect(commands == player([.playQueue(["/music/1 one.mp3", "/music/2 two.mp3", "/music/10 ten.mp3"], startAt: 1)]))
        _ = press(&ui, [.named(.home), .named(.down), .named(.enter)])
        #expect(ui.browser?.directory == "/music/Albums")
        #expect(ui.browser?.visible.map(\.name) == ["..", "a.mp3"])
        _ = press(&ui, [.named(.home), .named(.enter)])
        #expect(ui.browser?.directory == "/music")
        #expect(ui.browser?.selected?.name == "Albums", "going up selects the folder just left")
        #expect(press(&ui, [Key.character("e")]) == player([.enqueue(["/music/Albums/a.mp3"])]))
        _ = press(&ui, [.named(.home), .named(.enter)])
        #expect(ui.browser?.directory == "/", "above the folder the browser started in")
    }

    @Test("/ filters the browser by title, artist or name as you type; escape clears it")
    func filter() {
        var ui = state()
        _ = press(&ui, [Key.character("/")] + typed("t"))
        #expect(ui.browser?.visible.map(\.title) == ["..", "Two", "Ten"])
        #expect(ui.browser?.selected?.title == "Two", "the first that matches is selected")
        _ = press(&ui, [Key.character("w")])
        #expect(ui.browser?.visible.map(\.title) == ["..", "Two"])
        _ = press(&ui, [.named(.backspace), .named(.backspace)] + typed("李白") + [.named(.enter)])
        #expect(ui.browser?.visible.map(\.title) == ["..", "静夜思"])
        #expect(ui.prompt == nil)
        _ = press(&ui, [Key.character("/"), .named(.escape)])
        #expect(ui.browser?.visible.count == 5)
    }

    @Test("the queue filter keeps queue indices for enter")
    func queueFilter() {
        var ui = state()
        var snapshot = PlayerSnapshot()
        snapshot.queue = [.init(path: "/a", title: "Alpha"), .init(path: "/b", title: "Beta"), .init(path: "/c", title: "Gamma")]
        _ = press(&ui, [Key.character("2"), Key.character("/")] + typed("ga") + [.named(.enter)], snapshot: snapshot)
        #expect(ui.visibleQueue(snapshot).map(\.index) == [2])
        #expect(press(&ui, [.named(.enter)], snapshot: snapshot) == player([.playQueue(["/a", "/b", "/c"], startAt: 2)]))
    }

    @Test("the alarms pane edits, toggles and deletes its selection")
    func alarmsPane() {
        var ui = state()
        var snapshot = PlayerSnapshot()
        snapshot.alarms = [AlarmRow(id: 4, label: "a", nextFire: "07:30", schedule: "07:30", isEnabled: true),
                           AlarmRow(id: 7, label: "b", nextFire: "", schedule: "in 10m", isEnabled: false)]
        #expect(press(&ui, [Key.character("T")], snapshot: snapshot).isEmpty, "only in the alarms pane")
        _ = press(&ui, [Key.character("4"), .named(.down)], snapshot: snapshot)
        #expect(press(&ui, [Key.character("T")], snapshot: snapshot) == player([.setAlarmEnabled(id: 7, true)]))
        #expect(press(&ui, [Key.character("d")], snapshot: snapshot) == player([.deleteAlarm(id: 7)]))
        _ = press(&ui, [Key.character("E")], snapshot: snapshot)
        #expect(ui.prompt == .alarmEdit(id: 7))
        #expect(ui.input == "in 10m")
        // End keeps the pre-filled time for editing (typing at once would replace it).
        #expect(press(&ui, [.named(.end), .named(.backspace), .named(.backspace), .named(.backspace)] + typed("5m") + [.named(.enter)],
                      snapshot: snapshot) == player([.editAlarm(id: 7, schedule: "in 5m")]))
        #expect(press(&ui, [Key.character("o")] + typed("07:45") + [.named(.enter)], snapshot: snapshot)
                == player([.addAlarmSchedule("07:45")]))
    }

    @Test("? shows help; q then closes it instead of leaving the screen")
    func help() {
        var ui = state()
        _ = press(&ui, [Key.character("?")])
        #expect(ui.showsHelp)
        #expect(press(&ui, [Key.character("q")]).isEmpty)
        #expect(!ui.showsHelp)
        #expect(press(&ui, [Key.character("q")]) == [.leave])
        #expect(press(&ui, [Key.character("Q")]) == player([.quit]))
    }

    @Test("rebound keys dispatch their new action")
    func rebinding() {
        let load = KeyConfigParser.apply("bind h seek-back\nunbind a\n", path: "keys")
        var ui = InterfaceState(bindings: load.bindings, browser: nil)
        #expect(press(&ui, [Key.character("h"), Key.character("a")]) == player([.seek(seconds: -10)]))
    }
}
