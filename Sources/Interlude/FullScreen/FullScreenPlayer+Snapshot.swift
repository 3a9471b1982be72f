import LoopIO
import Core
import PlayerModel
import Playlists
import TUI

/// What the screen shows: the runtime's snapshot, with the books pane's rows.
extension FullScreenPlayer {
    func snapshot(_ runtime: PlayerRuntime) -> PlayerSnapshot {
        var snapshot = runtime.snapshot()
        snapshot.books = shelf.rows(current: book)
        snapshot.playlists = playlists
        snapshot.stations = runtime.favouriteStations.rows
        snapshot.podcasts = runtime.podcasts.shownRows
        snapshot.podcastActivity = runtime.podcasts.activity
        return snapshot
    }

    /// The `.m3u`/`.m3u8` files in `$XDG_DATA_HOME/interlude/playlists`, by name.
    func refreshPlaylists() {
        let directory = PlaylistFile.directory(environment: ProcessEnvironment.current())
        playlists = PlaylistFile.list(in: directory).map { PlaylistRow(name: $0, path: directory + "/" + $0) }
        redraw.setNeedsDraw()
    }
}
