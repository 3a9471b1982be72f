import MusicLibrary

/// The whole library's artists (`LibraryCatalog`) and the rows of one of
/// them, for the unfiltered tree: a search brings in at most 2,000 tracks,
/// which at 100,000 would leave most artists out of the tree.
extension LibraryIndex {
    /// Reads only the columns filing needs, in the scan's order (the order
    /// `LibraryTree` groups fastest in). About a quarter of a second at
    /// 100,000 tracks: run off the main loop (`LibraryLiveIndex`).
    func catalog() throws(SQLiteError) -> LibraryCatalog {
        let statement = try connection.prepare("SELECT id, path, album, album_artist, artist, year FROM tracks ORDER BY id")
        var rows: [(id: Int64, track: LibraryTrack)] = []
        while try statement.step() {
            guard let id = statement.integer(0), let path = statement.text(1) else { continue }
            rows.append((id, LibraryTrack(path: path, artist: statement.text(4), album: statement.text(2),
                                          albumArtist: statement.text(3), year: statement.integer(5).map(Int.init))))
        }
        return LibraryCatalog(rows: rows)
    }

    /// The full rows of `ids` (in no particular order), read by primary key in
    /// chunks below SQLite's limit on bound values.
    func tracks(ids: [Int64]) throws(SQLiteError) -> [LibraryTrack] {
        var tracks: [LibraryTrack] = []
        tracks.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(ids.count, start + 500)]
            let marks = (1...chunk.count).map { "?\($0)" }.joined(separator: ",")
            let statement = try connection.prepare("SELECT \(Self.qualifiedColumns) FROM tracks WHERE id IN (\(marks))")
            try statement.bind(chunk.map { .integer($0) })
            while try statement.step() { tracks.append(Self.track(statement)) }
            start += chunk.count
        }
        return tracks
    }
}
