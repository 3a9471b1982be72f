import MusicLibrary

/// The last few searches of the library pane, by query, sort and limit, kept
/// while the index is unchanged. A backspace in the filter asks for a search
/// made a key or two before; given back from here, that key costs no SQLite
/// and no conversion of 2,000 rows (about half of a key's time at 100,000
/// tracks). Anything committed to the index since, by this process's scan
/// or another's, changes SQLite's `data_version` and empties the list.
package struct LibraryRecentSearches {
    /// A word typed and erased a letter at a time is a handful of searches;
    /// each kept one is up to `LibraryPaneModel.limit` tracks.
    package static let capacity = 12

    private struct Entry {
        package let query: LibraryQuery
        package let sort: TrackSort?
        package let limit: Int
        package let tracks: [LibraryTrack]
    }

    private var entries: [Entry] = []
    private var version: Int64?

    /// The tracks `search` found for this query before, while the index is
    /// at `version`; else what it finds now (kept unless it throws).
    package mutating func tracks(for query: LibraryQuery, sort: TrackSort?, limit: Int, version: Int64,
                         search: () throws(SQLiteError) -> [LibraryTrack]) throws(SQLiteError) -> [LibraryTrack] {
        if version != self.version {
            entries.removeAll()
            self.version = version
        }
        if let hit = entries.firstIndex(where: { $0.query == query && $0.sort == sort && $0.limit == limit }) {
            let entry = entries.remove(at: hit)
            entries.append(entry)
            return entry.tracks
        }
        let found = try search()
        if entries.count >= Self.capacity { entries.removeFirst() }
        entries.append(Entry(query: query, sort: sort, limit: limit, tracks: found))
        return found
    }

    package init() {}
}
