import Testing
@testable import TUI

/// The default bindings, close to cmus.
struct DefaultBindingsTests {
    /// The playback and navigation keys, each with its action.
    static let issueList: [(key: String, action: KeyAction)] = [
        ("space", .playPause),
        ("n", .next), ("p", .previous),
        ("left", .seekBack), ("right", .seekForward),
        ("+", .volumeUp), ("-", .volumeDown),
        ("enter", .playSelection),
        ("e", .queueAdd),
        ("/", .filter),
        ("?", .help),
        ("q", .quit),
        ("a", .alarmFireTest), ("A", .alarmAsk), ("z", .alarmSnooze), ("x", .alarmDismiss),
        ("s", .sessionSuspendToggle), ("c", .callToggle), ("N", .notificationChime), ("D", .deviceLost),
        ("t", .themeCycle),
        ("tab", .nextPane),
        ("1", .pane1), ("2", .pane2), ("3", .pane3), ("4", .pane4), ("5", .pane5),
        ("up", .up), ("k", .up), ("down", .down), ("j", .down),
        ("[", .speedDown), ("]", .speedUp),
    ]

    @Test("each key the issue lists does what it says", arguments: issueList)
    func issueKeyIsBound(key: String, action: KeyAction) throws {
        #expect(KeyBindings.defaults.action(for: try #require(Key(parsing: key))) == action)
    }

    /// The audiobook keys in the full-screen player.
    static let bookList: [(key: String, action: KeyAction)] = [
        (">", .chapterNext), ("<", .chapterPrevious), (",", .skipBack), (".", .skipForward), ("S", .sleepTimer),
        ("m", .bookmarkAdd), ("delete", .bookmarkDelete), ("b", .bookOpen),
        ("6", .pane6), ("7", .pane7), ("8", .pane8),
    ]

    @Test("each audiobook key does what the README says", arguments: bookList)
    func bookKeyIsBound(key: String, action: KeyAction) throws {
        #expect(KeyBindings.defaults.action(for: try #require(Key(parsing: key))) == action)
    }

    @Test("no default key is listed twice, so no default binding hides another")
    func noClashes() {
        let keys = KeyBindings.defaultList.map(\.0)
        #expect(Set(keys).count == keys.count)
    }

    @Test("every action has a default key, so every one is reachable and shown in help", arguments: KeyAction.allCases)
    func everyActionHasDefaultKey(action: KeyAction) {
        #expect(!KeyBindings.defaults.keys(for: action).isEmpty)
    }

    @Test("action names are stable, lowercase and unique")
    func actionNames() {
        let names = KeyAction.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") })
        for name in ["play-pause", "seek-back", "pane-1", "pane-5", "alarm-fire-test", "session-suspend-toggle",
                     "device-lost", "theme-cycle", "chapter-next", "bookmark-add", "sleep-timer"] {
            #expect(KeyAction(rawValue: name) != nil, "\(name)")
        }
    }
}
