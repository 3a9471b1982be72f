import PlayerModel
import BookFormat
import Streams
import TUI

/// The lyrics pane's lyrics: those of the file heard now, asked for when that
/// file changes while the pane shows (`NAME.lrc` beside it, else its tags,
/// which `TrackTagStore` has read once already) and found off the main loop
/// (`LyricsLoader`), so a player whose lyrics pane is never opened reads no
/// `.lrc` file, and one whose `.lrc` is slow to read goes on meanwhile.
extension Screen {
    func updateLyrics(_ core: any PlayerCore, playing path: String?) {
        guard ui.focus == .lyrics || ui.topRight == .lyrics else { return }
        let loader = lyricsLoader ?? makeLyricsLoader()
        guard path != loader.requested || (path == nil && ui.lyricsPane.lyrics != nil) else { return }
        // Until they come the pane shows none: not the last file's.
        ui.lyricsPane.show(nil, of: path)
        redraw.setNeedsDraw()
        // A station's lyrics are not known; a file's are beside it or in its tags.
        guard let path, !StreamLocation.isStation(path) else { return loader.skip(path) }
        loader.request(path, tags: core.snapshot(.tags(of: [path])).tags[path] ?? AudioTags())
    }

    private func isStation(_ path: String) -> Bool {
        if case .url = StreamLocation.classify(path) { return true }
        return false
    }

    private func makeLyricsLoader() -> LyricsLoader {
        let loader = LyricsLoader()
        loader.onLoaded = { [unowned self] path, lyrics in
            ui.lyricsPane.show(lyrics, of: path)
            redraw.setNeedsDraw()
        }
        lyricsLoader = loader
        return loader
    }
}
