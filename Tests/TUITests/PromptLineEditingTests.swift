import PlayerModel
import Testing
import Themes
@testable import TUI

/// The prompts edit like a shell's line: a pre-filled value is selected (the
/// first character typed replaces it, a move keeps it), Ctrl-U, Ctrl-W,
/// Ctrl-K, Ctrl-A/E, Home/End, Left/Right, Backspace and Delete at the cursor.
struct PromptLineEditingTests {
    let source = MemoryBrowserSource.library

    func press(_ state: inout InterfaceState, _ keys: [Key], snapshot: PlayerSnapshot = PlayerSnapshot()) -> [InterfaceAction] {
        keys.flatMap { state.handle($0, snapshot: snapshot, source: source) }
    }

    func typed(_ text: String) -> [Key] { text.map { Key.character($0) } }

    /// The radio pane with one station named after its host, and its rename prompt open.
    func renaming() -> (InterfaceState, PlayerSnapshot) {
        var snapshot = PlayerSnapshot()
        snapshot.stations = [StationRow(name: "127.0.0.1", url: "http://127.0.0.1:8000/radio.mp3")]
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        _ = press(&ui, [Key.character("R"), Key.character("C")], snapshot: snapshot)
        return (ui, snapshot)
    }

    @Test("a pre-filled name is replaced by the first character typed, as a selected text field's is")
    func typingReplacesThePrefilledValue() {
        var (ui, snapshot) = renaming()
        #expect(ui.input == "127.0.0.1" && ui.inputSelected && ui.inputCursor == 9)
        #expect(press(&ui, typed("Harbour FM") + [.named(.enter)], snapshot: snapshot)
                == [.player(.renameStation(.url("http://127.0.0.1:8000/radio.mp3"), name: "Harbour FM"))])
    }

    @Test("Ctrl-U empties the line before the cursor; a new name follows")
    func controlU() {
        var (ui, snapshot) = renaming()
        #expect(press(&ui, [.control("u")] + typed("Harbour FM") + [.named(.enter)], snapshot: snapshot)
                == [.player(.renameStation(.url("http://127.0.0.1:8000/radio.mp3"), name: "Harbour FM"))])
    }

    @Test("a move keeps the pre-filled value for editing: Home, Left, Right, End, Ctrl-A, Ctrl-E; typing inserts at the cursor")
    func movesKeepTheValue() {
        var (ui, snapshot) = renaming()
        _ = press(&ui, [.named(.home)] + typed("[") + [.named(.end)] + typed("]"), snapshot: snapshot)
        #expect(ui.input == "[127.0.0.1]")
        _ = press(&ui, [.named(.left), .named(.left)] + typed("9"), snapshot: snapshot)
        #expect(ui.input == "[127.0.0.91]" && ui.inputCursor == 10)
        _ = press(&ui, [.control("a"), .named(.right), .named(.delete), .control("e"), .named(.backspace)], snapshot: snapshot)
        #expect(ui.input == "[27.0.0.91")
    }

    @Test("Ctrl-W removes the word before the cursor and the spaces after it; Ctrl-K the line after the cursor")
    func controlWAndK() {
        var ui = InterfaceState(browser: BrowserModel(root: "/music", source: source))
        _ = press(&ui, [Key.character("o")] + typed("tomorrow at 07:30  "))
        _ = press(&ui, [.control("w")])
        #expect(ui.input == "tomorrow at ")
        _ = press(&ui, [.control("w"), .control("w")])
        #expect(ui.input == "")
        _ = press(&ui, typed("in 10m later") + [.named(.left), .named(.left), .named(.left), .named(.left), .named(.left),
                                                .named(.left), .control("k")])
        #expect(ui.input == "in 10m")
        #expect(press(&ui, [.named(.enter)]) == [.player(.addAlarmSchedule("in 10m"))])
    }

    @Test("backspace on a selected value clears it; escape leaves the prompt")
    func backspaceOnASelection() {
        var (ui, snapshot) = renaming()
        _ = press(&ui, [.named(.backspace)], snapshot: snapshot)
        #expect(ui.input == "" && ui.inputCursor == 0)
        _ = press(&ui, [.named(.escape)], snapshot: snapshot)
        #expect(ui.prompt == nil)
    }

    @Test("the prompt line shows the cursor: _ at the end, the character under it in reverse in the middle")
    func cursorShown() {
        _ = Locale.prepared
        var (ui, snapshot) = renaming()
        _ = press(&ui, [.named(.home), .named(.right)], snapshot: snapshot)
        var frame = ScreenRenderer().frame(size: TerminalSize(columns: 80, rows: 24), state: &ui, snapshot: snapshot, now: 0)
        let line = frame.line(23)
        #expect(line.hasPrefix("rename the station to: 127.0.0.1"), "\(line)")
        let cursorColumn = "rename the station to: 1".count
        #expect(frame.cells[23][cursorColumn].element == .selectedRowFocused)
        #expect(frame.cells[23][cursorColumn - 1].element == .commandLine)
        _ = press(&ui, [.named(.end)], snapshot: snapshot)
        frame = ScreenRenderer().frame(size: TerminalSize(columns: 80, rows: 24), state: &ui, snapshot: snapshot, now: 0)
        #expect(frame.line(23).hasPrefix("rename the station to: 127.0.0.1_"))
    }
}
