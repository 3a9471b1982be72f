/// The whole library's artists for the unfiltered tree: each artist's name,
/// how many albums and tracks it has, and the ids of its tracks in the
/// index, so the tree can list every artist of a library of 100,000 tracks
/// and read an artist's albums only when it is opened.
///
/// Filed by the same rules as `LibraryTree` (`AlbumFiling`), but built row by
/// row (`Builder`) from a few columns, keeping per album only what filing
/// needs and its ids: a tree of 100,000 tracks would hold every track at once
/// (about 100 MB).
public struct LibraryCatalog: Equatable, Sendable {
    public struct Artist: Equatable, Sendable {
        public let name: String
        public let albums: Int
        public let tracks: Int
        /// The index's ids of the artist's tracks, in no particular order.
        public let ids: [Int64]

        public init(name: String, albums: Int, tracks: Int, ids: [Int64]) {
            self.name = name
            self.albums = albums
            self.tracks = tracks
            self.ids = ids
        }
    }

    /// In `LibraryTree`'s order.
    public let artists: [Artist]
    /// Every track once (a track filed under two artists is in both).
    public let trackCount: Int

    /// `trackCount`: by default, the artists' tracks summed (each filed under one artist).
    public init(artists: [Artist], trackCount: Int? = nil) {
        self.artists = artists
        self.trackCount = trackCount ?? artists.reduce(0) { $0 + $1.tracks }
    }

    /// All at once, for callers that have the rows in memory.
    public init(rows: [(id: Int64, track: LibraryTrack)]) {
        var builder = Builder()
        for row in rows {
            builder.add(id: row.id, path: row.track.path, album: row.track.album, albumArtists: row.track.albumArtists,
                        artists: row.track.artists)
        }
        self = builder.build()
    }

    /// Takes rows one by one, fastest in the scan's order (a folder's tracks
    /// one after another), as the index gives them.
    public struct Builder {
        private var filing = AlbumFiling()
        /// Each album's ids, by its index in `filing.albums`.
        private var ids: [[Int64]] = []

        public init() {}

        public mutating func add(id: Int64, path: String, album: String?, albumArtists: [String], artists: [String]) {
            let index = filing.add(path: path, album: album, albumArtists: albumArtists, artists: artists)
            if index == ids.count { ids.append([]) }
            ids[index].append(id)
        }

        public func build() -> LibraryCatalog {
            var byArtist: [String: (albums: Int, ids: [Int64])] = [:]
            for (album, albumIDs) in zip(filing.albums, ids) {
                for name in LibraryTree.distinct(album.filedUnder) {
                    byArtist[name, default: (0, [])].albums += 1
                    byArtist[name, default: (0, [])].ids += albumIDs
                }
            }
            return LibraryCatalog(artists: AlbumFiling.sortedByArtist(byArtist.map {
                Artist(name: $0.key, albums: $0.value.albums, tracks: $0.value.ids.count, ids: $0.value.ids)
            }, name: \.name), trackCount: ids.reduce(0) { $0 + $1.count })
        }
    }
}
