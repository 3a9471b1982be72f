import InterludeCore
import MusicLibrary
import PlayerModel

/// MPD's database commands over the library index (`interlude library scan`
/// fills it): `lsinfo` by folder, `find` (exact) and `search` (any case, a
/// part of the value) over MPD's old `TAG VALUE` pairs. Paths are relative to
/// the library folders, as MPD's are to its music directory. The index is
/// opened on the first such command, so a player no client asks maps no SQLite.
final class MPDDatabase {
    private let indexPath: String
    private var index: LibraryIndex?

    init(indexPath: String) { self.indexPath = indexPath }

    private func tracks() throws(MPDFailure) -> [LibraryTrack] {
        do {
            if index == nil { index = try LibraryIndex(path: indexPath) }
            return try index!.allTracks(sort: TrackSort())
        } catch {
            throw MPDFailure(.system, "the library index \(indexPath): \(error)")
        }
    }

    /// `lsinfo [URI]`: the songs and folders just below `uri`, songs first, each in name order (MPD's walk).
    func lsinfo(_ uri: String) throws(MPDFailure) -> MPDResponse {
        let base = uri
        let prefix = base.isEmpty ? "" : base + "/"
        var folders = Set<String>()
        var songs: [LibraryTrack] = []
        var exists = base.isEmpty
        for track in try tracks() {
            let relative = track.relativePath
            if relative == base { exists = true; songs.append(track); continue }
            guard relative.hasPrefix(prefix) else { continue }
            exists = true
            let rest = relative.dropFirst(prefix.count)
            if let slash = rest.firstIndex(of: "/") { folders.insert(prefix + rest[..<slash]) } else { songs.append(track) }
        }
        guard exists else { throw MPDFailure(.noExist, "No such directory") }
        var response = MPDResponse()
        for track in songs.sorted(by: { $0.relativePath < $1.relativePath }) { response.append(Self.song(track)) }
        for folder in folders.sorted() { response.add("directory", folder) }
        return response
    }

    /// `stats`' database part: artists, albums, songs and their total time, as MPD counts them.
    func statistics(into response: inout MPDResponse) throws(MPDFailure) {
        let all = try tracks()
        response.add("artists", Set(all.flatMap(\.artists)).count)
        response.add("albums", Set(all.compactMap(\.album)).count)
        response.add("songs", all.count)
        let seconds = all.compactMap(\.durationSeconds).filter { $0.isFinite && $0 >= 0 }.reduce(0, +)
        response.add("db_playtime", MPDCommands.wholeSeconds(seconds))
    }

    /// `listall [URI]`: every song and folder below `uri`, walked as MPD walks
    /// its database (a folder's songs, then each folder followed by what is in it).
    func listall(_ uri: String) throws(MPDFailure) -> MPDResponse {
        let prefix = uri.isEmpty ? "" : uri + "/"
        let paths = try tracks().map(\.relativePath).filter { uri.isEmpty || $0 == uri || $0.hasPrefix(prefix) }
        guard !paths.isEmpty else { throw MPDFailure(.noExist, "No such directory") }
        var response = MPDResponse()
        func walk(_ folder: String, _ below: [String]) {
            let start = folder.isEmpty ? "" : folder + "/"
            var children: [String: [String]] = [:]
            for path in below.sorted() {
                let rest = path.dropFirst(start.count)
                if let slash = rest.firstIndex(of: "/") {
                    children[start + rest[..<slash], default: []].append(path)
                } else {
                    response.add("file", path)
                }
            }
            for child in children.keys.sorted() {
                response.add("directory", child)
                walk(child, children[child]!)
            }
        }
        // A folder named is listed first, itself, as MPD does.
        if paths == [uri] { response.add("file", uri) } else {
            if !uri.isEmpty { response.add("directory", uri) }
            walk(uri, paths)
        }
        return response
    }

    /// `find`/`search TAG VALUE [TAG VALUE...]`.
    func find(_ arguments: [String], exact: Bool) throws(MPDFailure) -> MPDResponse {
        guard !arguments.isEmpty, arguments.count % 2 == 0 else { throw MPDFailure(.argument, "Incorrect number of filter arguments") }
        var filters: [(tag: String, value: String)] = []
        for pair in stride(from: 0, to: arguments.count, by: 2) {
            let tag = arguments[pair].lowercased()
            guard Self.tags.contains(tag) else { throw MPDFailure(.argument, "Unknown filter type") }
            filters.append((tag, exact ? arguments[pair + 1] : arguments[pair + 1].lowercased()))
        }
        var response = MPDResponse()
        for track in try tracks().sorted(by: { $0.relativePath < $1.relativePath })
        where filters.allSatisfy({ filter in
            Self.values(track, filter.tag).contains { value in
                exact ? value == filter.value : value.lowercased().contains(filter.value)
            }
        }) {
            response.append(Self.song(track))
        }
        return response
    }

    static let tags = ["any", "file", "artist", "albumartist", "album", "title", "track", "date", "genre"]

    private static func values(_ track: LibraryTrack, _ tag: String) -> [String] {
        switch tag {
        case "file": [track.relativePath]
        case "artist": track.artists
        case "albumartist": track.albumArtists
        case "album": track.album.map { [$0] } ?? []
        case "title": track.title.map { [$0] } ?? []
        case "track": track.trackNumber.map { [String($0)] } ?? []
        case "date": track.year.map { [String($0)] } ?? []
        case "genre": track.genres
        default: ["file", "artist", "albumartist", "album", "title", "genre"].flatMap { values(track, $0) }
        }
    }

    /// A song as MPD's database gives it (its tag order), `Time` and `duration` from the index.
    static func song(_ track: LibraryTrack) -> MPDResponse {
        var response = MPDResponse()
        response.add("file", track.relativePath)
        for artist in track.artists { response.add("Artist", artist) }
        for artist in track.albumArtists { response.add("AlbumArtist", artist) }
        if let title = track.title { response.add("Title", title) }
        if let album = track.album { response.add("Album", album) }
        if let number = track.trackNumber { response.add("Track", number) }
        if let year = track.year { response.add("Date", year) }
        for genre in track.genres { response.add("Genre", genre) }
        if let seconds = track.durationSeconds, seconds.isFinite, seconds >= 0 {
            response.add("Time", MPDCommands.wholeSeconds(seconds))
            response.add("duration", milliseconds: seconds)
        }
        return response
    }
}
