import Testing
@testable import TUI

/// The default bindings, close to cmus.
struct DefaultBindingsTests {
    /// The playback and navigation keys, each with its row's name.
    static let issueList: [(key: String, action: String)] = [
        ("space", "play-pause"),
        ("n", "next"), ("p", "previous"),
        ("left", "seek-back"), ("right", "seek-forward"),
        ("+", "volume-up"), ("-", "volume-down"),
        ("enter", "play-selection"),
        ("e", "queue-add"),
        ("/", "filter"),
        ("?", "help"),
        ("q", "leave"), ("Q", "quit"),
        ("a", "alarm-fire-test"), ("A", "alarm-in"), ("z", "alarm-snooze"), ("x", "alarm-dismiss"),
        ("s", "session-suspend-toggle"), ("c", "call-toggle"), ("N", "notification-chime"), ("D", "device-lost"),
        ("t", "theme-cycle"),
        ("tab", "next-pane"),
        ("1", "pane-1"), ("2", "pane-2"), ("3", "pane-3"), ("4", "pane-4"), ("5", "pane-5"),
        ("up", "up"), ("k", "up"), ("down", "down"), ("j", "down"),
        ("[", "speed-down"), ("]", "speed-up"),
    ]

    @Test("each playback and navigation key does what the README says", arguments: issueList)
    func issueKeyIsBound(key: String, action: String) throws {
        #expect(KeyBindings.defaults.action(for: try #require(Key(parsing: key)))?.rawValue == action)
    }

    /// The audiobook keys in the full-screen player.
    static let bookList: [(key: String, action: String)] = [
        (">", "chapter-next"), ("<", "chapter-previous"), (",", "skip-back"), (".", "skip-forward"), ("S", "sleep-timer"),
        ("m", "bookmark-add"), ("delete", "bookmark-delete"), ("b", "book-open"),
        ("6", "pane-6"), ("7", "pane-7"), ("8", "pane-8"),
    ]

    @Test("each audiobook key does what the README says", arguments: bookList)
    func bookKeyIsBound(key: String, action: String) throws {
        #expect(KeyBindings.defaults.action(for: try #require(Key(parsing: key)))?.rawValue == action)
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
