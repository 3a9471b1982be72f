/// The whole library's artists for the unfiltered tree: each artist's name,
/// how many albums and tracks it has, and the ids of its tracks in the
/// index, so the tree can list every artist of a library of 100,000 tracks
/// and read an artist's albums only when it is opened.
///
/// Filed by `LibraryTree`'s rules (an album is the tracks with one album
/// title in one folder, or an artist's tracks without one; it goes under its
/// album artist, else the one artist all its tracks share, else Various
/// Artists), but built row by row (`Builder`) from a few columns, keeping
/// per album only what filing needs: a tree of 100,000 tracks would hold
/// every track at once (about 100 MB). Tests check both give the same artists.
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
    public var trackCount: Int { artists.reduce(0) { $0 + $1.tracks } }

    public init(artists: [Artist]) {
        self.artists = artists
    }

    /// All at once, for callers that have the rows in memory.
    public init(rows: [(id: Int64, track: LibraryTrack)]) {
        var builder = Builder()
        for row in rows {
            builder.add(id: row.id, path: row.track.path, album: row.track.album, albumArtist: row.track.albumArtist,
                        artist: row.track.artist)
        }
        self = builder.build()
    }

    /// Takes rows one by one, fastest in the scan's order (a folder's tracks
    /// one after another), as the index gives them.
    public struct Builder {
        private struct AlbumKey: Hashable {
            /// Folded, so "Abbey Road" and "ABBEY ROAD" in one folder are one album.
            let title: String
            let folder: String
            /// Tracks without an album title group by their own artist instead.
            let looseArtist: String
        }

        private struct Album {
            var albumArtist: String?
            let firstArtist: String
            let firstFilingArtist: String
            var sameArtist = true
            var ids: [Int64]
        }

        private var albumOf: [AlbumKey: Int] = [:]
        private var albums: [Album] = []
        /// The row before, when it had an album title: the next row of the same
        /// folder and title joins its album without folding or hashing.
        private var previous: (folder: String, album: String, index: Int)?

        public init() {}

        public mutating func add(id: Int64, path: String, album: String?, albumArtist: String?, artist: String?) {
            let title = album.flatMap { $0.isEmpty ? nil : $0 }
            let tagged = albumArtist.flatMap { $0.isEmpty ? nil : $0 }
            let folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
            let index: Int
            if let title, let last = previous, last.album.utf8.elementsEqual(title.utf8), last.folder.utf8.elementsEqual(folder.utf8) {
                index = last.index
            } else {
                let filing = tagged ?? artist.flatMap { $0.isEmpty ? nil : $0 } ?? LibraryTree.unknownArtist
                let key = title.map { AlbumKey(title: SearchText.indexed($0), folder: folder, looseArtist: "") }
                    ?? AlbumKey(title: "", folder: "", looseArtist: filing)
                if let found = albumOf[key] {
                    index = found
                } else {
                    index = albums.count
                    albumOf[key] = index
                    albums.append(Album(albumArtist: nil, firstArtist: artist ?? "", firstFilingArtist: filing, ids: []))
                }
            }
            previous = title.map { (folder, $0, index) }
            if albums[index].albumArtist == nil, let tagged { albums[index].albumArtist = tagged }
            if albums[index].sameArtist, (artist ?? "") != albums[index].firstArtist { albums[index].sameArtist = false }
            albums[index].ids.append(id)
        }

        public func build() -> LibraryCatalog {
            var byArtist: [String: (albums: Int, ids: [Int64])] = [:]
            for album in albums {
                let filedUnder = album.albumArtist ?? (album.sameArtist ? album.firstFilingArtist : LibraryTree.variousArtists)
                byArtist[filedUnder, default: (0, [])].albums += 1
                byArtist[filedUnder, default: (0, [])].ids += album.ids
            }
            // LibraryTree's artist order: by folded name, Various Artists and Unknown Artist last.
            func rank(_ name: String) -> Int {
                name == LibraryTree.variousArtists ? 1 : name == LibraryTree.unknownArtist ? 2 : 0
            }
            let keyed = byArtist.map { (name: $0.key, key: SearchText.indexed($0.key), entry: $0.value) }
            let sorted = keyed.sorted { a, b in
                if rank(a.name) != rank(b.name) { return rank(a.name) < rank(b.name) }
                if a.key != b.key { return a.key < b.key }
                return a.name < b.name
            }
            return LibraryCatalog(artists: sorted.map {
                Artist(name: $0.name, albums: $0.entry.albums, tracks: $0.entry.ids.count, ids: $0.entry.ids)
            })
        }
    }
}
