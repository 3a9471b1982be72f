import MusicLibrary
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The library index as MPD's clients see it, made on the worker's thread
/// from one read: the tracks inside their folders (`MPDDatabase.insideTheirFolders`)
/// in MPD's order (`MPDSongOrder`), where each song is, and where each
/// folder's songs are (a folder and the folders in it are one run in that
/// order) with its time, a `stat` of each folder once.
package struct MPDLibraryView: Sendable {
    package let tracks: [LibraryTrack]
    /// Each song's place in `tracks`, by its name below the music folder.
    package let positions: [String: Int]
    /// Each folder's run of songs in `tracks`, by its name (the top, `""`, is all of them).
    package let folders: [String: Range<Int>]
    /// Each folder's modification time (seconds since 1970), `lsinfo`'s `Last-Modified` for it.
    package let folderTimes: [String: Int]
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
        var folderTimes: [String: Int] = [:]
        for (index, track) in ordered.enumerated() {
            positions[track.relativePath] = positions[track.relativePath] ?? index
            var folder = MPDSongOrder.parent(track.relativePath[...])
            while !folder.isEmpty {
                let name = String(folder)
                if let run = folders[name] {
                    folders[name] = run.lowerBound..<(index + 1)
                } else {
                    folders[name] = index..<(index + 1)
                    // The folder on the disk: the track's path less what follows the folder's name in it.
                    let below = track.relativePath.utf8.count - folder.utf8.count
                    var info = stat()
                    if stat(String(decoding: track.path.utf8.dropLast(below), as: UTF8.self), &info) == 0 {
                        folderTimes[name] = info.st_mtim.tv_sec
                    }
                }
                folder = MPDSongOrder.parent(folder)
            }
        }
        self.tracks = ordered
        self.positions = positions
        self.folders = folders
        self.folderTimes = folderTimes
        self.updated = updated
    }
}
