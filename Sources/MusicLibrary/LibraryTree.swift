/// The library pane's tree: artist -> album (oldest first) -> tracks (by disc,
/// then track number), filed by `AlbumFiling`'s rules. Artists go by name
/// ignoring case and accents, Various Artists and Unknown Artist last.
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
        var filing = AlbumFiling()
        // Track indices, not tracks: a track is copied into its album once.
        var groups: [[Int]] = []
        for (index, track) in tracks.enumerated() {
            let group = filing.add(path: track.path, album: track.album, albumArtists: track.albumArtists, artists: track.artists)
            if group == groups.count { groups.append([]) }
            groups[group].append(index)
        }
        var byArtist: [String: [Album]] = [:]
        for (group, members) in zip(filing.albums, groups.lazy.map { $0.map { tracks[$0] } }) {
            let title = members.lazy.compactMap { $0.album }.first { !$0.isEmpty } ?? Self.unknownAlbum
            let year = members.compactMap(\.year).min()
            let album = Album(title: title, year: year, tracks: Self.sortedTracks(members))
            for name in Self.distinct(group.filedUnder) { byArtist[name, default: []].append(album) }
        }
        artists = AlbumFiling.sortedByArtist(byArtist.map { name, albums in
            Artist(name: name, albums: albums.sorted(by: Self.albumOrder))
        }, name: \.name)
    }

    /// The names in their order, each once (a tag that names one artist twice files the album once).
    static func distinct(_ names: [String]) -> [String] {
        names.count <= 1 ? names : names.enumerated().filter { index, name in !names[..<index].contains(name) }.map(\.element)
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
