/// The library pane's tree: artist -> album (oldest first) -> tracks (by disc,
/// then track number). An album is filed under its album artist when a track
/// names one; else under the one artist all its tracks share; else (a
/// compilation without album artist tags) under "Various Artists". Artists
/// go by name ignoring case and accents, Various Artists and Unknown Artist last. An album
/// is the tracks with the same album title in the same folder, so two
/// "Greatest Hits" by different artists stay apart, and a compilation's
/// tracks stay together whatever their artists.
public struct LibraryTree: Equatable, Sendable {
    public static let variousArtists = "Various Artists"
    public static let unknownArtist = "Unknown Artist"
    public static let unknownAlbum = "Unknown Album"

    public struct Album: Equatable, Sendable {
        public let title: String
        public let year: Int?
        public let tracks: [LibraryTrack]
    }

    public struct Artist: Equatable, Sendable {
        public let name: String
        public let albums: [Album]
        public var trackCount: Int { albums.reduce(0) { $0 + $1.tracks.count } }
    }

    public let artists: [Artist]

    public init(tracks: [LibraryTrack]) {
        struct AlbumKey: Hashable {
            let title: String
            let folder: Substring
            /// Tracks without an album title group by their own artist instead.
            let looseArtist: String

            // By their bytes: a String's own hash normalizes it (NFC) first,
            // which for non-ASCII folders and titles cost more than the rest of
            // the grouping on each key of the filter. Folder names are bytes
            // on disk and titles are folded, so bytes are what tells them apart.
            func hash(into hasher: inout Hasher) {
                var title = title, folder = folder, looseArtist = looseArtist
                title.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(0xFF as UInt8)
                folder.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(0xFF as UInt8)
                looseArtist.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            }

            static func == (a: AlbumKey, b: AlbumKey) -> Bool {
                LibraryTree.sameBytes(a.title, b.title) && LibraryTree.sameBytes(a.folder, b.folder)
                    && LibraryTree.sameBytes(a.looseArtist, b.looseArtist)
            }
        }
        // Track indices, not tracks: a track is copied into its album once.
        var groupOf: [AlbumKey: Int] = [:]
        var groups: [[Int]] = []
        // The index returns a folder's tracks one after another (the scan's
        // order), so a track in the same folder with the same album tag as
        // the one before joins its album without folding or hashing.
        var previous: (folder: Substring, album: String, group: Int)?
        for (index, track) in tracks.enumerated() {
            let title = track.album.flatMap { $0.isEmpty ? nil : $0 }
            let folder = Self.folder(of: track.path)
            if let title, let last = previous, Self.sameBytes(last.album, title), Self.sameBytes(last.folder, folder) {
                groups[last.group].append(index)
                continue
            }
            let key = title.map { AlbumKey(title: SearchText.indexed($0), folder: folder, looseArtist: "") }
                ?? AlbumKey(title: "", folder: "", looseArtist: track.filingArtist)
            let group: Int
            if let found = groupOf[key] {
                group = found
                groups[found].append(index)
            } else {
                group = groups.count
                groupOf[key] = group
                groups.append([index])
            }
            previous = title.map { (folder, $0, group) }
        }
        var byArtist: [String: [Album]] = [:]
        for group in groups {
            let members = group.map { tracks[$0] }
            let albumArtist = members.lazy.compactMap { $0.albumArtist }.first { !$0.isEmpty }
            let filedUnder: String
            if let albumArtist {
                filedUnder = albumArtist
            } else if members.allSatisfy({ ($0.artist ?? "") == (members[0].artist ?? "") }) {
                filedUnder = members[0].filingArtist
            } else {
                filedUnder = Self.variousArtists
            }
            let title = members.lazy.compactMap { $0.album }.first { !$0.isEmpty } ?? Self.unknownAlbum
            let year = members.compactMap(\.year).min()
            byArtist[filedUnder, default: []].append(Album(title: title, year: year, tracks: Self.sortedTracks(members)))
        }
        let unsorted = byArtist.map { name, albums in
            Artist(name: name, albums: albums.sorted(by: Self.albumOrder))
        }
        // Each name folded once, not at every comparison.
        artists = unsorted.map { (artist: $0, key: SearchText.indexed($0.name)) }.sorted { a, b in
            func rank(_ name: String) -> Int {
                name == Self.variousArtists ? 1 : name == Self.unknownArtist ? 2 : 0
            }
            if rank(a.artist.name) != rank(b.artist.name) { return rank(a.artist.name) < rank(b.artist.name) }
            if a.key != b.key { return a.key < b.key }
            return a.artist.name < b.artist.name
        }.map(\.artist)
    }

    /// The path up to its last "/" ("" without one), found in its UTF-8
    /// bytes: `lastIndex(of:)` on Characters walks grapheme clusters, and on
    /// the UTF-8 view it went through a generic comparison per byte (a
    /// tenth of the tree's time at 100,000 tracks).
    static func folder(of path: String) -> Substring {
        var bytes = path
        guard let slash = bytes.withUTF8({ $0.lastIndex(of: UInt8(ascii: "/")) }) else { return "" }
        return path[..<path.utf8.index(path.utf8.startIndex, offsetBy: slash)]
    }

    /// Byte for byte (`==` on Strings compares them normalized, slowly for non-ASCII).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in b.withUTF8 { right in equal(left, right) } }
    }

    static func sameBytes(_ a: Substring, _ b: Substring) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in b.withUTF8 { right in equal(left, right) } }
    }

    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where a[index] != b[index] { return false }
        return true
    }

    /// `trackOrder`, with each title folded once rather than at every comparison.
    static func sortedTracks(_ tracks: [LibraryTrack]) -> [LibraryTrack] {
        // Titles decide only between tracks of the same disc and number, or
        // unnumbered ones: when every track has its own number (nearly every
        // album), the titles are not folded at all.
        if tracks.allSatisfy({ $0.trackNumber != nil }) {
            func place(_ track: LibraryTrack) -> (Int, Int) { (track.discNumber ?? 1, track.trackNumber ?? 0) }
            let numbered = tracks.sorted { place($0) < place($1) }
            if zip(numbered, numbered.dropFirst()).allSatisfy({ place($0) != place($1) }) { return numbered }
        }
        let keyed = tracks.map { (track: $0, title: SearchText.indexed($0.displayTitle)) }
        return keyed.sorted { a, b in
            let discA = a.track.discNumber ?? 1, discB = b.track.discNumber ?? 1
            if discA != discB { return discA < discB }
            switch (a.track.trackNumber, b.track.trackNumber) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if a.title != b.title { return a.title < b.title }
            return a.track.path < b.track.path
        }.map(\.track)
    }

    /// Disc (none counts as 1), then track number (none after numbered), then title, then path.
    public static func trackOrder(_ a: LibraryTrack, _ b: LibraryTrack) -> Bool {
        let discA = a.discNumber ?? 1, discB = b.discNumber ?? 1
        if discA != discB { return discA < discB }
        switch (a.trackNumber, b.trackNumber) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        let titleA = SearchText.indexed(a.displayTitle), titleB = SearchText.indexed(b.displayTitle)
        if titleA != titleB { return titleA < titleB }
        return a.path < b.path
    }

    /// Oldest first, undated albums after dated ones, then by title.
    static func albumOrder(_ a: Album, _ b: Album) -> Bool {
        switch (a.year, b.year) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        let titleA = SearchText.indexed(a.title), titleB = SearchText.indexed(b.title)
        if titleA != titleB { return titleA < titleB }
        return (a.tracks.first?.path ?? "") < (b.tracks.first?.path ?? "")
    }

}
