import BookFormat
import Streams
import TUI

/// The lyrics pane's lyrics: those of the file heard now, found when that
/// file changes while the pane shows (`NAME.lrc` beside it, else its tags,
/// which `TrackTagStore` has read once already), so a player whose lyrics
/// pane is never opened reads no `.lrc` file.
extension FullScreenPlayer {
    func updateLyrics(_ runtime: PlayerRuntime) {
        guard ui.focus == .lyrics || ui.topRight == .lyrics else { return }
        let path = runtime.current?.path
        guard path != ui.lyricsPane.path || (path == nil && ui.lyricsPane.lyrics != nil) else { return }
        // A station's lyrics are not known; a file's are beside it or in its tags.
        let lyrics = path.flatMap { path -> Lyrics? in
            if case .url = StreamLocation.classify(path) { return nil }
            return Lyrics.find(audioPath: path, tags: runtime.trackTags.tags(of: path))
        }
        ui.lyricsPane.show(lyrics, of: path)
        redraw.setNeedsDraw()
    }
}
