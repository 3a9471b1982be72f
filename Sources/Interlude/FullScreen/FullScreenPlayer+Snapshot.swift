import PlayerModel
import TUI

/// What the screen shows: the runtime's snapshot, with the books pane's rows.
extension FullScreenPlayer {
    func snapshot(_ runtime: PlayerRuntime) -> PlayerSnapshot {
        var snapshot = runtime.snapshot(tags: tags(of:))
        snapshot.books = shelf.rows(current: book)
        return snapshot
    }

    func tags(of path: String) -> TrackTags {
        if let known = tags[path] { return known }
        let read = TrackTags.read(path: path)
        tags[path] = read
        return read
    }
}
