import MusicLibrary

/// The whole library's artists (`LibraryCatalog`) and the rows of one of
/// them, for the unfiltered tree: a search brings in at most 2,000 tracks,
/// which at 100,000 would leave most artists out of the tree.
extension LibraryIndex {
    /// Reads only the columns filing needs, row by row in the scan's order
    /// (a folder's tracks together, the order the builder groups fastest in).
    /// Run off the main loop (`LibraryLiveIndex`): it reads every row.
    package func catalog() throws(SQLiteError) -> LibraryCatalog {
        let statement = try connection.prepare("SELECT id, path, album, album_artist, artist FROM tracks ORDER BY id")
        var builder = LibraryCatalog.Builder()
        while try statement.step() {
            guard let id = statement.integer(0), let path = statement.text(1) else { continue }
            builder.add(id: id, path: path, album: statement.text(2), albumArtists: Self.values(statement.text(3)),
                        artists: Self.values(statement.text(4)))
        }
        return builder.build()
    }

    /// Every word of the full-text table, in its order (by bytes), through
    /// a temporary `fts5vocab` table of this connection. It reads every
    /// word's matches to count them (a quarter of a second at 100,000
    /// tracks): run off the main loop, as the catalog is.
    package func vocabulary() throws(SQLiteError) -> SearchVocabulary {
        try connection.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.track_words USING fts5vocab(main, track_search, 'row')")
        let statement = try connection.prepare("SELECT term FROM temp.track_words")
        var words: [String] = []
        while try statement.step() {
            if let word = statement.text(0) { words.append(word) }
        }
        return SearchVocabulary(words: words)
    }

    /// The full rows of `ids` (in no particular order), read by primary key in
    /// chunks below SQLite's limit on bound values.
    package func tracks(ids: [Int64]) throws(SQLiteError) -> [LibraryTrack] {
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
