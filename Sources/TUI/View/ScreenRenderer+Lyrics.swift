import BookFormat
import PlayerModel
import Themes

/// The lyrics pane: the problem met reading them (one line), then the lines;
/// for timed lyrics the line at the heard position drawn as the playing row
/// and kept in view. The position is the snapshot's, the frame the listener
/// hears (not the one decoded), so the highlight stops with the sound in an
/// interruption and follows seeks and speed changes with it.
extension ScreenRenderer {
    func drawLyrics(_ frame: inout Frame, _ area: Rect, state: InterfaceState, snapshot: PlayerSnapshot) {
        var row = area.row
        let end = area.row + area.height
        func line(_ text: String, _ element: ThemeElement) {
            guard row < end else { return }
            frame.writePadded(" " + frame.truncated(text, to: area.width - 2), row: row, column: area.column,
                              width: area.width, element: element)
            row += 1
        }
        let pane = state.lyricsPane
        guard let lyrics = pane.lyrics else {
            line(snapshot.currentIndex == nil ? "nothing playing" : "no lyrics", .secondaryText)
            fill(&frame, area, from: row)
            return
        }
        if let problem = lyrics.problem { line(problem, .errorText) }
        let texts = lyrics.texts
        if texts.isEmpty { line("no lyrics", .secondaryText) }
        let heard = Self.lyricsMilliseconds(snapshot.fileElapsed)
        let window = pane.window(height: end - row, atMilliseconds: heard)
        for index in window.lines {
            line(texts[index], index == window.current ? .playingRow : .listRow)
        }
        fill(&frame, area, from: row)
    }

    /// The heard seconds in whole milliseconds, rounded down as the clock
    /// beside them is (a line at 3 s is not lit while the clock says 0:02),
    /// clamped first so no snapshot value can trap the conversion.
    static func lyricsMilliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((min(seconds, Double(Lyrics.maximumMilliseconds) / 1000) * 1000).rounded(.down))
    }

    private func fill(_ frame: inout Frame, _ area: Rect, from row: Int) {
        for line in row..<(area.row + area.height) {
            frame.fill(row: line, column: area.column, count: area.width, element: .listRow)
        }
    }
}

