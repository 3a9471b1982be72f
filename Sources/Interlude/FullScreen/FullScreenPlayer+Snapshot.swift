import LoopIO
import PlayerModel
import Playlists
import TUI

/// What the screen shows: the core's snapshot, with the screen's own rows (books, playlists).
extension FullScreenPlayer {
    func snapshot(_ core: any PlayerCore) -> PlayerSnapshot {
        var snapshot = core.snapshot(.full)
        snapshot.books = shelf.rows(playing: snapshot)
        snapshot.playlists = playlists
        return snapshot
    }

    /// The `.m3u`/`.m3u8` files in `$XDG_DATA_HOME/interlude/playlists`, by name.
    func refreshPlaylists() {
        let directory = PlaylistFile.directory(environment: ProcessEnvironment.current())
        playlists = PlaylistFile.list(in: directory).map { PlaylistRow(name: $0, path: directory + "/" + $0) }
        for screen in screens { screen.redraw.setNeedsDraw() }
    }
}
