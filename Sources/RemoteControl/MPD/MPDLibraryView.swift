import MusicLibrary
import PlayerModel

/// The library index as MPD's clients see it, made on the worker's thread
/// from one read: the tracks inside their folders (`MPDDatabase.insideTheirFolders`)
/// in MPD's order (`MPDSongOrder`), where each song is, and where each
/// folder's songs are (a folder and the folders in it are one run in that order).
package struct MPDLibraryView: Sendable {
    package let tracks: [LibraryTrack]
    /// Each song's place in `tracks`, by its name below the music folder.
    package let positions: [String: Int]
    /// Each folder's run of songs in `tracks`, by its name (the top, `""`, is all of them).
    package let folders: [String: Range<Int>]
    /// When the index last changed, in seconds since 1970.
    package let updated: Int

    package init(_ tracks: [LibraryTrack], updated: Int) {
        let keys = tracks.map { track in
            MPDSongOrder.Key(path: track.relativePath, album: track.album, disc: track.discNumber, track: track.trackNumber)
        }
        let ordered = MPDSongOrder.walk(keys).map { tracks[$0] }
        var positions: [String: Int] = [:]
        var folders: [String: Range<Int>] = [:]
        positions.reserveCapacity(ordered.count)
        for (index, track) in ordered.enumerated() {
            positions[track.relativePath] = positions[track.relativePath] ?? index
            var folder = MPDSongOrder.parent(track.relativePath[...])
            while !folder.isEmpty {
                let name = String(folder)
                folders[name] = (folders[name]?.lowerBound ?? index)..<(index + 1)
                folder = MPDSongOrder.parent(folder)
            }
        }
        self.tracks = ordered
        self.positions = positions
        self.folders = folders
        self.updated = updated
    }
}
