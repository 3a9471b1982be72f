/// The whole library's artists for the unfiltered tree: each artist's name,
/// how many albums and tracks it has, and the ids of its tracks in the
/// index, so the tree can list every artist of a library of 100,000 tracks
/// and load an artist's albums only when it is opened. Filed exactly as
/// `LibraryTree` files them (album artist, the one shared artist, or
/// Various Artists), because it is built by `LibraryTree` itself, from rows
/// that carry only what filing needs.
public struct LibraryCatalog: Equatable, Sendable {
    public struct Artist: Equatable, Sendable {
        public let name: String
        public let albums: Int
        public let tracks: Int
        /// The index's ids of the artist's tracks, album by album.
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
    public var trackCount: Int { artists.reduce(0) { $0 + $1.tracks } }

    /// What filing needs of one row: its id in the index and its path,
    /// album, album artist, artist and year (a `LibraryTrack` holding those).
    public init(rows: [(id: Int64, track: LibraryTrack)]) {
        var idOf: [String: Int64] = [:]
        idOf.reserveCapacity(rows.count)
        for row in rows { idOf[row.track.path] = row.id }
        let tree = LibraryTree(tracks: rows.map(\.track))
        artists = tree.artists.map { artist in
            Artist(name: artist.name, albums: artist.albums.count, tracks: artist.trackCount,
                   ids: artist.albums.flatMap { $0.tracks.compactMap { idOf[$0.path] } })
        }
    }

    public init(artists: [Artist]) {
        self.artists = artists
    }
}
