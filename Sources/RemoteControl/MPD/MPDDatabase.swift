import LibraryIO
import InterludeCore
import MusicLibrary
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// MPD's database commands over the library index (`interlude library scan`
/// fills it): `lsinfo` by folder, `find` (exact) and `search` (any case, a
/// part of the value) over MPD's old `TAG VALUE` pairs. Paths are relative to
/// the library folders, as MPD's are to its music directory. The index is
/// read on the MPD worker's thread (`MPDServer` asks for it when
/// `isCurrent` is false and runs the command once it is here), so a player
/// no client asks maps no SQLite and a read of 100,000 rows holds up no key.
package final class MPDDatabase {
    package let indexPath: String
    /// The tracks last read, and the index files' size and time then: read
    /// again only when a scan has changed them (100,000 tracks take longer
    /// to read than MPD takes to search them in its memory). With them,
    /// `search`'s lowercased values of each tag searched since.
    private var cached: (stamp: [Int], view: MPDLibraryView, folded: [String: MPDFoldedValues])?
    /// A read that failed, for the commands that waited for it.
    private var failed: (stamp: [Int], failure: MPDFailure)?

    package init(indexPath: String) { self.indexPath = indexPath }

    /// Whether the tracks (or the failure) of the index as its files are now are here.
    package var isCurrent: Bool {
        let stamp = Self.stamp(of: indexPath)
        return cached?.stamp == stamp || failed?.stamp == stamp
    }

    /// Reads the index's tracks as MPD's clients see them (`MPDLibraryView`),
    /// on any thread: the index is opened for this read alone.
    package static func read(_ indexPath: String) -> (stamp: [Int], view: Result<MPDLibraryView, MPDFailure>) {
        let stamp = stamp(of: indexPath)
        do {
            let index = try LibraryIndex(path: indexPath)
            defer { index.close() }
            let tracks = try index.allTracks(sort: TrackSort())
            return (stamp, .success(MPDLibraryView(insideTheirFolders(tracks), updated: updated(stamp))))
        } catch {
            return (stamp, .failure(MPDFailure(.system, "the library index \(indexPath): \(error)")))
        }
    }

    /// When the index last changed, in seconds since 1970 (`stats`' `db_update`): its file's or its log's time, the later.
    private static func updated(_ stamp: [Int]) -> Int {
        stride(from: 1, to: stamp.count, by: 3).map { stamp[$0] }.max() ?? 0
    }

    /// The tracks whose file is in the library folder it was found in, as
    /// MPD with `follow_outside_symlinks "no"` keeps its database: a link
    /// (to a file, or to a folder on the way) that leads out of the folder is
    /// left out, so that no client reaches a file outside the music folder
    /// through a name in it; a link within the folder is kept. The scan
    /// follows every link (the library pane shows what the user linked in),
    /// so this is checked here, on the worker's thread: each folder's real
    /// path once, and each file's `lstat` (opening nothing).
    package static func insideTheirFolders(_ tracks: [LibraryTrack]) -> [LibraryTrack] {
        var realPaths: [String: String?] = [:]
        func real(_ path: String) -> String? {
            if let known = realPaths[path] { return known }
            let resolved = MPDFolderBounds.realPath(path)
            realPaths[path] = .some(resolved)
            return resolved
        }
        return tracks.filter { track in
            let path = track.path, relative = track.relativePath
            // The library folder is the path without `/` and the relative path.
            guard !relative.isEmpty, path.utf8.count > relative.utf8.count,
                  path.utf8.reversed().starts(with: ("/" + relative).utf8.reversed()) else { return false }
            let root = String(decoding: path.utf8.dropLast(relative.utf8.count + 1), as: UTF8.self)
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
            let folder = String(decoding: path.utf8[..<slash], as: UTF8.self)
            guard let realRoot = real(root.isEmpty ? "/" : root), let realFolder = real(folder.isEmpty ? "/" : folder),
                  MPDFolderBounds.contains(realRoot, realFolder) else { return false }
            var info = stat()
            guard lstat(path, &info) == 0 else { return false }
            guard info.st_mode & S_IFMT == S_IFLNK else { return true }
            return MPDFolderBounds.realPath(path).map { MPDFolderBounds.contains(realRoot, $0) } ?? false
        }
    }

    /// A read's outcome, for the commands that wait.
    package func adopt(stamp: [Int], _ view: Result<MPDLibraryView, MPDFailure>) {
        switch view {
        case .success(let view):
            cached = (stamp, view, [:])
            failed = nil
        case .failure(let failure):
            failed = (stamp, failure)
        }
    }

    /// After the commands that waited for a failed read have their ACK, the next command reads again.
    package func forgetFailure() { failed = nil }

    private func view() throws(MPDFailure) -> MPDLibraryView {
        let stamp = Self.stamp(of: indexPath)
        if let cached, cached.stamp == stamp { return cached.view }
        if let failed, failed.stamp == stamp { throw failed.failure }
        // Not asked for first (`isCurrent`): read here, on the main loop, and again by the next command if it failed.
        let read = Self.read(indexPath)
        if case .success(let view) = read.view { cached = (read.stamp, view, [:]) }
        return try read.view.get()
    }

    private func tracks() throws(MPDFailure) -> [LibraryTrack] { try view().tracks }

    /// The index's and its write-ahead log's sizes and times: they change with every scan that changes the index.
    package static func stamp(of indexPath: String) -> [Int] { stamp(indexPath) + stamp(indexPath + "-wal") }

    /// A file's size and modification time (nanoseconds), or none when it is missing.
    private static func stamp(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }

    /// The song the database has at `relative` (MPD's name for it), or nil.
    package func song(_ relative: String) throws(MPDFailure) -> LibraryTrack? {
        let view = try view()
        return view.positions[relative].map { view.tracks[$0] }
    }

    /// What MPD's database selection of `uri` holds: every song (`""`), one
    /// song, or a folder's songs and those of the folders in it, in MPD's
    /// order; nil when it names nothing.
    package func songs(below uri: String) throws(MPDFailure) -> ArraySlice<LibraryTrack>? {
        let view = try view()
        if uri.isEmpty { return view.tracks[...] }
        if let position = view.positions[uri] { return view.tracks[position...position] }
        return view.folders[uri].map { view.tracks[$0] }
    }

    /// A folder's line, and its time as MPD gives it.
    private func directory(_ name: String, _ view: MPDLibraryView, into response: inout MPDResponse) {
        response.add("directory", name)
        if let time = view.folderTimes[name], let modified = MPDStoredPlaylists.time(time) { response.add("Last-Modified", modified) }
    }

    /// `lsinfo [URI]`: the songs and folders just below `uri`, songs first, in MPD's order (a song named: itself).
    package func lsinfo(_ uri: String) throws(MPDFailure) -> MPDResponse {
        let view = try view()
        guard let below = try songs(below: uri) else { throw MPDFailure(.noExist, "No such directory") }
        var response = MPDResponse()
        if below.count == 1, below[below.startIndex].relativePath == uri {
            Self.song(below[below.startIndex], into: &response)
            return response
        }
        // The folder's own songs come first, then each folder's: a folder is met when its first song comes.
        var last: Substring?
        for track in below {
            let folder = MPDSongOrder.parent(track.relativePath[...])
            if folder == uri[...] {
                Self.song(track, into: &response)
                continue
            }
            let rest = uri.isEmpty ? folder : folder.dropFirst(uri.count + 1)
            let child = rest.firstIndex(of: "/").map { folder[..<$0] } ?? folder
            if child != last {
                directory(String(child), view, into: &response)
                last = child
            }
        }
        return response
    }

    /// `stats`' database part: artists, albums, songs and their total time, as MPD counts them.
    package func statistics(into response: inout MPDResponse) throws(MPDFailure) {
        let all = try tracks()
        response.add("artists", Set(all.flatMap(\.artists)).count)
        response.add("albums", Set(all.compactMap(\.album)).count)
        response.add("songs", all.count)
        let seconds = all.compactMap(\.durationSeconds).filter { $0.isFinite && $0 >= 0 }.reduce(0, +)
        response.add("db_playtime", MPDCommands.wholeSeconds(seconds))
        response.add("db_update", try view().updated)
    }

    /// `listall [URI]` (and with `info`, `listallinfo`): every song and folder
    /// below `uri`, walked as MPD walks its database (a folder's songs, then
    /// each folder followed by what is in it); a song named, itself.
    package func listall(_ uri: String, info: Bool = false) throws(MPDFailure) -> MPDResponse {
        let view = try view()
        guard let below = try songs(below: uri) else { throw MPDFailure(.noExist, "No such directory") }
        var response = MPDResponse()
        func enter(_ name: String) {
            if info { directory(name, view, into: &response) } else { response.add("directory", name) }
        }
        func file(_ track: LibraryTrack) {
            if info { Self.song(track, into: &response) } else { response.add("file", track.relativePath) }
        }
        if below.count == 1, below[below.startIndex].relativePath == uri {
            file(below[below.startIndex])
            return response
        }
        // A folder named is listed first, itself, as MPD does; each other folder as the walk enters it.
        var open: [Substring] = []
        if !uri.isEmpty {
            enter(uri)
            open.append(uri[...])
        }
        for track in below {
            let folder = MPDSongOrder.parent(track.relativePath[...])
            while let last = open.last, folder != last, !folder.hasPrefix(last + "/") { open.removeLast() }
            var entered: [Substring] = []
            var step = folder
            while !step.isEmpty, step != open.last {
                entered.append(step)
                step = MPDSongOrder.parent(step)
            }
            for name in entered.reversed() {
                enter(String(name))
                open.append(name)
            }
            file(track)
        }
        return response
    }

    /// The songs the index has at these relative paths, as MPD's database gives them.
    package func songs(at paths: [String]) throws(MPDFailure) -> [String: MPDResponse] {
        var songs: [String: MPDResponse] = [:]
        for path in paths { if let track = try song(path) { songs[path] = Self.song(track) } }
        return songs
    }

    /// `list TYPE [FILTER...] [group GROUP...]`: each value of TYPE among the
    /// songs the filters let through, once, in order; grouped, each group's
    /// value is written before the values in it, the last group outermost
    /// (as MPD writes them). `list album ARTIST` is MPD's old form of `list album artist ARTIST`.
    package func list(_ arguments: [String]) throws(MPDFailure) -> MPDResponse {
        var rest = Array(arguments.dropFirst())
        let type = try Self.tag(arguments[0])
        let groups = try Self.groups(&rest)
        if type == "album" && rest.count == 1 { rest.insert("artist", at: 0) }
        let filters = try Self.filters(rest, exact: true)
        var rows = Set<[String]>()
        for track in try tracks() where Self.matches(track, filters) {
            let values = Self.values(track, type)
            guard !values.isEmpty else { continue }
            // Every combination of the groups' values (a song of two artists is in both), outermost first.
            var combinations: [[String]] = [[]]
            for group in groups.reversed() {
                let own = Self.values(track, group)
                combinations = combinations.flatMap { head in (own.isEmpty ? [""] : own).map { head + [$0] } }
            }
            for head in combinations { for value in values { rows.insert(head + [value]) } }
        }
        var response = MPDResponse()
        let keys = groups.reversed().map(Self.key) + [Self.key(type)]
        var previous: [String] = []
        for row in rows.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            // A group's line again only where it or one outside it changed.
            let same = zip(previous, row.dropLast()).prefix { $0 == $1 }.count
            for level in same..<(row.count - 1) { response.add(keys[level], row[level]) }
            response.add(keys[row.count - 1], row[row.count - 1])
            previous = Array(row.dropLast())
        }
        return response
    }

    /// `count FILTER... [group GROUP]`: how many songs the filters let through and their time, per group value when grouped.
    package func count(_ arguments: [String]) throws(MPDFailure) -> MPDResponse {
        var rest = arguments
        let groups = try Self.groups(&rest)
        guard groups.count <= 1 else { throw MPDFailure(.argument, "Too many group arguments") }
        guard !rest.isEmpty || !groups.isEmpty else { throw MPDFailure(.argument, "Incorrect number of filter arguments") }
        let filters = try Self.filters(rest, exact: true)
        var totals: [String: (songs: Int, seconds: Double)] = [:]
        for track in try tracks() where Self.matches(track, filters) {
            let seconds = track.durationSeconds.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
            for value in groups.first.map({ Self.values(track, $0) }) ?? [""] {
                totals[value, default: (0, 0)].songs += 1
                totals[value, default: (0, 0)].seconds += seconds
            }
        }
        var response = MPDResponse()
        if groups.isEmpty { totals[""] = totals[""] ?? (0, 0) }
        for value in totals.keys.sorted() {
            if let group = groups.first { response.add(Self.key(group), value) }
            response.add("songs", totals[value]!.songs)
            response.add("playtime", MPDCommands.wholeSeconds(totals[value]!.seconds))
        }
        return response
    }

    /// A tag's name as MPD writes it in a reply.
    private static func key(_ tag: String) -> String {
        switch tag {
        case "albumartist": "AlbumArtist"
        case "file": "file"
        default: tag.prefix(1).uppercased() + tag.dropFirst()
        }
    }

    private static func tag(_ name: String) throws(MPDFailure) -> String {
        let tag = name.lowercased()
        guard tag != "any", tags.contains(tag) else { throw MPDFailure(.argument, "Unknown tag type: \(name)") }
        return tag
    }

    /// Takes the trailing `group TAG` pairs off `arguments`, in the order written.
    private static func groups(_ arguments: inout [String]) throws(MPDFailure) -> [String] {
        var groups: [String] = []
        while arguments.count >= 2, arguments[arguments.count - 2].lowercased() == "group" {
            groups.insert(try tag(arguments[arguments.count - 1]), at: 0)
            arguments.removeLast(2)
        }
        return groups
    }

    /// `find`/`search TAG VALUE [TAG VALUE...]`.
    package func find(_ arguments: [String], exact: Bool) throws(MPDFailure) -> MPDResponse {
        var response = MPDResponse()
        for track in try matching(arguments, exact: exact) { Self.song(track, into: &response) }
        return response
    }

    /// The songs `find` (`exact`) or `search` with these filters finds, in MPD's order (`findadd`, `searchadd` add them).
    package func matching(_ arguments: [String], exact: Bool) throws(MPDFailure) -> [LibraryTrack] {
        guard !arguments.isEmpty else { throw MPDFailure(.argument, "Incorrect number of filter arguments") }
        let filters = try Self.filters(arguments, exact: exact)
        let all = try tracks()
        guard !exact else { return all.filter { Self.matches($0, filters) } }
        var kept = [Bool](repeating: true, count: all.count)
        for filter in filters {
            // `any` is a match in any of its tags' values, as `values` lists them.
            var found = [Bool](repeating: false, count: all.count)
            for tag in filter.tag == "any" ? Self.anyTags : [filter.tag] {
                let matches = folded(tag, all).matches(lowercased: filter.value)
                for index in found.indices where matches[index] { found[index] = true }
            }
            for index in kept.indices where !found[index] { kept[index] = false }
        }
        return all.indices.filter { kept[$0] }.map { all[$0] }
    }

    /// `search`'s values of `tag` over `all` (the cached tracks), lowercased once.
    private func folded(_ tag: String, _ all: [LibraryTrack]) -> MPDFoldedValues {
        if let folded = cached?.folded[tag] { return folded }
        let folded = MPDFoldedValues(count: all.count) { Self.values(all[$0], tag) }
        cached?.folded[tag] = folded
        return folded
    }

    /// MPD's old `TAG VALUE` pairs; `search`'s (not `exact`) compared without case.
    private static func filters(_ arguments: [String], exact: Bool) throws(MPDFailure) -> [(tag: String, value: String)] {
        guard arguments.count % 2 == 0 else { throw MPDFailure(.argument, "Incorrect number of filter arguments") }
        var filters: [(tag: String, value: String)] = []
        for pair in stride(from: 0, to: arguments.count, by: 2) {
            let tag = arguments[pair].lowercased()
            guard tags.contains(tag) else { throw MPDFailure(.argument, "Unknown filter type") }
            filters.append((tag, exact ? arguments[pair + 1] : arguments[pair + 1].lowercased()))
        }
        return filters
    }

    /// `find`'s match (`search`'s is `MPDFoldedValues`'): each filter's value is one of the track's.
    private static func matches(_ track: LibraryTrack, _ filters: [(tag: String, value: String)]) -> Bool {
        filters.allSatisfy { filter in values(track, filter.tag).contains(filter.value) }
    }

    package static let tags = ["any", "file", "artist", "albumartist", "album", "title", "track", "date", "genre"]
    /// The tags `any` stands for.
    private static let anyTags = ["file", "artist", "albumartist", "album", "title", "genre"]

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
        default: anyTags.flatMap { values(track, $0) }
        }
    }

    /// A song as MPD's database gives it (its tag order), `Time` and `duration` from the index.
    package static func song(_ track: LibraryTrack) -> MPDResponse {
        var response = MPDResponse()
        song(track, into: &response)
        return response
    }

    package static func song(_ track: LibraryTrack, into response: inout MPDResponse) {
        response.add("file", track.relativePath)
        if let modified = MPDStoredPlaylists.time(Int(track.modifiedNanoseconds / 1_000_000_000)) { response.add("Last-Modified", modified) }
        // The file's rate and channels; the sample format is the player's decoding, 16 bits, as `status`' `audio` says.
        if let rate = track.sampleRate, let channels = track.channels, rate > 0, channels > 0 {
            response.add("Format", "\(rate):16:\(channels)")
        }
        for artist in track.artists { response.add("Artist", artist) }
        for artist in track.albumArtists { response.add("AlbumArtist", artist) }
        if let title = track.title { response.add("Title", title) }
        if let album = track.album { response.add("Album", album) }
        if let number = track.trackNumber { response.add("Track", number) }
        if let year = track.year { response.add("Date", year) }
        for genre in track.genres { response.add("Genre", genre) }
        if let disc = track.discNumber { response.add("Disc", disc) }
        if let seconds = track.durationSeconds, seconds.isFinite, seconds >= 0 {
            response.add("Time", MPDCommands.wholeSeconds(seconds))
            response.add("duration", milliseconds: seconds)
        }
    }
}
