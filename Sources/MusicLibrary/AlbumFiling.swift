/// The library's filing rules, in one place for the tree (`LibraryTree`, which
/// holds the tracks) and the catalog (`LibraryCatalog.Builder`, which holds
/// only ids): rows go in one at a time and come out grouped into albums, each
/// with the artist it is filed under.
///
/// An album is the tracks with the same album title (folded) in the same
/// folder, so two "Greatest Hits" by different artists stay apart and a
/// compilation's tracks stay together whatever their artists; tracks without
/// an album title group by their own artists. An album is filed under its album
/// artists when a track names them; else under the artists all its tracks
/// share; else (a compilation without album artist tags) under Various Artists.
/// Filed under each of several artists (a duet album, ID3v2.4's or Vorbis
/// comments' lists), an album is in the tree once under each.
struct AlbumFiling {
    struct Album {
        var albumArtists: [String] = []
        let firstArtists: [String]
        let firstFilingArtists: [String]
        var sameArtist = true

        var filedUnder: [String] {
            if !albumArtists.isEmpty { return albumArtists }
            return sameArtist ? firstFilingArtists : [LibraryTree.variousArtists]
        }
    }

    private struct Key: Hashable {
        let title: String
        let folder: Substring
        /// Tracks without an album title group by their own artist instead.
        let looseArtist: String

        // By their bytes: a String's own hash normalizes it (NFC) first, which
        // for non-ASCII folders and titles cost more than the rest of the
        // grouping on each key of a filter. Folder names are bytes on disk and
        // titles are folded, so bytes are what tells them apart.
        func hash(into hasher: inout Hasher) {
            var title = title, folder = folder, looseArtist = looseArtist
            title.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(0xFF as UInt8)
            folder.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(0xFF as UInt8)
            looseArtist.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        static func == (a: Key, b: Key) -> Bool {
            LibraryTree.sameBytes(a.title, b.title) && LibraryTree.sameBytes(a.folder, b.folder)
                && LibraryTree.sameBytes(a.looseArtist, b.looseArtist)
        }
    }

    private(set) var albums: [Album] = []
    private var albumOf: [Key: Int] = [:]
    /// The row before, when it had an album title: the index returns a folder's
    /// tracks one after another (the scan's order), so the next row of the same
    /// folder and title joins its album without folding or hashing.
    private var previous: (folder: Substring, album: String, index: Int)?

    /// Files one row; the index of its album in `albums`. Empty names are no names.
    mutating func add(path: String, album: String?, albumArtists: [String], artists: [String]) -> Int {
        let title = album.flatMap { $0.isEmpty ? nil : $0 }
        let tagged = Self.named(albumArtists), artists = Self.named(artists)
        let folder = LibraryTree.folder(of: path)
        let index: Int
        if let title, let last = previous, LibraryTree.sameBytes(last.album, title), LibraryTree.sameBytes(last.folder, folder) {
            index = last.index
        } else {
            let filing = !tagged.isEmpty ? tagged : !artists.isEmpty ? artists : [LibraryTree.unknownArtist]
            // Loose tracks group by their artists as one line (a name never holds the separator's control character).
            let key = title.map { Key(title: SearchText.indexed($0), folder: folder, looseArtist: "") }
                ?? Key(title: "", folder: "", looseArtist: filing.joined(separator: "\u{1F}"))
            if let found = albumOf[key] {
                index = found
            } else {
                index = albums.count
                albumOf[key] = index
                albums.append(Album(firstArtists: artists, firstFilingArtists: filing))
            }
        }
        previous = title.map { (folder, $0, index) }
        if albums[index].albumArtists.isEmpty, !tagged.isEmpty { albums[index].albumArtists = tagged }
        if albums[index].sameArtist, !Self.sameNames(artists, albums[index].firstArtists) { albums[index].sameArtist = false }
        return index
    }

    /// The names without empty ones; the same array (no copy) when none is empty, as nearly always.
    private static func named(_ names: [String]) -> [String] {
        names.contains(where: \.isEmpty) ? names.filter { !$0.isEmpty } : names
    }

    private static func sameNames(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
    }

    /// The tree's artist order: by folded name (each folded once, not at every
    /// comparison), Various Artists and Unknown Artist last.
    static func sortedByArtist<Entry>(_ entries: [Entry], name: (Entry) -> String) -> [Entry] {
        func rank(_ name: String) -> Int {
            name == LibraryTree.variousArtists ? 1 : name == LibraryTree.unknownArtist ? 2 : 0
        }
        return entries.map { (entry: $0, name: name($0), key: SearchText.indexed(name($0))) }.sorted { a, b in
            if rank(a.name) != rank(b.name) { return rank(a.name) < rank(b.name) }
            if a.key != b.key { return a.key < b.key }
            return a.name < b.name
        }.map(\.entry)
    }
}
