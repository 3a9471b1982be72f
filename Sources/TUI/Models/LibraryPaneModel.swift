import MusicLibrary

/// Where the library pane gets its tracks: the index, on the main thread.
/// A search returns at most `limit` tracks in `sort`'s order, or without a
/// sort in the order the files were found (the tree sorts them itself).
/// The tracks need carry only what the pane shows and groups by: path,
/// duration, title, artist, album, album artist, disc and track numbers, year.
public protocol LibrarySource: AnyObject {
    func tracks(matching query: LibraryQuery, sort: TrackSort?, limit: Int) -> [LibraryTrack]
    /// The index's problem, if reading it failed (shown instead of rows).
    var problem: String? { get }
    /// The whole library's artists, for the unfiltered tree; nil until the
    /// source has read them (the tree is then the first `limit` tracks).
    var catalog: LibraryCatalog? { get }
    /// The full rows of a catalog artist's `ids`, in any order.
    func tracks(ids: [Int64]) -> [LibraryTrack]
}

public extension LibrarySource {
    var catalog: LibraryCatalog? { nil }
    func tracks(ids: [Int64]) -> [LibraryTrack] { [] }
}

/// The library pane: the tracks that match the filter, shown as a tree
/// (artist -> album by year -> tracks by disc and number) or as a flat list
/// sortable by any column. The filter is re-run on every key (`setFilter`);
/// the tree is rebuilt from the matching tracks, so its albums hold only
/// matching tracks. Artists start folded; while a filter is typed, every
/// artist and album is open, so the matches show.
public struct LibraryPaneModel {
    public enum View: Equatable, Sendable { case tree, tracks }

    public enum Row: Equatable, Sendable {
        case artist(name: String, albums: Int, tracks: Int, open: Bool)
        case album(artist: String, title: String, year: Int?, tracks: Int, open: Bool)
        case track(LibraryTrack)
    }

    /// The most tracks a search brings in at first: a whole library of
    /// 100,000 would cost each key press the rows' conversion and the
    /// tree's grouping; the first screenfuls are what the listener looks
    /// at (several screenfuls of a tree opened whole). The tracks' rows,
    /// their tree and the pane's rows cost a key in proportion: at 100,000
    /// tracks a first letter took 8-11 ms with 500 and 5-6 ms with 200
    /// (`make bench`'s typing, in tmux), against a 16 ms frame. Scrolling
    /// near the end of a cut list brings in more (`loadMore`), four times
    /// as many each time.
    public static let limit = 200
    /// The most `loadMore` brings in.
    public static let maximumLimit = 32_000

    public private(set) var filter = ""
    public private(set) var view = View.tree
    public private(set) var sort = TrackSort()
    public private(set) var rows: [Row] = []
    public private(set) var tracks: [LibraryTrack] = []
    public var cursor = ListCursor()
    /// A line about the scan going on (files, files per second), or nil.
    public var status: String?
    public private(set) var problem: String?
    /// The tracks the search asks for now: `limit`, more after `loadMore`.
    public private(set) var searchLimit = Self.limit
    private var tree = LibraryTree(tracks: [])
    /// The unfiltered tree of the whole library: every artist from the
    /// source's catalog, an artist's albums read when it is opened (or its
    /// tracks are asked for) and kept until the next reload.
    private var catalog: LibraryCatalog?
    private var loadedAlbums: [String: [LibraryTree.Album]] = [:]
    private var openArtists: Set<String> = []
    private var openAlbums: Set<String> = []
    private let source: any LibrarySource

    /// Whether the rows were read. A pane made with `loaded: false` reads
    /// them the first time it shows (`loadIfNeeded`, from the layout pass):
    /// a player opening on another pane does not read 2,000 rows and build
    /// their tree before its first frame.
    public private(set) var isLoaded = false

    public init(source: any LibrarySource, loaded: Bool = true) {
        self.source = source
        if loaded { reload() }
    }

    /// Reads the rows unless they were read.
    public mutating func loadIfNeeded() {
        if !isLoaded { reload() }
    }

    public var isTruncated: Bool { catalog == nil && tracks.count >= searchLimit }

    /// The tracks the pane holds: the whole library's in the unfiltered
    /// tree, else the search's (at most `limit`).
    public var trackCount: Int { catalog?.trackCount ?? tracks.count }

    /// Runs the search again (after a key in the filter, or when a scan added rows).
    public mutating func reload() {
        isLoaded = true
        loadedAlbums = [:]
        if view == .tree, filter.isEmpty, let whole = source.catalog {
            catalog = whole
            tracks = []
            tree = LibraryTree(tracks: [])
            problem = source.problem
            rebuildRows()
            return
        }
        catalog = nil
        tracks = source.tracks(matching: LibraryQuery(filter), sort: view == .tree ? nil : sort, limit: searchLimit)
        problem = source.problem
        if view == .tree { tree = LibraryTree(tracks: tracks) }
        rebuildRows()
    }

    /// An artist's albums: from the search's tree, or in the unfiltered tree
    /// read through the catalog's ids (and kept).
    private mutating func albums(ofArtist name: String) -> [LibraryTree.Album] {
        guard let catalog else { return tree.artists.first { $0.name == name }?.albums ?? [] }
        if let loaded = loadedAlbums[name] { return loaded }
        guard let entry = catalog.artists.first(where: { $0.name == name }) else { return [] }
        // The catalog filed these albums under this artist by the same rules,
        // so the tree of its tracks has this artist (and the others an album of several artists is under).
        let albums = LibraryTree(tracks: source.tracks(ids: entry.ids)).artists.first { $0.name == name }?.albums ?? []
        loadedAlbums[name] = albums
        return albums
    }

    /// Whether `rows` (the rows that show) come near the end of a cut list:
    /// the next page's worth (`height`) past them would reach it.
    public func wantsMore(showing rows: Range<Int>) -> Bool {
        isTruncated && searchLimit < Self.maximumLimit && rows.upperBound + rows.count >= self.rows.count
    }

    /// Searches again for four times as many tracks, the selection kept on
    /// its row: the search's order is stable, so the tracks before are the
    /// same, though the tree may file new ones above them.
    public mutating func loadMore() {
        let selected = selected
        searchLimit = min(searchLimit * 4, Self.maximumLimit)
        reload()
        if let selected, let index = rows.firstIndex(of: selected) { cursor.select(index, count: rows.count) }
    }

    public mutating func setFilter(_ text: String) {
        filter = text
        searchLimit = Self.limit
        reload()
        cursor.select(0, count: rows.count)
    }

    public mutating func toggleView() {
        view = view == .tree ? .tracks : .tree
        searchLimit = Self.limit
        reload()
        cursor.select(0, count: rows.count)
    }

    /// The next sort column (the tracks view); from the last, back to the first, descending.
    public mutating func cycleSort() {
        let columns = TrackSort.Column.allCases
        let index = columns.firstIndex(of: sort.column) ?? 0
        if index + 1 < columns.count {
            sort.column = columns[index + 1]
        } else {
            sort.column = columns[0]
            sort.descending.toggle()
        }
        if view == .tree { view = .tracks }
        searchLimit = Self.limit
        reload()
        cursor.select(0, count: rows.count)
    }

    public var selected: Row? { rows.indices.contains(cursor.selection) ? rows[cursor.selection] : nil }

    /// Opens or closes the selected artist or album; false for a track.
    public mutating func toggleSelected() -> Bool {
        switch selected {
        case .artist(let name, _, _, let open):
            if open { openArtists.remove(name) } else { openArtists.insert(name) }
        case .album(let artist, let title, _, _, let open):
            let key = artist + "\u{0}" + title
            if open { openAlbums.remove(key) } else { openAlbums.insert(key) }
        default:
            return false
        }
        let keep = cursor.selection
        rebuildRows()
        cursor.select(keep, count: rows.count)
        return true
    }

    /// The tracks of the selection: an artist's (album by album), an album's, or one track.
    public var selectedTracks: [LibraryTrack] {
        mutating get {
        switch selected {
        case .artist(let name, _, _, _):
            return albums(ofArtist: name).flatMap(\.tracks)
        case .album(let artist, let title, _, _, _):
            return album(artist: artist, title: title)?.tracks ?? []
        case .track(let track):
            return [track]
        case nil:
            return []
        }
        }
    }

    /// What enter on a track plays: in the tree, its album from that track;
    /// in the tracks view, the list from that track.
    public var playContext: (paths: [String], start: Int)? {
        guard case .track(let track) = selected else { return nil }
        if view == .tracks {
            let paths = tracks.map(\.path)
            return (paths, paths.firstIndex(of: track.path) ?? 0)
        }
        let albums = catalog == nil ? tree.artists.flatMap(\.albums) : loadedAlbums.values.flatMap { $0 }
        for album in albums {
            if let index = album.tracks.firstIndex(where: { $0.path == track.path }) {
                return (album.tracks.map(\.path), index)
            }
        }
        return ([track.path], 0)
    }

    private mutating func album(artist: String, title: String) -> LibraryTree.Album? {
        albums(ofArtist: artist).first { $0.title == title }
    }

    private mutating func rebuildRows() {
        guard view == .tree else {
            rows = tracks.map(Row.track)
            cursor.clamp(count: rows.count)
            return
        }
        let openAll = !filter.isEmpty
        var rows: [Row] = []
        let artists: [(name: String, albums: Int, tracks: Int)] = catalog.map { $0.artists.map { ($0.name, $0.albums, $0.tracks) } }
            ?? tree.artists.map { ($0.name, $0.albums.count, $0.trackCount) }
        for artist in artists {
            let artistOpen = openAll || openArtists.contains(artist.name)
            rows.append(.artist(name: artist.name, albums: artist.albums, tracks: artist.tracks, open: artistOpen))
            guard artistOpen else { continue }
            for album in albums(ofArtist: artist.name) {
                let albumOpen = openAll || openAlbums.contains(artist.name + "\u{0}" + album.title)
                rows.append(.album(artist: artist.name, title: album.title, year: album.year, tracks: album.tracks.count,
                                   open: albumOpen))
                if albumOpen { rows += album.tracks.map(Row.track) }
            }
        }
        self.rows = rows
        cursor.clamp(count: rows.count)
    }
}
