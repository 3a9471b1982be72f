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

    /// Every track's full-text words and year, in the index's order, for
    /// the pane's in-memory search (`LibrarySearchTable`). Reads every row:
    /// run off the main loop, as the catalog is. Nil when the library
    /// outgrew the table (it is then searched through the index alone).
    /// `first`: only that many tracks, the first in the index's order (not `isWhole`).
    package func searchTable(first: Int? = nil) throws(SQLiteError) -> LibrarySearchTable? {
        let count = try connection.prepare("SELECT count(*) FROM tracks")
        _ = try count.step()
        let total = Int(count.integer(0) ?? 0)
        var builder = LibrarySearchTable.Builder(expectedTracks: min(total, first ?? total))
        let limit = first.map { " LIMIT \(max(0, $0))" } ?? ""
        // The full-text table's own copy of its columns, `c0`... in its
        // declared order (`LibraryQuery.Column.allCases`'): read as a table,
        // a third of the time the same rows took through the full-text table.
        let statement: SQLiteStatement
        let columns = LibraryQuery.Column.allCases.indices.map { "content.c\($0)" }.joined(separator: ", ")
        do {
            statement = try connection.prepare("""
                SELECT tracks.id, tracks.year, \(columns)
                FROM tracks JOIN track_search_content AS content ON content.id = tracks.id ORDER BY tracks.id\(limit)
                """)
        } catch {
            let named = LibraryQuery.Column.allCases.map { "track_search." + $0.rawValue }.joined(separator: ", ")
            statement = try connection.prepare("""
                SELECT tracks.id, tracks.year, \(named)
                FROM tracks JOIN track_search ON track_search.rowid = tracks.id ORDER BY tracks.id\(limit)
                """)
        }
        while try statement.step() {
            guard let id = statement.integer(0) else { continue }
            for column in LibraryQuery.Column.allCases.indices {
                statement.withTextBytes(Int32(2 + column)) { builder.add(column: column, text: $0) }
            }
            builder.finishTrack(id: id, year: statement.integer(1).map(Int.init))
        }
        guard var table = builder.build() else { return nil }
        table.isWhole = first.map { table.count < $0 } ?? true
        return table
    }

    /// The rows the library pane shows (`RowColumns.shown`) of `ids`, in
    /// their order (an id no row has is left out), each read by its primary
    /// key; those in `known` are taken from there.
    package func shownTracks(ids: [Int64], known: [Int64: LibraryTrack] = [:]) throws(SQLiteError) -> [LibraryTrack] {
        let statement = try prepareOnce(&shownByID, "SELECT \(Self.shownColumns) FROM tracks WHERE id = ?1")
        var tracks: [LibraryTrack] = []
        tracks.reserveCapacity(ids.count)
        for id in ids {
            if let track = known[id] {
                tracks.append(track)
                continue
            }
            try statement.bind([.integer(id)])
            defer { statement.reset() }
            if try statement.step() { tracks.append(Self.shownTrack(statement)) }
        }
        return tracks
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
