import PlayerModel
import Testing
@testable import TUI

/// A binding holds its command: found through the command table when the key
/// is bound (the defaults, the keys file), so a press reads it back.
struct KeyBindingCommandTests {
    @Test("every default binding holds its row's plain command, and only the rows with one hold any")
    func defaultsHoldTheTablesCommands() {
        for (key, binding) in KeyBindings.defaults.table {
            #expect(binding.command == binding.action.entry.plainCommand, "\(key)")
        }
        #expect(KeyBindings.defaults.table[.named(.space)]?.command == .togglePlayPause)
        #expect(KeyBindings.defaults.table[.character("z")]?.command == .snoozeAlarm)
        #expect(KeyBindings.defaults.table[.character("/")]?.command == nil)
        #expect(KeyBindings.defaults.table[.character("A")]?.command == nil)
    }

    @Test("a key the keys file binds holds the command of its new action")
    func keysFileBindingHoldsItsCommand() {
        let load = KeyConfigParser.apply("bind Z alarm-snooze\nbind space quit", path: "keys")
        #expect(load.problems.isEmpty)
        #expect(load.bindings.table[.character("Z")] == KeyBinding(.alarmSnooze))
        #expect(load.bindings.table[.character("Z")]?.command == .snoozeAlarm)
        #expect(load.bindings.table[.named(.space)]?.command == .quit)
    }

    @Test("a plain command's key is sent without a snapshot being taken; a key that reads one takes it once")
    func plainKeysTakeNoSnapshot() {
        var ui = InterfaceState(browser: nil)
        var taken = 0
        func snapshot() -> PlayerSnapshot {
            taken += 1
            return PlayerSnapshot()
        }
        #expect(ui.handle(.named(.space), snapshot: snapshot(), source: MemoryBrowserSource.library)
                == [.player(.togglePlayPause)])
        #expect(ui.handle(.character("z"), snapshot: snapshot(), source: MemoryBrowserSource.library) == [.player(.snoozeAlarm)])
        #expect(ui.handle(.character("+"), snapshot: snapshot(), source: MemoryBrowserSource.library) == [.player(.volumeUp)])
        #expect(taken == 0)
        // Chapter keys read the snapshot's book (none here: a message, no command).
        #expect(ui.handle(.character(">"), snapshot: snapshot(), source: MemoryBrowserSource.library) == [])
        #expect(taken == 1)
    }
}
