#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import InterludeCore
import MusicLibrary

/// The music library's index: one SQLite file (WAL) at
/// `$XDG_CACHE_HOME/interlude/library.sqlite`, one row per file with its
/// size, modification time, duration, format and tags, and an FTS5 table of
/// the same rows' folded words (`SearchText`) for search. It is a cache:
/// deleted, damaged or from an older schema, it is set aside or removed and
/// built again by the next scan, with one line saying so (`notice`).
///
/// Threads: one `LibraryIndex` per thread (the scan thread writes through its
/// own, the main loop reads through another); WAL lets reads go on while a
/// scan commits.
package final class LibraryIndex {
    /// Bumped whenever the tables change: an index with another number (or
    /// tables and no number) is removed and rebuilt, never migrated: it holds
    /// nothing that a scan cannot recreate.
    /// 2: the artist, album artist and genre columns hold every value of a
    /// list (`stored`), not the values joined for showing.
    package static let schemaVersion = 3

    /// A list field's values as its column holds them: joined by U+001F (the
    /// unit separator, a control character no tag value holds); nil for none.
    package static func stored(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.joined(separator: "\u{1F}")
    }

    /// A list column's values (`stored`).
    package static func values(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        // By bytes: 0x1F is never part of another character in UTF-8, and a
        // control character always ends a grapheme, so this is the split by
        // Characters without their walk (a tenth of a filter key's time at
        // 100,000 tracks). One value, the usual case, is the text itself.
        guard text.utf8.contains(0x1F) else { return [text] }
        return text.utf8.split(separator: 0x1F).map { String(Substring($0)) }
    }

    package let path: String
    package let connection: SQLiteConnection
    /// What happened to the file on opening, for one line to the user; nil
    /// when it was opened as it was.
    package private(set) var notice: String?
    /// True when the index was created by this open (it holds nothing yet).
    package private(set) var isNew = false

    /// `$XDG_CACHE_HOME/interlude/library.sqlite`, `~/.cache/...` by default.
    package static func defaultPath(environment: [String: String]) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home == "/" ? "/.cache" : home + "/.cache")
        return cache + "/interlude/library.sqlite"
    }

    /// Opens the index at `path`, creating it (and its folder) when missing;
    /// a damaged file is moved to `path.damaged` and one from another schema
    /// removed, and either is created anew.
    package init(path: String) throws(LibraryError) {
        self.path = path
        let existed = access(path, F_OK) == 0
        // A file cut to nothing opens as an empty database: say what happened to it.
        let emptied = existed && Self.fileSize(path) == 0
        Self.makeDirectories(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        var opened: SQLiteConnection
        do {
            opened = try Self.openChecked(path: path)
        } catch {
            switch error {
            case .damaged(let reason):
                Self.removeCompanions(path)
                let aside = path + ".damaged"
                unlink(aside)
                rename(path, aside)
                notice = "the library index \(path) is damaged (\(reason)); moved to \(aside) and rebuilt"
            case .olderSchema(let version):
                Self.removeCompanions(path)
                unlink(path)
                notice = "the library index \(path) has another layout (schema \(version), this version uses \(Self.schemaVersion)); rebuilt"
            case .sqlite(let failure):
                throw .index(path: path, reason: failure.message)
            }
            do {
                opened = try Self.openChecked(path: path)
            } catch {
                throw .index(path: path, reason: error.reason)
            }
        }
        connection = opened
        do {
            if try Self.version(connection) == 0 {
                try Self.createSchema(connection)
                isNew = true
                if notice == nil && emptied { notice = "the library index \(path) is damaged (an empty file); rebuilt" }
                if notice == nil && !existed { notice = "no library index at \(path) yet; building it" }
            }
            try prepareStatements()
        } catch {
            throw LibraryError.index(path: path, reason: error.message)
        }
    }

    private enum OpenFailure: Error {
        case damaged(String)
        case olderSchema(Int)
        case sqlite(SQLiteError)

        package var reason: String {
            switch self {
            case .damaged(let reason): reason
            case .olderSchema(let version): "schema \(version)"
            case .sqlite(let error): error.message
            }
        }
    }

    private static func openChecked(path: String) throws(OpenFailure) -> SQLiteConnection {
        let connection: SQLiteConnection
        do { connection = try SQLiteConnection(path: path) } catch { throw .sqlite(error) }
        do {
            // WAL: the pane reads while a scan writes; NORMAL sync is safe in
            // WAL (a power cut loses at most the last commits, of a cache).
            // 8 KB pages for a new file (an existing one keeps its own): a
            // first scan's full-text inserts split and write fewer pages, 15%
            // less time for them than with 4 KB in a test of 40,000 rows.
            try connection.execute("PRAGMA page_size=8192; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
            let version = try self.version(connection)
            if version == 0 {
                // Either new (no tables) or something else that happens to be a database.
                let tables = try connection.prepare("SELECT count(*) FROM sqlite_master")
                _ = try tables.step()
                // Tables without a version: what an index written before versions were kept looks like.
                if (tables.integer(0) ?? 0) != 0 { throw OpenFailure.olderSchema(0) }
                return connection
            }
            if version != schemaVersion { throw OpenFailure.olderSchema(version) }
            // Reads every page of the tracks table: a file cut short fails here,
            // at start-up, not in the middle of a search.
            let count = try connection.prepare("SELECT count(*), sum(length(path)) FROM tracks")
            _ = try count.step()
            let search = try connection.prepare("SELECT count(*) FROM track_search")
            _ = try search.step()
            return connection
        } catch let error as SQLiteError {
            connection.close()
            if error.meansDamagedFile { throw .damaged(error.message) }
            throw .sqlite(error)
        } catch let failure as OpenFailure {
            connection.close()
            throw failure
        } catch {
            connection.close()
            throw .damaged("\(error)")
        }
    }

    private static func version(_ connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let statement = try connection.prepare("PRAGMA user_version")
        _ = try statement.step()
        return Int(statement.integer(0) ?? 0)
    }

    private static func createSchema(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.transaction { () throws(SQLiteError) in
            try connection.execute("""
            CREATE TABLE tracks (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE,
                relative_path TEXT NOT NULL,
                size INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                duration REAL,
                format TEXT,
                sample_rate INTEGER, channels INTEGER,
                title TEXT, artist TEXT, album TEXT, album_artist TEXT,
                track_number INTEGER, disc_number INTEGER, year INTEGER, genre TEXT,
                track_gain REAL, track_peak REAL, album_gain REAL, album_peak REAL,
                artist_key TEXT NOT NULL, album_key TEXT NOT NULL, title_key TEXT NOT NULL, genre_key TEXT NOT NULL
            );
            CREATE INDEX tracks_by_artist ON tracks(artist_key, album_key);
            -- Prefix indexes for one and two letters (what the first keys of a
            -- search type); no column sizes (they serve ranking, which we do not
            -- use): a first scan of 100,000 files 15% faster than with '1 2 3'.
            CREATE VIRTUAL TABLE track_search USING fts5(
                title, artist, album, albumartist, genre, path,
                tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2', columnsize = 0
            );
            PRAGMA user_version = \(schemaVersion);
            """)
        }
    }

    // MARK: Statements

    private var upsertStatement: SQLiteStatement!
    private var insertStatement: SQLiteStatement!
    private var idStatement: SQLiteStatement!
    private var searchDelete: SQLiteStatement!
    private var searchInsert: SQLiteStatement!
    private var highestSearchRow: SQLiteStatement!
    private var deleteStatement: SQLiteStatement!
    private var dataVersionStatement: SQLiteStatement?
    /// `shownTracks(ids:)`'s statement, prepared at its first use.
    var shownByID: SQLiteStatement?

    private static let columns = """
        path, size, mtime_ns, duration, format, title, artist, album, album_artist, track_number, disc_number, \
        year, genre, track_gain, track_peak, album_gain, album_peak, relative_path, sample_rate, channels
        """

    private func prepareStatements() throws(SQLiteError) {
        upsertStatement = try connection.prepare("""
            INSERT INTO tracks (\(Self.columns), artist_key, album_key, title_key, genre_key)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?22, ?23, ?24, ?18, ?19, ?20, ?21)
            ON CONFLICT(path) DO UPDATE SET size = ?2, mtime_ns = ?3, duration = ?4, format = ?5, title = ?6,
                artist = ?7, album = ?8, album_artist = ?9, track_number = ?10, disc_number = ?11, year = ?12,
                genre = ?13, track_gain = ?14, track_peak = ?15, album_gain = ?16, album_peak = ?17,
                artist_key = ?18, album_key = ?19, title_key = ?20, genre_key = ?21, relative_path = ?22,
                sample_rate = ?23, channels = ?24
            RETURNING id
            """)
        // A file the scan has not seen before: a plain insert, its id from
        // the connection. RETURNING stores its row in a table of its own
        // before giving it back, a third more per row than this.
        insertStatement = try connection.prepare("""
            INSERT OR IGNORE INTO tracks (\(Self.columns), artist_key, album_key, title_key, genre_key)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?22, ?23, ?24, ?18, ?19, ?20, ?21)
            """)
        idStatement = try connection.prepare("SELECT id FROM tracks WHERE path = ?1")
        searchDelete = try connection.prepare("DELETE FROM track_search WHERE rowid = ?1")
        searchInsert = try connection.prepare("""
            INSERT INTO track_search (rowid, title, artist, album, albumartist, genre, path)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        highestSearchRow = try connection.prepare("SELECT rowid FROM track_search ORDER BY rowid DESC LIMIT 1")
        deleteStatement = try connection.prepare("DELETE FROM tracks WHERE id = ?1")
    }

    // MARK: Writing

    /// For the scan's connection: a 64 MB page cache, since a first scan's
    /// full-text inserts touch the same segment pages again and again. Not for
    /// the pane's connection, whose searches do well with SQLite's 2 MB and
    /// whose process should stay small.
    package func prepareForScan() throws(SQLiteError) {
        try connection.execute("PRAGMA cache_size=-65536")
    }

    /// A track with the words the index keeps for it: its sort keys and its
    /// full-text columns, folded (`SearchText`). Made where the track is read
    /// (the scan's walk), so the writer thread, a first scan's slower half,
    /// only talks to SQLite.
    package struct StoredRow {
        package let track: LibraryTrack
        /// Not in the index when the scan began (a path its diff had not seen).
        package let isNew: Bool
        package let artistKey, albumKey, titleKey, genreKey: String
        package let searchTitle, searchArtist, searchAlbumArtist, searchPath: String

        package init(_ track: LibraryTrack, isNew: Bool = false) {
            self.track = track
            self.isNew = isNew
            // Each text folded once: the keys and the full-text columns agree
            // wherever they fold the same text.
            searchArtist = SearchText.indexed(track.artist)
            artistKey = track.artist != nil ? searchArtist : TrackSort.key(track.albumArtist)
            albumKey = TrackSort.key(track.album)
            let titleKey = TrackSort.key(track.displayTitle)
            self.titleKey = titleKey
            // Blank when the tag is there but empty (its key is the file's name).
            searchTitle = track.title?.isEmpty == true ? "" : titleKey
            genreKey = TrackSort.key(track.genre)
            searchAlbumArtist = SearchText.indexed(track.albumArtist)
            searchPath = SearchText.indexed(track.relativePath)
        }
    }

    /// Adds or replaces the rows of `tracks` (by path) in one transaction.
    package func store(_ tracks: [LibraryTrack]) throws(SQLiteError) {
        try store(rows: tracks.map { StoredRow($0) })
    }

    package func store(rows: [StoredRow]) throws(SQLiteError) {
        try connection.transaction { () throws(SQLiteError) in
            // A row id above every full-text row's has none to delete: SQLite
            // gives a new row the highest id plus one, so on a first scan every
            // delete is skipped (each was a lookup in the full-text table).
            // Read inside the transaction (BEGIN IMMEDIATE), so no other
            // connection adds rows meanwhile.
            var highestIndexed = try highestSearchRow.step() ? highestSearchRow.integer(0) ?? 0 : 0
            highestSearchRow.reset()
            for row in rows {
                let track = row.track
                let values: [SQLiteStatement.Value] = [
                    .text(track.path), .integer(track.size), .integer(track.modifiedNanoseconds), .real(track.durationSeconds),
                    .text(track.format), .text(track.title), .text(Self.stored(track.artists)), .text(track.album),
                    .text(Self.stored(track.albumArtists)),
                    .integer(track.trackNumber.map(Int64.init)), .integer(track.discNumber.map(Int64.init)),
                    .integer(track.year.map(Int64.init)), .text(Self.stored(track.genres)),
                    .real(track.trackGain), .real(track.trackPeak), .real(track.albumGain), .real(track.albumPeak),
                    .text(row.artistKey), .text(row.albumKey), .text(row.titleKey), .text(row.genreKey), .text(track.relativePath),
                    .integer(track.sampleRate.map(Int64.init)), .integer(track.channels.map(Int64.init)),
                ]
                let id: Int64
                if row.isNew, try insert(values) {
                    id = connection.lastInsertedRowID
                } else {
                    // RETURNING gives the row's id whether it was inserted or updated.
                    try upsertStatement.bind(values)
                    guard try upsertStatement.step(), let found = upsertStatement.integer(0) else { continue }
                    upsertStatement.reset()
                    id = found
                }
                if id <= highestIndexed { try searchDelete.run([.integer(id)]) }
                highestIndexed = max(highestIndexed, id)
                try searchInsert.run([
                    .integer(id), .text(row.searchTitle), .text(row.searchArtist), .text(row.albumKey),
                    .text(row.searchAlbumArtist), .text(row.genreKey), .text(row.searchPath),
                ])
            }
        }
    }

    /// False when the path was there after all (another scan stored it
    /// meanwhile): the caller then updates the row.
    private func insert(_ values: [SQLiteStatement.Value]) throws(SQLiteError) -> Bool {
        try insertStatement.run(values)
        return connection.changes > 0
    }

    /// Drops the rows of `paths` (files gone since the last scan), in one transaction.
    package func remove(paths: [String]) throws(SQLiteError) {
        guard !paths.isEmpty else { return }
        try connection.transaction { () throws(SQLiteError) in
            for path in paths {
                guard let id = try id(of: path) else { continue }
                try searchDelete.run([.integer(id)])
                try deleteStatement.run([.integer(id)])
            }
        }
    }

    private func id(of path: String) throws(SQLiteError) -> Int64? {
        try idStatement.bind([.text(path)])
        defer { idStatement.reset() }
        return try idStatement.step() ? idStatement.integer(0) : nil
    }

    /// Finalizes the statements and closes the file (also done on deinit).
    package func close() {
        upsertStatement = nil
        insertStatement = nil
        idStatement = nil
        searchDelete = nil
        searchInsert = nil
        highestSearchRow = nil
        deleteStatement = nil
        searchStatements = [:]
        dataVersionStatement = nil
        shownByID = nil
        connection.close()
    }

    // MARK: Reading

    /// What the index knows of each file, for the rescan's diff.
    package func stamps() throws(SQLiteError) -> [String: ScanDiff.Stamp] {
        let statement = try connection.prepare("SELECT path, size, mtime_ns FROM tracks")
        var stamps: [String: ScanDiff.Stamp] = [:]
        while try statement.step() {
            guard let path = statement.text(0) else { continue }
            stamps[path] = ScanDiff.Stamp(size: statement.integer(1) ?? 0, modifiedNanoseconds: statement.integer(2) ?? 0)
        }
        return stamps
    }

    /// The tracks the query matches, in `sort`'s order, at most `limit` of them.
    /// Without a sort, in the order the scan found them (folder by folder):
    /// the full-text index gives its matches in that order, so a search for
    /// one letter stops after `limit` rows instead of sorting 100,000.
    /// `columns: .shown` reads only what the library pane shows and groups by.
    /// `vocabulary`, the index's words as they are now, turns long prefixes
    /// into the words they begin (`LibraryQuery.fullText(vocabulary:)`).
    package func search(_ query: LibraryQuery, sort: TrackSort? = TrackSort(), limit: Int? = nil,
                columns: RowColumns = .all, vocabulary: SearchVocabulary? = nil) throws(SQLiteError) -> [LibraryTrack] {
        var clauses: [String] = []
        var values: [SQLiteStatement.Value] = []
        var from = "tracks"
        var foundOrder = "tracks.id"
        let fullText = query.fullText(vocabulary: vocabulary)
        if fullText == .nothing { return [] }
        if case .expression(let expression) = fullText {
            // Ordered by the full-text table's own rowid, SQLite reads its
            // matches in order and stops at the limit (3 ms for a one-letter
            // search at 100,000 tracks); by tracks.id it sorted them all (58 ms).
            from = "track_search JOIN tracks ON track_search.rowid = tracks.id"
            foundOrder = "track_search.rowid"
            values.append(.text(expression))
            clauses.append("track_search MATCH ?\(values.count)")
        }
        for range in query.years {
            values.append(.integer(Int64(range.lowerBound)))
            values.append(.integer(Int64(range.upperBound)))
            clauses.append("tracks.year BETWEEN ?\(values.count - 1) AND ?\(values.count)")
        }
        var sql = "SELECT \(columns == .all ? Self.qualifiedColumns : Self.shownColumns) FROM \(from)"
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        sql += " ORDER BY " + (sort?.orderBy() ?? foundOrder)
        if let limit { sql += " LIMIT \(limit)" }
        let statement = try searchStatement(sql)
        try statement.bind(values)
        // Reset on every way out: a statement left mid-read keeps its read
        // transaction (and the WAL it reads) open until its next use.
        defer { statement.reset() }
        var tracks: [LibraryTrack] = []
        // The pane's limit; a command's could be any number.
        tracks.reserveCapacity(min(limit ?? 0, 2000))
        if columns == .all {
            while try statement.step() { tracks.append(Self.track(statement)) }
        } else {
            while try statement.step() { tracks.append(Self.shownTrack(statement)) }
        }
        return tracks
    }

    /// The statements of recent searches, by their SQL: a search's shape
    /// (full text or not, which sort, how many year terms) repeats from key
    /// to key, and preparing the join was 3% of a typing profile.
    private var searchStatements: [String: SQLiteStatement] = [:]

    private func searchStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = searchStatements[sql] { return statement }
        let statement = try connection.prepare(sql)
        // A handful of shapes are typed; a bound keeps a long session's set small.
        if searchStatements.count >= 16 { searchStatements.removeAll() }
        searchStatements[sql] = statement
        return statement
    }

    /// `sql` prepared at its first use and kept in `slot` for the next.
    func prepareOnce(_ slot: inout SQLiteStatement?, _ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let prepared = slot { return prepared }
        let statement = try connection.prepare(sql)
        slot = statement
        return statement
    }

    /// SQLite's `data_version`: a number that changes when another
    /// connection (the scan's, another process's) has committed since the
    /// last call on this one.
    package func dataVersion() throws(SQLiteError) -> Int64 {
        let statement = try prepareOnce(&dataVersionStatement, "PRAGMA data_version")
        defer { statement.reset() }
        return try statement.step() ? statement.integer(0) ?? 0 : 0
    }

    /// What a search reads of each row.
    package enum RowColumns {
        case all
        /// The path, length, title, artist, album, album artist, numbers and
        /// year: what the library pane draws, groups and sorts its tree by.
        /// A key of the filter reads up to 2,000 rows; the other columns
        /// (the path below the folder, format, genre, stamps, gains) were
        /// a third of the strings made for them. `relativePath` is the path.
        case shown
    }

    static let shownColumns = """
        tracks.path, tracks.duration, tracks.title, tracks.artist, tracks.album, tracks.album_artist, \
        tracks.track_number, tracks.disc_number, tracks.year
        """

    static func shownTrack(_ row: SQLiteStatement) -> LibraryTrack {
        var track = LibraryTrack(path: row.text(0) ?? "", durationSeconds: row.real(1), title: row.text(2), album: row.text(4),
                                 trackNumber: row.integer(6).map(Int.init), discNumber: row.integer(7).map(Int.init),
                                 year: row.integer(8).map(Int.init))
        track.artists = values(row.text(3))
        track.albumArtists = values(row.text(5))
        return track
    }

    /// Every track, in `sort`'s order.
    package func allTracks(sort: TrackSort = TrackSort()) throws(SQLiteError) -> [LibraryTrack] {
        try search(LibraryQuery(""), sort: sort)
    }

    package static let qualifiedColumns = columns.split(separator: ",").map { "tracks." + $0.trimmingSpaces() }.joined(separator: ", ")

    package static func track(_ row: SQLiteStatement) -> LibraryTrack {
        var track = LibraryTrack(path: row.text(0) ?? "", size: row.integer(1) ?? 0, modifiedNanoseconds: row.integer(2) ?? 0,
                     durationSeconds: row.real(3), format: row.text(4), title: row.text(5),
                     album: row.text(7), trackNumber: row.integer(9).map(Int.init),
                     discNumber: row.integer(10).map(Int.init), year: row.integer(11).map(Int.init),
                     trackGain: row.real(13), trackPeak: row.real(14), albumGain: row.real(15), albumPeak: row.real(16))
        track.artists = values(row.text(6))
        track.albumArtists = values(row.text(8))
        track.genres = values(row.text(12))
        track.relativePath = row.text(17) ?? track.path
        track.sampleRate = row.integer(18).map(Int.init)
        track.channels = row.integer(19).map(Int.init)
        return track
    }

    package struct Statistics: Equatable {
        package var tracks = 0
        package var artists = 0
        package var albums = 0
        package var seconds = 0.0
        package var bytes: Int64 = 0
        package var missingLoudness = 0
    }

    package func statistics() throws(SQLiteError) -> Statistics {
        let statement = try connection.prepare("""
            SELECT count(*), count(DISTINCT artist_key), count(DISTINCT album_key), total(duration), total(size),
                   sum(track_gain IS NULL)
            FROM tracks
            """)
        _ = try statement.step()
        return Statistics(tracks: Int(statement.integer(0) ?? 0), artists: Int(statement.integer(1) ?? 0),
                          albums: Int(statement.integer(2) ?? 0), seconds: statement.real(3) ?? 0,
                          bytes: Int64(statement.real(4) ?? 0), missingLoudness: Int(statement.integer(5) ?? 0))
    }

    // MARK: Loudness (ReplayGain values `library scan --loudness` computes)

    /// The tracks without a track gain, by path: what `--loudness` measures.
    package func rowsMissingLoudness() throws(SQLiteError) -> [LibraryTrack] {
        let statement = try connection.prepare(
            "SELECT \(Self.qualifiedColumns) FROM tracks WHERE track_gain IS NULL ORDER BY path")
        var tracks: [LibraryTrack] = []
        while try statement.step() { tracks.append(Self.track(statement)) }
        return tracks
    }

    /// The ReplayGain values the index holds for the file at `path` (from its
    /// tags at scan, or measured by `scan --loudness`); nil when not indexed.
    package func loudness(path: String) throws(SQLiteError) -> (trackGain: Double?, trackPeak: Double?, albumGain: Double?, albumPeak: Double?)? {
        let statement = try connection.prepare("SELECT track_gain, track_peak, album_gain, album_peak FROM tracks WHERE path = ?1")
        try statement.bind([.text(path)])
        guard try statement.step() else { return nil }
        return (statement.real(0), statement.real(1), statement.real(2), statement.real(3))
    }

    /// Stores measured gains (dB) and peaks (linear, 1.0 full scale) for the
    /// file at `path`; the album pair is left as it was when not given.
    /// Returns false when the index has no such file.
    @discardableResult
    package func setLoudness(path: String, trackGain: Double, trackPeak: Double,
                     albumGain: Double? = nil, albumPeak: Double? = nil) throws(SQLiteError) -> Bool {
        let statement = try connection.prepare("""
            UPDATE tracks SET track_gain = ?2, track_peak = ?3,
                album_gain = coalesce(?4, album_gain), album_peak = coalesce(?5, album_peak)
            WHERE path = ?1
            """)
        try statement.run([.text(path), .real(trackGain), .real(trackPeak), .real(albumGain), .real(albumPeak)])
        return connection.changes > 0
    }

    // MARK: Files

    private static func removeCompanions(_ path: String) {
        unlink(path + "-wal")
        unlink(path + "-shm")
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }

    /// The index's folder and its parents, 0700 where created (a cache of
    /// what someone listens to is theirs alone).
    private static func makeDirectories(_ directory: String) {
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            mkdir(prefix, 0o700)
        }
    }
}

private extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
