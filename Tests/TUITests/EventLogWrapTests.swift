import AudioSession
import PlayerModel
import Testing
@testable import TUI

/// At 120x40 the log pane is narrower than an
/// interruption line, and the field the feature is about, `wasSuspended`,
/// came last and was cut off. Every event now shows whole.
struct EventLogWrapTests {
    init() { _ = Locale.prepared }

    static func interruption(_ kind: InterruptionNotification.Kind, id: Int) -> PlayerEvent {
        .interruption(InterruptionNotification(
            kind: kind, options: kind == .ended ? [.shouldResume] : [], reason: kind == .began ? .appWasSuspended : nil,
            wasSuspended: true, interruptionID: InterruptionID(rawValue: id),
            source: .session(SessionID(rawValue: 2), .alarm), time: .origin))
    }

    func draw(_ ui: inout InterfaceState, columns: Int = 120, rows: Int = 40) -> InMemoryTerminal {
        let size = TerminalSize(columns: columns, rows: rows)
        let terminal = InMemoryTerminal(size: size)
        ScreenPresenter(terminal: terminal).present(ScreenRenderer().frame(size: size, state: &ui, snapshot: PlayerSnapshot(), now: 0))
        return terminal
    }

    /// The log pane's rows as text, without the time column's padding.
    func logText(_ terminal: InMemoryTerminal, columns: Int = 120, rows: Int = 40) -> String {
        let pane = Layout(size: TerminalSize(columns: columns, rows: rows), banner: false, focus: .eventLog).panes[.eventLog]!
        return (pane.row + 1..<pane.row + pane.height).map { row in
            String(terminal.line(row).dropFirst(pane.column).prefix(pane.width))
        }.joined(separator: "\n")
    }

    @Test("at 120x40 the newest interruption shows every field, wasSuspended included, and no row overflows")
    func newestInterruptionIsWhole() {
        var ui = InterfaceState(browser: nil)
        for index in 0..<60 { ui.record(TimedPlayerEvent(time: Double(index), event: .paused(position: Double(index)))) }
        ui.record(TimedPlayerEvent(time: 61, event: Self.interruption(.began, id: 7)))
        ui.record(TimedPlayerEvent(time: 62, event: Self.interruption(.ended, id: 7)))
        let terminal = draw(&ui)
        let log = logText(terminal)
        let pane = Layout(size: TerminalSize(columns: 120, rows: 40), banner: false, focus: .eventLog).panes[.eventLog]!
        #expect(pane.width < 100, "the pane is wide enough to hold the line unwrapped: \(pane.width)")
        let flat = log.split(separator: "\n").map { String($0).trimmingSpaces }.joined(separator: " ")
        #expect(flat.contains("62.000 interruption type=ended options=[\"shouldResume\"] reason=null wasSuspended=true id=7 source=alarm"),
                "\(log)")
        #expect(flat.contains("wasSuspended=true id=7 source=alarm"), "\(log)")
        #expect(!log.contains("…"))
        for row in 0..<40 { #expect(TextWidth.columns(of: terminal.line(row)) == 120, "row \(row)") }
    }

    @Test("a selected older entry shows whole too, and the entries below it make room")
    func selectedEntryIsWhole() {
        var ui = InterfaceState(browser: nil)
        ui.record(TimedPlayerEvent(time: 1, event: Self.interruption(.began, id: 3)))
        for index in 0..<60 { ui.record(TimedPlayerEvent(time: Double(2 + index), event: .paused(position: 1))) }
        _ = ui.handle(Key.character("5"), snapshot: PlayerSnapshot(), source: MemoryBrowserSource.library)
        // Up to the oldest entry.
        for _ in 0..<61 { _ = ui.handle(Key.named(.up), snapshot: PlayerSnapshot(), source: MemoryBrowserSource.library) }
        #expect(ui.logCursor.selection == 0)
        let flat = logText(draw(&ui)).split(separator: "\n").map { String($0).trimmingSpaces }.joined(separator: " ")
        #expect(flat.contains("1.000 interruption type=began options=[] reason=appWasSuspended wasSuspended=true id=3 source=alarm"),
                "\(flat)")
    }

    @Test("wrapping breaks between fields and never exceeds the width", arguments: [5, 12, 30, 61])
    func wrapping(width: Int) {
        let frame = Frame(size: TerminalSize(columns: 80, rows: 1))
        let text = "interruption type=ended options=[\"shouldResume\"] reason=null wasSuspended=true id=1 source=alarm 静夜思"
        let lines = ScreenRenderer.wrapped(text, width: width, frame: frame)
        #expect(lines.joined() == text)
        #expect(lines.allSatisfy { frame.width(of: $0) <= width }, "\(lines)")
        if width >= 30 { #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" ") }, "\(lines)") }
    }
}
